import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-error';

export class UploadPutError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'UploadPutError';
    this.status = status;
  }
}

/** The message of an S3 XML error body (`<Error><Message>…</Message></Error>`), if any. */
export function s3ErrorMessage(body: string): string | undefined {
  const m = /<Message>([\s\S]*?)<\/Message>/.exec(body);
  return m?.[1]?.trim() || undefined;
}

/**
 * PUT the file to the presigned URL with XMLHttpRequest (fetch has no upload progress), reporting progress.
 * Rejects with UploadPutError on an HTTP error or a network failure, and with an AbortError when aborted.
 */
export function putFile(
  url: string,
  file: Blob,
  headers: Record<string, string>,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url, true);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size, file.size);
        resolve();
      } else {
        reject(new UploadPutError(xhr.status, s3ErrorMessage(xhr.responseText ?? '') ?? 'Error'));
      }
    };
    xhr.onerror = () => reject(new UploadPutError(0, NETWORK_ERROR_MESSAGE));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('Upload aborted', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(file);
  });
}
