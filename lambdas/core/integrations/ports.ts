/**
 * What the integrations need from the outside world (adapters in lambdas/adapters/secrets, ddb, sqs, ftp,
 * rivile). Core never imports an adapter.
 */
import type { ExportTarget, ServiceType } from '../../../shared/schemas/integrations';
import type { DriveFlag } from '../../../shared/schemas/drive';

/** Kinds whose credentials are stored: the switchable ones, and the Google Drive / Dropbox grants. */
export type CredentialType = ServiceType | DriveFlag;

/** A secret as stored: ciphertext only; what it needs to be opened again is named, never included. */
export interface SealedSecret {
  /** 'kms' (AWS KMS Encrypt/Decrypt under the product's key) or 'local-aes-256-gcm' (local mode's key file). */
  alg: 'kms' | 'local-aes-256-gcm';
  key_id: string;
  /** base64 */
  ciphertext: string;
  /** base64, AES-GCM only */
  iv?: string;
  /** base64, AES-GCM only */
  tag?: string;
}

/**
 * Encrypts and decrypts small secrets (credentials). The context (company id and integration kind) is bound to
 * the ciphertext: a sealed secret copied to another company or kind does not open.
 */
export interface SecretBox {
  seal(plain: string, context: Record<string, string>): Promise<SealedSecret>;
  open(sealed: SealedSecret, context: Record<string, string>): Promise<string>;
}

export interface StoredCredentials {
  company_id: string;
  type: CredentialType;
  sealed: SealedSecret;
  updated_at: string;
}

/**
 * One export of a document to one target: a second send of the same content is a no-op (idempotency key); a
 * document whose content changed since (unarchived, corrected, confirmed again) is delivered again.
 */
export interface ExportMarker {
  receipt_id: string;
  target: ExportTarget;
  state: 'done';
  exported_at: string;
  /** The content the delivery carried (the document's `content_key`, a new key on every save). */
  content_key: string | null;
  /** What the target knows the document as (file names, Rivile record keys). */
  reference: string;
}

export interface IntegrationStore {
  getCredentials(companyId: string, type: CredentialType): Promise<StoredCredentials | undefined>;
  putCredentials(record: StoredCredentials): Promise<void>;
  deleteCredentials(companyId: string, type: CredentialType): Promise<void>;
  /** Sets one integration flag on the company record (attribute `integrations.<flag>`). */
  setFlag(companyId: string, flag: ServiceType, enabled: boolean): Promise<void>;
  getExportMarker(receiptId: string, target: ExportTarget): Promise<ExportMarker | undefined>;
  /** Writes the marker unless one of the same content exists; false when it already did. */
  putExportMarker(marker: ExportMarker): Promise<boolean>;
}

/** One queue message: deliver one document to one target. */
export interface ExportMessage {
  receipt_id: string;
  company_id: string;
  target: ExportTarget;
  /** 1 for the first try; a retry is a new message with attempt + 1 and a delay. */
  attempt: number;
  requested_by: string;
  requested_at: string;
}

export interface ExportQueue {
  send(messages: ExportMessage[], delaySeconds?: number): Promise<void>;
}

/** A failure of a target: transient ones are retried with backoff, permanent ones are shown at once. */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'TargetError';
  }
}

export interface ServerLogin {
  host: string;
  user: string;
  password: string;
  port?: number;
}

export interface OutgoingFile {
  name: string;
  bytes: Uint8Array;
}

/** An FTP(S) server: log in and list the home folder; upload files into a folder (created when missing). */
export interface FileDrop {
  test(login: ServerLogin): Promise<void>;
  upload(login: ServerLogin, folder: string, files: OutgoingFile[]): Promise<void>;
}

/** Rivile GAMA's API: one method call, answered with the parsed JSON or a TargetError. */
export interface RivileApi {
  /** `options.signal` gives the call up sooner than the client's own timeout (a run whose time is running out). */
  call(apiKey: string, method: string, params: Record<string, unknown>, data?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}
