import { isApiErrorBody } from '../../../shared/errors';
import { MSG } from '../../../shared/schemas/messages';

export const NETWORK_ERROR_MESSAGE = 'No connection to the internet';
/**
 * A write (POST, PUT, DELETE) answered by the gateway, not the API (502, 503, 504: the call timed out or the
 * function failed on its way): it may have been done. The screen reads its data again and shows what is true.
 */
export const RESULT_UNKNOWN_MESSAGE = 'No answer came from the server, so it is not known whether this was done. The data is read again.';
/** The `error` of an ApiError whose write may or may not have been done (RESULT_UNKNOWN_MESSAGE). */
export const RESULT_UNKNOWN = 'ResultUnknown';

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
  /** A write whose answer was the gateway's 502/503/504: it may have been done; read the data again. */
  get isResultUnknown(): boolean {
    return this.error === RESULT_UNKNOWN;
  }
}

/** True for a failed write that may have been done after all (its answer was the gateway's, not the API's). */
export const isResultUnknown = (err: unknown): boolean => err instanceof ApiError && err.isResultUnknown;

const WRITES: ReadonlySet<string> = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const GATEWAY_LOST: ReadonlySet<number> = new Set([502, 503, 504]);

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

/**
 * Turn an HTTP status and a (possibly non-JSON) body into an ApiError. Only the API's own error shape
 * (`{ statusCode, error, message }`) has its message shown; any other body (API Gateway's own
 * `{"message":"Endpoint request timed out"}`, `{"message":"Internal server error"}`, a proxy's HTML page) gets the
 * spec's 'Something went wrong', and a write (`method` POST/PUT/DELETE) answered that way with 502/503/504 says that
 * its result is not known (the function may have done it before its answer was lost).
 */
export function parseApiError(status: number, body: unknown, method?: string): ApiError {
  if (isApiErrorBody(body)) {
    return new ApiError(status || body.statusCode, body.error || 'Error', body.message || MSG.somethingWrong, body.details);
  }
  if (method && WRITES.has(method.toUpperCase()) && GATEWAY_LOST.has(status)) return new ApiError(status, RESULT_UNKNOWN, RESULT_UNKNOWN_MESSAGE);
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
