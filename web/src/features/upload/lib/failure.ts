import { UPLOAD_MSG } from '../../../../../shared/schemas/receipts';
import { ApiError } from '../../../lib/api-error';
import { UploadPutError } from './put-file';
import { uploadErrorMessage } from './validate';

/** Why a file did not upload, as its card tells it, and whether trying again can change that. */
export interface UploadFailure {
  /** The card's text. */
  message: string;
  /**
   * A new signed URL and a new PUT may succeed: the network, the storage, a passing server error, an ended
   * session (after signing in again). Not for a refusal of the file itself (type, size, empty, mode) or of the
   * company (the month's quota reached, no access): the same file would be refused again.
   */
  retry: boolean;
  /** The session ended (401): the file can be tried once the user has signed in again. */
  sessionEnded: boolean;
}

/** The statuses of the API that say nothing about the file: a later try may pass. */
const PASSING_STATUSES = new Set([0, 408, 425, 500, 502, 503, 504]);

/** The card text of a failed step: the server's message or code (ApiError details), a storage refusal, or 'Error'. */
function failureText(error: unknown): string {
  if (error instanceof ApiError) {
    const details = error.details as { code?: unknown } | Array<{ code?: unknown }> | undefined;
    const code = Array.isArray(details) ? details.find((d) => d && typeof d === 'object' && 'code' in d)?.code : details?.code;
    const fieldMessage = Object.values(error.fieldErrors)[0];
    return uploadErrorMessage({ code, message: fieldMessage || error.message });
  }
  if (error instanceof UploadPutError) return uploadErrorMessage({ message: error.message });
  return uploadErrorMessage({ message: error instanceof Error ? error.message : undefined });
}

/**
 * What a failed GET /upload/document or PUT means for the card. The API's 429 is either the month's quota of the
 * company (no retry: it stays reached) or the user's cap on uploads waiting for their files (a retry passes once
 * they have arrived or expired, as its message says). A storage refusal of the PUT is always worth a new signed
 * URL (an expired signature, a passing storage error).
 */
export function uploadFailure(error: unknown): UploadFailure {
  const message = failureText(error);
  if (error instanceof ApiError) {
    if (error.status === 401) return { message, retry: true, sessionEnded: true };
    if (error.status === 429) return { message, retry: !error.message.startsWith(UPLOAD_MSG.quotaExceeded), sessionEnded: false };
    return { message, retry: PASSING_STATUSES.has(error.status) || error.status >= 500, sessionEnded: false };
  }
  return { message, retry: true, sessionEnded: false };
}
