import { isApiErrorBody } from '../../../shared/errors';
import { MSG } from '../../../shared/schemas/messages';

export const NETWORK_ERROR_MESSAGE = 'No connection to the internet';

export type FieldErrors = Record<string, string>;

/** A failed API call: the server's `{ statusCode, error, message, details? }` or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly error: string;
  readonly details?: unknown;
  /** First message per field path (path segments joined with '.'), from 422 details. */
  readonly fieldErrors: FieldErrors;

  constructor(status: number, error: string, message: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
    this.details = details;
    this.fieldErrors = detailsToFieldErrors(details);
  }

  get isNetwork(): boolean {
    return this.status === 0;
  }
  get isUnauthorized(): boolean {
    return this.status === 401;
  }
}

export function detailsToFieldErrors(details: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (!Array.isArray(details)) return out;
  for (const d of details as unknown[]) {
    if (typeof d !== 'object' || d === null) continue;
    const { path, message } = d as { path?: unknown; message?: unknown };
    if (typeof message !== 'string') continue;
    const key = Array.isArray(path) ? path.map(String).join('.') : typeof path === 'string' ? path : '';
    if (!(key in out)) out[key] = message;
  }
  return out;
}

/** Turn an HTTP status and a (possibly non-JSON) body into an ApiError. */
export function parseApiError(status: number, body: unknown): ApiError {
  if (isApiErrorBody(body)) {
    return new ApiError(status || body.statusCode, body.error || 'Error', body.message || MSG.somethingWrong, body.details);
  }
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
    return new ApiError(status, 'Error', (body as { message: string }).message);
  }
  return new ApiError(status, status === 401 ? 'Unauthorized' : 'Error', MSG.somethingWrong);
}

export function networkError(): ApiError {
  return new ApiError(0, 'NetworkError', NETWORK_ERROR_MESSAGE);
}

/** The message to show for any thrown value, falling back to the spec's generic text. */
export function messageOf(err: unknown, fallback: string = MSG.somethingWrong): string {
  if (err instanceof ApiError) return err.message || fallback;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}
