import { useEffect, useRef, useState } from 'react';
import type { ImportResult, ImportType } from '../../../../../shared/schemas/master-data';
import { useApi } from '../../../app/api-context';
import { Button } from '../../../components/ui/Button';
import { Dropzone } from '../../../components/ui/Dropzone';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { ApiError } from '../../../lib/api-error';
import { UploadPutError } from '../../upload/lib/put-file';
import { uploadWorkbook, waitForImport } from '../api/import-xlsx';
import { IMPORT_ACCEPT, importSummary, rowsDone, validateImportFile } from '../lib/import-xlsx';

export interface ImportXlsxPopupProps {
  uploadType: ImportType;
  companyId: string;
  open: boolean;
  onClose(): void;
  /** Called once the import has finished (done), so that lists reload. */
  onImported?(result: ImportResult): void;
}

type Step =
  | { kind: 'choose'; error: string | null }
  | { kind: 'uploading'; fileName: string; percent: number }
  | { kind: 'importing'; fileName: string; progress: ImportResult | null }
  | { kind: 'finished'; fileName: string; result: ImportResult };

/** 'Import upload failure': the server's message is what the user reads. */
function failureText(error: unknown): string {
  if (error instanceof ApiError) return Object.values(error.fieldErrors)[0] || error.message || 'Error';
  if (error instanceof UploadPutError) return error.message || 'Error';
  return error instanceof Error && error.message ? error.message : 'Error';
}

function ImportResultView({ result }: { result: ImportResult }) {
  if (result.status === 'failed' && rowsDone(result) === 0) {
    return (
      <p className="md-import-failed" role="alert" data-testid="import-message">
        {result.message ?? 'Error'}
      </p>
    );
  }
  return (
    <section className="md-import-result" aria-live="polite">
      {result.message && (
        <p className="md-import-failed" role="alert" data-testid="import-message">
          {result.message}
        </p>
      )}
      {/* green with a check only when every row was taken; rows rejected make it a warning that the table names */}
      <p className={`md-import-summary${result.rejected.length > 0 ? ' has-rejected' : ''}`} data-testid="import-summary">
        <Icon name={result.rejected.length > 0 ? 'info' : 'check'} size={18} /> {importSummary(result)}
      </p>
      {result.rejected.length > 0 && (
        <div className="md-import-rejected" data-testid="import-rejected">
          <table>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {result.rejected.map((r) => (
                <tr key={r.row}>
                  <td>{r.row}</td>
                  <td>{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * The Upload XLSX pop-up of the master-data screens: one .xlsx or .xls file by drag and drop or click, signed by
 * GET /upload/import and PUT to storage; then GET /upload/import/{id} until the import ends, and the result:
 * rows created, updated and each rejected row with its sheet row number and reason.
 */
export function ImportXlsxPopup({ uploadType, companyId, open, onClose, onImported }: ImportXlsxPopupProps) {
  const api = useApi();
  const abortRef = useRef<AbortController | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'choose', error: null });

  // Closing (or leaving the screen) stops the upload and the polling; the import itself goes on on the server.
  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(() => {
    if (!open) {
      abortRef.current?.abort();
      setStep({ kind: 'choose', error: null });
    }
  }, [open]);

  if (!open) return null;

  const start = async (file: File) => {
    const refused = validateImportFile(file);
    if (refused) {
      setStep({ kind: 'choose', error: refused });
      return;
    }
    abortRef.current?.abort();
    const abort = new AbortController();
    abortRef.current = abort;
    setStep({ kind: 'uploading', fileName: file.name, percent: 0 });
    try {
      const importId = await uploadWorkbook(api, file, uploadType, companyId, (percent) => setStep({ kind: 'uploading', fileName: file.name, percent }), abort.signal);
      setStep({ kind: 'importing', fileName: file.name, progress: null });
      const result = await waitForImport(api, importId, companyId, (progress) => setStep({ kind: 'importing', fileName: file.name, progress }), abort.signal);
      setStep({ kind: 'finished', fileName: file.name, result });
      if (result.created + result.updated > 0) onImported?.(result);
    } catch (error) {
      if (abort.signal.aborted) return;
      setStep({ kind: 'choose', error: failureText(error) });
    }
  };

  const pick = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) void start(file);
  };

  const onFiles = (files: FileList) => {
    if (step.kind === 'uploading' || step.kind === 'importing') return;
    pick(files);
  };

  const busy = step.kind === 'uploading' || step.kind === 'importing';

  return (
    <Modal
      title="Upload XLSX"
      onClose={onClose}
      testId="import-xlsx-popup"
      footer={
        <>
          {step.kind === 'finished' && (
            <Button variant="secondary" onClick={() => setStep({ kind: 'choose', error: null })}>
              Upload another file
            </Button>
          )}
          <Button variant={step.kind === 'finished' ? 'primary' : 'secondary'} onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {step.kind === 'choose' && (
        <Dropzone
          label="Drag and drop a file here or click to choose"
          testId="import-dropzone"
          input={{ name: 'file', testId: 'import-input', accept: IMPORT_ACCEPT }}
          onFiles={onFiles}
        >
          <Icon name="upload" size={30} />
          <strong>Drag and drop a file here</strong>
          <span>
            or <span className="dropzone-link">click to choose</span>
          </span>
          <small className="muted">.xlsx or .xls up to 10 MB; columns are found by their header names</small>
        </Dropzone>
      )}
      {step.kind === 'choose' && step.error && (
        <p className="field-error md-import-error" role="alert" data-testid="import-error">
          {step.error}
        </p>
      )}
      {busy && (
        <div className="md-import-progress" aria-live="polite" data-testid="import-progress">
          <p className="md-import-file">{step.fileName}</p>
          {step.kind === 'uploading' ? (
            <span
              className="progress"
              role="progressbar"
              aria-label={`Uploading ${step.fileName}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={step.percent}
            >
              <span className="progress-bar progress-blue" style={{ width: `${step.percent}%` }} />
            </span>
          ) : (
            <p className="md-import-status">
              <Spinner size="sm" label="Importing" />{' '}
              {step.progress && step.progress.total_rows > 0
                ? `Importing… ${rowsDone(step.progress)} of ${step.progress.total_rows} rows`
                : 'Importing…'}
            </p>
          )}
        </div>
      )}
      {step.kind === 'finished' && (
        <>
          <p className="md-import-file">{step.fileName}</p>
          <ImportResultView result={step.result} />
        </>
      )}
    </Modal>
  );
}
