import fontBoldUrl from 'pdfjs-dist/standard_fonts/LiberationSans-Bold.ttf?url';
import fontRegularUrl from 'pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf?url';
import { useState } from 'react';
import { useApi } from '../../../app/api-context';
import { Button } from '../../../components/ui/Button';
import { Checkbox } from '../../../components/ui/Checkbox';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { useTabs } from '../../../components/ui/tabs';
import { TextField } from '../../../components/ui/TextField';
import { messageOf } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useActiveCompany } from '../../companies/api/companies';
import { useCompanySchema } from '../../edit-receipt/api/content';
import { companyOf, useReceiptActions } from '../../receipts/api/receipts';
import { withCompanyAsNow } from '../../receipts/lib/row-rules';
import type { Receipt, ReceiptDetail } from '../../receipts/api/types';
import { ISAF_EXPORT_MAX } from '../../../../../shared/schemas/content';
import { XML_EXPORT_MAX } from '../../../../../shared/schemas/receipts';
import { exportedVersions, exportIsaf, exportXml, loadForExport, serverExportCalls } from '../api/export';
import { buildCsv, CSV_FORMATS, csvBlob, isCsvFormat, type CsvFormat } from '../lib/csv';
import { rememberCsvFormat, rememberExportFields, storedCsvFormat, storedExportFields } from '../lib/remembered';
import { downloadBlob } from '../lib/download';
import { amountColumns, csvHeader, defaultExportFields, knownExportFields, pdfTitle, type ExportField } from '../lib/fields';
import { buildPdf, type PdfFont } from '../lib/pdf';
import { defaultReportName, exportFileName, exportTable } from '../lib/table';
import { FieldList } from './FieldList';

export const EXPORT_SUCCESS = 'Document successfully downloaded';

type Tab = 'csv' | 'pdf' | 'xml' | 'rivile' | 'isaf';
const TAB_LABELS: Record<Tab, string> = { csv: 'CSV', pdf: 'PDF', xml: 'XML', rivile: 'Rivile EIP', isaf: 'i.SAF' };
const EXPORT_TABS = Object.keys(TAB_LABELS) as Tab[];

let fontPromise: Promise<PdfFont> | null = null;
/**
 * The PDF font (Liberation Sans from pdfjs-dist: Latin with Lithuanian letters), fetched once. Without it the
 * standard font would print ąčęėįšųūž as other characters, so a failed fetch fails the PDF (the user tries again,
 * and the next try fetches again) instead of exporting garbled names.
 */
function loadPdfFont(): Promise<PdfFont> {
  fontPromise ??= Promise.all([fetch(fontRegularUrl), fetch(fontBoldUrl)])
    .then(async ([r, b]) => {
      if (!r.ok || !b.ok) throw new Error(`font ${r.ok ? b.status : r.status}`);
      return { regular: await r.arrayBuffer(), bold: await b.arrayBuffer() };
    })
    .catch(() => {
      fontPromise = null;
      throw new Error(PDF_FONT_FAILED);
    });
  return fontPromise;
}
export const PDF_FONT_FAILED = 'The PDF could not be made: its font did not load. Please check the connection and try again.';

/** The export's files were downloaded but some documents stayed out of the archive: said instead of the success. */
export function notArchivedMessage(count: number, reason: string): string {
  return `Downloaded, but ${count === 1 ? '1 document' : `${count} documents`} could not be moved to archive: ${reason}`;
}

/**
 * The export pop-up of the selected documents (also used by the edit screen with one document): CSV and PDF
 * built in the browser from a sortable, renamable field list; XML through the server. Optionally moves the
 * documents to the archive afterwards.
 */
