/** The one API error shape and the error kinds every layer throws. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details?: unknown;
}

export type ErrorKind =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'Conflict'
  | 'ValidationFailed'
  | 'QuotaExceeded'
  | 'InternalError';

export const ERROR_STATUS: Record<ErrorKind, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  ValidationFailed: 422,
  QuotaExceeded: 429,
  InternalError: 500,
};

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly details?: unknown;
  constructor(kind: ErrorKind, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.details = details;
  }
  get statusCode(): number {
    return ERROR_STATUS[this.kind];
  }
  toBody(): ApiErrorBody {
    const body: ApiErrorBody = { statusCode: this.statusCode, error: this.kind, message: this.message };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export const notFound = (what = 'Not found') => new AppError('NotFound', what);
export const forbidden = (what = 'Forbidden') => new AppError('Forbidden', what);
export const conflict = (what: string, details?: unknown) => new AppError('Conflict', what, details);
export const badRequest = (what: string, details?: unknown) => new AppError('BadRequest', what, details);

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiErrorBody).statusCode === 'number' &&
    typeof (value as ApiErrorBody).message === 'string'
  );
}
