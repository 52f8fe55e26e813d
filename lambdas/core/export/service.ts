/**
 * GET receipts/{id}/export: one document, or it and the others named in receipt_ids, as a file
 * {mime, base64, name}: CSV, PDF, the product's XML or an i.SAF 1.2 register. POST receipts/export-isaf: the
 * i.SAF register of a list's selection, the ids in the body (exportDocuments, the same file).
 */
import { conflict, notFound } from '../../../shared/errors';
import { MESSAGES } from '../documents/status-machine';
import type { ExportFile, ExportQuery } from '../../../shared/schemas/content';
import { currentCompany, loadContents } from '../content/service';
import type { ContentCaller, ContentPorts } from '../content/ports';
import { buildCsv } from './csv';
import { exportFileName, parseExportFields, toExportDocument } from './fields';
import { buildIsaf } from './isaf';
import { buildPdf } from './pdf';
import { buildDocumentsXml } from './xml';

export const SOFTWARE = { company: 'Receipts Capture', name: 'Receipts Capture', version: '0.1.0' };

/** How the file is made: everything of the GET's query but the documents. */
export type ExportOptions = Omit<ExportQuery, 'receipt_ids'>;

export async function exportReceipts(ports: ContentPorts, caller: ContentCaller, receiptId: string, query: ExportQuery): Promise<ExportFile> {
  const { receipt_ids: others = '', ...options } = query;
  return exportDocuments(ports, caller, [receiptId, ...others.split(',')], options);
}

/**
 * The documents as one file, in the order asked (each once; blank ids left out); the first one's company is the
 * reporting company of an i.SAF register.
 */
export async function exportDocuments(ports: ContentPorts, caller: ContentCaller, receiptIds: readonly string[], query: ExportOptions): Promise<ExportFile> {
  const [receiptId, ...wanted] = [...new Set(receiptIds.map((s) => s.trim()).filter(Boolean))];
  if (!receiptId) throw notFound('Document not found');
  const firstRecord = await ports.documents.load(caller, receiptId);
  const visible = wanted.length ? await ports.documents.loadMany(caller, wanted) : [];
  // loadMany leaves out what the caller cannot see or what was deleted: a file without those documents would
  // look complete, so any of them is 404 as for the first id and for exportXml.
  if (visible.length !== wanted.length) throw notFound('Document not found');
  // In the order asked (a batch read answers in any order); the records read are not read again one by one.
  const byId = new Map(visible.map((r) => [r.receipt_id, r]));
  const loaded = await loadContents(ports, [firstRecord, ...wanted.map((id) => byId.get(id)!)]);
  const first = loaded[0]!;
  // A document without a company is not read yet (documents/processing.ts `keepUnread`): no XML or i.SAF of it.
  if ((query.type === 'xml' || query.type === 'isaf') && loaded.some((l) => !l.record.company_id)) throw conflict(MESSAGES.unassigned);
  // Each company's name and code as they are now, read once per company: a document keeps those of its upload.
  const companies = new Map<string | null, Promise<{ name: string; code: string }>>();
  const companyOf = (record: (typeof loaded)[number]['record']) => {
    if (!companies.has(record.company_id)) companies.set(record.company_id, currentCompany(ports, record));
    return companies.get(record.company_id)!;
  };
  const docs = await Promise.all(
    loaded.map(async (l) => {
      const company = await companyOf(l.record);
      return toExportDocument({ ...l.record, company_name: company.name, company_code: company.code }, l.doc);
    }),
  );
  const now = ports.clock.now();
  const columns = parseExportFields(query.fields);
  switch (query.type) {
    case 'pdf': {
      const name = exportFileName(query.file_name, now, 'pdf');
      const bytes = await buildPdf(docs, columns, { title: name.replace(/\.pdf$/i, ''), generatedAt: now, fonts: ports.fonts ? await ports.fonts() : undefined });
      return { mime: 'application/pdf', base64: Buffer.from(bytes).toString('base64'), name };
    }
    case 'xml':
      return {
        mime: 'application/xml',
        base64: Buffer.from(buildDocumentsXml(docs, first.schema, now), 'utf8').toString('base64'),
        name: exportFileName(query.file_name, now, 'xml'),
      };
    case 'isaf': {
      const registrationNumber = query.registration_number || (await companyOf(first.record)).code;
      const xml = buildIsaf(docs, { registrationNumber, createdAt: now, software: SOFTWARE });
      const name = query.file_name ? exportFileName(query.file_name, now, 'xml') : `isaf-${now.toISOString().slice(0, 10)}.xml`;
      return { mime: 'application/xml', base64: Buffer.from(xml, 'utf8').toString('base64'), name };
    }
    default:
      return { mime: 'text/csv', base64: Buffer.from(buildCsv(docs, columns), 'utf8').toString('base64'), name: exportFileName(query.file_name, now, 'csv') };
  }
}