export function ExportModal({
  receipts,
  onClose,
  onExported,
}: {
  receipts: ReadonlyArray<Receipt | ReceiptDetail>;
  onClose(): void;
  /** After the files were downloaded; `notArchived`: the documents "Move items to archive" could not move. */
  onExported?: (notArchived: string[]) => void;
}) {
  const api = useApi();
  const info = useInfoPopup();
  const actions = useReceiptActions();
  const view = useActiveCompany();
  // The fields a new column may name: the captured fields of the (first) documents' company
  const schema = useCompanySchema(receipts[0] ? companyOf(receipts[0]) : '');
  const known = schema.data ? knownExportFields(schema.data.fields) : [];
  const [tab, setTab] = useState<Tab>('csv');
  const [fields, setFields] = useState<ExportField[]>(storedExportFields);
  const [fileName, setFileName] = useState(() => defaultReportName());
  const [archive, setArchive] = useState(false);
  const [csvFormat, setCsvFormat] = useState<CsvFormat>(storedCsvFormat);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tabs = useTabs(EXPORT_TABS, tab, setTab, pending);

  const headerOf = (f: ExportField) => (tab === 'pdf' ? pdfTitle(f) : csvHeader(f));

  const onExport = async () => {
    setError(null);
    setPending(true);
    try {
      // The documents the file was made from (CSV, PDF), whose versions the move to archive names
      let exported: ReadonlyArray<Receipt> | undefined;
      if (tab === 'isaf') {
        for (const call of serverExportCalls(receipts, ISAF_EXPORT_MAX, view.companies)) {
          const blob = await exportIsaf(api, call.companyId, call.receiptIds, view.companies.find((c) => c.company_id === call.companyId)?.code);
          downloadBlob(blob, exportFileName(`${fileName.trim() || defaultReportName()}${call.suffix}`, 'xml'));
        }
      } else if (tab === 'xml' || tab === 'rivile') {
        for (const call of serverExportCalls(receipts, XML_EXPORT_MAX, view.companies)) {
          const xml = await exportXml(api, call.companyId, call.receiptIds, tab);
          downloadBlob(new Blob([xml], { type: 'application/xml' }), exportFileName(`${fileName.trim() || defaultReportName()}${call.suffix}`, 'xml'));
        }
      } else {
        if (fields.length === 0) {
          setError('Choose at least one field');
          return;
        }
        // the next export starts from these columns
        rememberExportFields(fields);
        // Company and Company code as the companies list has them now, as the list's rows name the company
        const docs = (await loadForExport(api, receipts)).map((d) => withCompanyAsNow(d, view.companies));
        exported = docs;
        const table = exportTable(docs, fields, tab);
        if (tab === 'csv') {
          downloadBlob(csvBlob(buildCsv(table, csvFormat, amountColumns(fields, schema.data?.fields))), exportFileName(fileName, 'csv'));
        } else {
          const company = view.allCompanies ? 'All companies' : (view.active?.name ?? '');
          const title = fileName.trim() || defaultReportName();
          const subtitle = [company, `${docs.length} ${docs.length === 1 ? 'document' : 'documents'}`, formatDateTime(new Date().toISOString())]
            .filter(Boolean)
            .join(' · ');
          const blob = await buildPdf(table, { title, subtitle, font: await loadPdfFont() });
          downloadBlob(blob, exportFileName(fileName, 'pdf'));
        }
      }
      let notArchived: string[] = [];
      if (archive) {
        const toArchive = receipts.filter((r) => r.status !== 'archive') as Receipt[];
        // Named with the versions the file holds: a document a colleague changed since is refused (409) and stays,
        // listed in the "could not be moved" message, instead of being archived in a version the file does not hold.
        const outcome = await actions.setStatus(toArchive, 'archive', exportedVersions(receipts, exported));
        notArchived = outcome.failed.map((f) => f.receipt.receipt_id);
        if (outcome.failed.length > 0) info.show(notArchivedMessage(outcome.failed.length, messageOf(outcome.failed[0]!.error)), 'error');
      }
      if (notArchived.length === 0) info.show(EXPORT_SUCCESS, 'success');
      onExported?.(notArchived);
      onClose();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setPending(false);
    }
  };

  const count = receipts.length;
  return (
    <Modal title="Export" onClose={pending ? undefined : onClose} testId="export-modal">
      <div className="export-form">
        <div className="tabs" aria-label="Export format" {...tabs.listProps}>
          {EXPORT_TABS.map((t) => (
            <button key={t} className={`tab ${tab === t ? 'is-active' : ''}`} {...tabs.tabProps(t)}>
              {TAB_LABELS[t]}
            </button>
          ))}
        </div>
        <p className="muted export-count">
          {count} {count === 1 ? 'document' : 'documents'} selected
        </p>

        {/* above the field list, so they are in sight on a laptop's screen whatever the list's length */}
        <TextField name="file_name" label="File name" value={fileName} onChange={(e) => setFileName(e.target.value)} maxLength={120} />
        <Checkbox
          name="archive_after_export"
          label="Move items to archive after export"
          checked={archive}
          onChange={(e) => setArchive(e.target.checked)}
        />
        <div className="export-panel" {...tabs.panelProps}>
          {tab === 'xml' ? (
            <p className="notice">The XML file is made by the server from the documents&apos; recognised data.</p>
          ) : tab === 'isaf' ? (
            <p className="notice">
              The i.SAF file, VMI&apos;s register of VAT invoices, is made by the server from the documents&apos; recognised data: costs as purchase
              invoices, sales invoices as sales, one file per company.
            </p>
          ) : tab === 'rivile' ? (
            <p className="notice">Rivile GAMA&apos;s EIP import file, for importing into Rivile without its API, is made by the server from the documents&apos; recognised data.</p>
          ) : (
            <>
              <div className="export-fields-head">
                <span className="field-label">Fields</span>
                <button type="button" className="btn btn-link btn-xs" onClick={() => setFields(defaultExportFields())}>
                  Reset
                </button>
              </div>
              <FieldList fields={fields} known={known} onChange={setFields} headerOf={headerOf} />
              {tab === 'csv' && (
                <div className="field">
                  <label htmlFor="export-csv-format" className="field-label">
                    Spreadsheet format
                  </label>
                  <select
                    id="export-csv-format"
                    name="csv_format"
                    className="input select"
                    value={csvFormat}
                    onChange={(e) => {
                      if (!isCsvFormat(e.target.value)) return;
                      setCsvFormat(e.target.value);
                      rememberCsvFormat(e.target.value);
                    }}
                  >
                    {(Object.keys(CSV_FORMATS) as CsvFormat[]).map((f) => (
                      <option key={f} value={f}>
                        {CSV_FORMATS[f].label}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </>
          )}
        </div>

        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button onClick={() => void onExport()} loading={pending} disabled={count === 0}>
            EXPORT
          </Button>
        </div>
      </div>
    </Modal>
  );
}
