import type { ImportResult, ImportType } from '../../../../../shared/schemas/master-data';
import type { ApiClient } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { putFile } from '../../upload/lib/put-file';
import { importContentType, IMPORT_POLL_MS, isFinished } from '../lib/import-xlsx';

interface SignedImport {
  uploadURL: string;
  import_id: string;
  headers?: Record<string, string>;
}

/** GET /upload/import, then the PUT of the workbook to the presigned URL; the import's id. */
export async function uploadWorkbook(
  api: ApiClient,
  file: File,
  uploadType: ImportType,
  companyId: string,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const contentType = importContentType(file);
  const signed = await api.get<SignedImport>('/upload/import', {
    // The size is signed into the URL: storage takes exactly this many bytes, once.
    query: { company_id: companyId, upload_type: uploadType, content_type: contentType, size: file.size, original_file_name: file.name.slice(0, 255) },
    signal,
  });
  if (!signed?.uploadURL || !signed.import_id) throw new ApiError(500, 'Error', 'Error');
  await putFile(
    signed.uploadURL,
    file,
    signed.headers ?? { 'content-type': contentType },
    (loaded, total) => onProgress(total > 0 ? Math.round((loaded / total) * 100) : 0),
    signal,
  );
  return signed.import_id;
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });

/** GET /upload/import/{id} until the import is done or failed. */
export async function waitForImport(
  api: ApiClient,
  importId: string,
  companyId: string,
  onProgress: (result: ImportResult) => void,
  signal?: AbortSignal,
): Promise<ImportResult> {
  for (;;) {
    const result = await api.get<ImportResult>(`/upload/import/${encodeURIComponent(importId)}`, { query: { company_id: companyId }, signal });
    if (isFinished(result)) return result;
    onProgress(result);
    await wait(IMPORT_POLL_MS, signal);
  }
}
