/**
 * Exports of confirmed documents to the company's integrations (docs/integrations.md).
 *
 * A confirm with the send flag (POST /receipt/{id}?with_send=1) and the list's bulk "send" queue one message per
 * switched-on export target. The export job (lambdas/jobs/export-document.ts) delivers each message:
 * - an export marker per document and target (written after a delivery, with the content it carried) makes a second
 *   send of the same content a no-op; a document corrected since (unarchived, edited, confirmed again) goes again;
 * - transient failures (network, timeouts, the target busy or down) are retried as new messages with a growing
 *   delay, up to `maxAttempts`;
 * - a permanent failure, or the last attempt, writes "Export to <target> failed: <reason>" into the history and
 *   the document's error, where the user sees it and may send again (bulk "send"); a later success of that target
 *   clears it (only it: another target's open failure stays, `exportErrorAfter`).
 */
import { businessMonth } from '../../../shared/business-time';
import { AppError } from '../../../shared/errors';
import { BULK_SEND_BUDGET_MS } from '../../../shared/processing-limits';
import { EXPORT_TARGETS, TARGET_LABEL, type ExportTarget } from '../../../shared/schemas/integrations';
import type { ReceiptSummary } from '../../../shared/schemas/receipts';
import type { CompanyRecord } from '../accounts/types';
import { companySchema } from '../content/schema';
import { parseStoredContent } from '../content/service';
import { emptyContent, valueOf } from '../content/tree';
import { CommitConflict, type DocumentsStore, type FileStore } from '../documents/ports';
import { emptyChange, type DocumentRecord } from '../documents/types';
import { historyRecord, loadVisible, publishDoc, SYSTEM_ACTOR, type DocCaller, type DocumentDeps } from '../documents/workflow';
import { toSummary } from '../documents/views';
import { toExportDocument, type ExportDocument } from '../export/fields';
import { vatLinesOff } from '../export/refusals';
import { buildDocumentsXml } from '../export/xml';
import type { AccountsStore, Clock, IdGenerator, LiveEvents } from '../ports';
import { buildNsoftCsv } from './nsoft';
import { TargetError, type ExportMessage, type ExportQueue, type FileDrop, type IntegrationStore, type OutgoingFile, type RivileApi, type SecretBox } from './ports';
import { exportToRivile } from './rivile';
import { openCredentials } from './service';

export const EXPORT_ERROR_PREFIX = 'Export to ';
/** Why NSOFT and Rivile refuse a document: they book it on its issue date. */
export const NO_ISSUE_DATE = 'the document has no issue date';

export interface RetryPolicy {
  maxAttempts: number;
  /** Delay before the 2nd attempt; each later one waits 4 times longer (at most SQS's 900 s). */
  baseSeconds: number;
}
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseSeconds: 30 };

export function backoffSeconds(attempt: number, policy: RetryPolicy): number {
  return Math.min(900, Math.round(policy.baseSeconds * 4 ** Math.max(0, attempt - 1)));
}

export interface ExportDeps {
  documents: DocumentsStore;
  files: FileStore;
  store: AccountsStore;
  live: LiveEvents;
  clock: Clock;
  ids: IdGenerator;
  integrations: IntegrationStore;
  secrets: SecretBox;
  fileDrop: FileDrop;
  rivile: RivileApi;
  queue: ExportQueue;
  retry: RetryPolicy;
}

/** The export targets a company has switched on. */
export function enabledTargets(company: Pick<CompanyRecord, 'integrations'>): ExportTarget[] {
  return EXPORT_TARGETS.filter((t) => company.integrations?.[t]);
}

/** The export targets a company, read now, has switched on. */
async function companyTargets(store: AccountsStore, companyId: string): Promise<ExportTarget[]> {
  const [company] = await store.getCompanies([companyId]);
  return company ? enabledTargets(company) : [];
}

/** One queue message per document and target. */
function exportMessages(clock: Clock, companyId: string, userId: string, receiptIds: string[], targets: ExportTarget[]): ExportMessage[] {
  const now = clock.now().toISOString();
  return receiptIds.flatMap((id) =>
    targets.map((target) => ({ receipt_id: id, company_id: companyId, target, attempt: 1, requested_by: userId, requested_at: now })),
  );
}

/** What the edit screen's confirm answers when its document was archived but could not be queued. */
export const CONFIRMED_NOT_SENT = 'The document was confirmed but not sent: the export queue could not be reached. Use Send again.';
/** The reason each target's export error gives then. */
export const QUEUE_UNREACHABLE = 'the export queue could not be reached';
/** The list's Send and Send again when the company exports nowhere: nothing would be sent. */
export const NO_EXPORT_TARGET = 'Nothing was sent: no export integration (FTP, NSOFT or Rivile) is switched on';

type QueueDeps = Pick<ExportDeps, 'store' | 'queue' | 'clock'> & OutcomeDeps & { log?: { warn(message: string, data?: Record<string, unknown>): void } };

/**
 * Queues documents already confirmed (archived), one message per document and switched-on target. Their status is committed, so a queue that fails must not leave
 * them archived and silently unsent: each gets "Export to <target> failed: the export queue could not be reached"
 * for every switched-on target (the error the screens show, with Send again) and false is answered.
 */
export async function queueConfirmed(deps: QueueDeps, caller: DocCaller, receiptIds: string[]): Promise<boolean> {
  const companyId = caller.companyId;
  const targets = companyId && receiptIds.length ? await companyTargets(deps.store, companyId) : [];
  if (!companyId || !targets.length) return true;
  try {
    await deps.queue.send(exportMessages(deps.clock, companyId, caller.userId, receiptIds, targets));
    return true;
  } catch (error) {
    deps.log?.warn('export queue failed; the documents carry the export error', { receipt_ids: receiptIds, error: error instanceof Error ? error.message : String(error) });
    for (const id of receiptIds) {
      for (const target of targets) await recordOutcome(deps, id, target, exportFailure(target, QUEUE_UNREACHABLE));
    }
    return false;
  }
}

/**
 * The edit screen's CONFIRM with the send flag, after the document was archived: queued for the company's export
 * targets; when the queue fails the document carries the export error (Send again) and the user is told that it
 * was confirmed but not sent.
 */
export async function sendConfirmed(deps: QueueDeps, caller: DocCaller, receiptId: string): Promise<void> {
  if (!(await queueConfirmed(deps, caller, [receiptId]))) throw new AppError('InternalError', CONFIRMED_NOT_SENT);
}

/** Statuses the list's Send takes: documents that were read and may be confirmed, and confirmed ones (again). */
export const SENDABLE_STATUSES = ['review', 'ready', 'rejected', 'archive'] as const;
export const notSendable = (status: string) => `A document in status ${status} cannot be sent`;
export const SEND_TIME_UP = 'Not sent: too many documents at once. Send it again';

/** The edit screen's confirm, for the list's Send (lambdas/core/content/edit.ts). */
export interface SendConfirm {
  /** CONFIRM of one document as it stands: validated, its supplier/customer linked, archived. */
  confirm(caller: DocCaller, receiptId: string, version: number): Promise<ReceiptSummary>;
  /** Throws as a confirm would when an archived document's content could not be confirmed. */
  check(caller: DocCaller, receiptId: string): Promise<void>;
}

/**
 * Bulk "send" from the list: each document is confirmed as the edit screen's CONFIRM does (the same checks: its
 * content valid, the company's own code not its supplier's/customer's) when it is not yet archived, then queued
 * for the company's export targets. An archived document is checked the same way and only queued again: the way
 * to send after a failure. Documents that were not read (failed, error, busy, unassigned) are refused.
 */
export async function sendDocuments(
  deps: DocumentDeps & Pick<QueueDeps, 'queue' | 'log'>,
  confirm: SendConfirm,
  caller: DocCaller,
  receiptIds: string[],
): Promise<{ results: { receipt_id: string; ok: boolean; status: number; message?: string; receipt?: ReceiptSummary }[] }> {
  if (!caller.companyId) throw new AppError('BadRequest', 'company_id is required');
  // Nothing is confirmed for a send that would go nowhere.
  const targets = await companyTargets(deps.store, caller.companyId);
  if (!targets.length) throw new AppError('Conflict', NO_EXPORT_TARGET);
  const results: { receipt_id: string; ok: boolean; status: number; message?: string; receipt?: ReceiptSummary }[] = [];
  const queued: string[] = [];
  const until = deps.clock.now().getTime() + BULK_SEND_BUDGET_MS;
  let sent = true;
  try {
    for (const id of [...new Set(receiptIds)]) {
      if (deps.clock.now().getTime() >= until) {
        results.push({ receipt_id: id, ok: false, status: 503, message: SEND_TIME_UP });
        continue;
      }
      try {
        const doc = await loadVisible(deps.documents, caller, id);
        if (!(SENDABLE_STATUSES as readonly string[]).includes(doc.status)) throw new AppError('Conflict', notSendable(doc.status));
        let receipt: ReceiptSummary;
        if (doc.status === 'archive') {
          await confirm.check(caller, id);
          receipt = toSummary(await dismissSwitchedOffFailures(deps, doc, targets));
        } else receipt = await confirm.confirm(caller, id, doc.version);
        queued.push(id);
        results.push({ receipt_id: id, ok: true, status: 200, receipt });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ receipt_id: id, ok: false, status: error.statusCode, message: error.message });
      }
    }
  } finally {
    // Also when an unexpected failure ends the call: the documents confirmed (archived) by then are sent, none is
    // left archived and unsent.
    sent = await queueConfirmed(deps, caller, queued);
  }
  if (!sent) for (const r of results) if (r.ok) Object.assign(r, { ok: false, status: 500, message: CONFIRMED_NOT_SENT });
  return { results };
}

/** The document as exports see it (content from storage). */
export async function exportDocumentOf(files: FileStore, doc: DocumentRecord): Promise<ExportDocument> {
  const raw = doc.content_key ? await files.getJson<unknown>(doc.content_key) : undefined;
  return toExportDocument(doc, parseStoredContent(raw) ?? emptyContent(companySchema()));
}

/** The longest folder or file name part the export writes. */
const PART_MAX = 80;

const safeText = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '');

const safePart = (s: string, fallback: string) => safeText(s).slice(0, PART_MAX) || fallback;

/** A file name of at most PART_MAX characters, shortened in its base name: the extension says what the file is. */
function safeFileName(name: string, fallback: string): string {
  const clean = safeText(name);
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(clean)?.[0] ?? '';
  const base = clean.slice(0, clean.length - extension.length).slice(0, PART_MAX - extension.length);
  return clean ? base + extension : fallback;
}

/**
 * `/<company code or unique name>/<YYYY-MM>` of the document's issue date, else of its upload in the business
 * calendar (Vilnius): an upload at 01:30 on the 1st belongs to the new month, as the bookkeeper counts it.
 */
export function exportFolder(company: Pick<CompanyRecord, 'code' | 'unique_name'>, doc: ExportDocument, issueDate: string | null): string {
  const month = issueDate && /^\d{4}-\d{2}/.test(issueDate) ? issueDate.slice(0, 7) : businessMonth(new Date(doc.created_at));
  return `/${safePart(company.code || company.unique_name, 'company')}/${month}`;
}

/** Names carry the document id, so two documents never overwrite each other and a re-send overwrites itself. */
export function exportFileNames(doc: Pick<ExportDocument, 'receipt_id' | 'original_file_name'>) {
  return {
    original: `${doc.receipt_id}_${safeFileName(doc.original_file_name ?? '', 'original')}`,
    xml: `${doc.receipt_id}.xml`,
    nsoft: `${doc.receipt_id}.nsoft.csv`,
  };
}

async function originalFile(files: FileStore, doc: DocumentRecord, name: string): Promise<OutgoingFile[]> {
  if (!doc.source) return [];
  const obj = await files.get(doc.source.key);
  return [{ name, bytes: obj.bytes }];
}

async function deliver(deps: ExportDeps, company: CompanyRecord, doc: DocumentRecord, target: ExportTarget): Promise<string> {
  const creds = await openCredentials(deps, company.company_id, target);
  if (!creds) throw new TargetError('No credentials are stored for this integration; switch it on again', false);
  const exportDoc = await exportDocumentOf(deps.files, doc);
  const names = exportFileNames(exportDoc);
  // An accounting system books a document on its date: without one it would land in the month of the upload.
  if (target !== 'ftp_export' && !valueOf(exportDoc.content, 'issue_date')) throw new TargetError(NO_ISSUE_DATE, false);
  // Rivile's and NSOFT's lines carry the VAT by rate of the VAT lines: lines its totals contradict are not booked
  const vatOff = target === 'ftp_export' ? null : vatLinesOff(exportDoc);
  if (vatOff) throw new TargetError(`the VAT lines do not add up: ${vatOff}`, false);
  if (target === 'rivile_export') {
    if (creds.kind !== 'api_key') throw new TargetError('The stored credentials do not fit this integration', false);
    return exportToRivile(deps.rivile, creds.api_key, exportDoc);
  }
  if (creds.kind !== 'server') throw new TargetError('The stored credentials do not fit this integration', false);
  const folder = exportFolder(company, exportDoc, doc.issue_date);
  const structured: OutgoingFile =
    target === 'ftp_export'
      ? { name: names.xml, bytes: new TextEncoder().encode(buildDocumentsXml([exportDoc], companySchema(), deps.clock.now())) }
      : { name: names.nsoft, bytes: new TextEncoder().encode(buildNsoftCsv(exportDoc)) };
  const files = [...(await originalFile(deps.files, doc, names.original)), structured];
  await deps.fileDrop.upload(creds.login, folder, files);
  return files.map((f) => `${folder}/${f.name}`).join(', ');
}

/**
 * "Export to <target> failed: <reason>", one line at most 500 characters. The reason's own closing full stop is
 * left out: several targets' failures are joined by '; ' ("550 Not a directory.; Export to NSOFT failed: …").
 */
function exportFailure(target: ExportTarget, reason: string): string {
  return `${EXPORT_ERROR_PREFIX}${TARGET_LABEL[target]} failed: ${reason.trim().replace(/\.+$/, '')}`.replace(/\s+/g, ' ').slice(0, 500);
}

/** Where the next target's failure starts in a document's error that holds several. */
const NEXT_EXPORT_FAILURE = new RegExp(`; (?=${EXPORT_ERROR_PREFIX}(?:${Object.values(TARGET_LABEL).join('|')}) failed: )`);

/**
 * The document's error after one target's outcome. Each failed target keeps its own "Export to <target> failed: …"
 * (joined by '; '), so a success clears only that target's failure and another target's stays visible, with Send
 * again; a later failure of the same target replaces its earlier one. An error that is not an export's (recognition)
 * stays on a success and gives way to a failure.
 */
export function exportErrorAfter(current: string | null | undefined, target: ExportTarget, failure: string | null): string | null {
  const isExportError = Boolean(current?.startsWith(EXPORT_ERROR_PREFIX));
  if (!isExportError && !failure) return current ?? null;
  const own = `${EXPORT_ERROR_PREFIX}${TARGET_LABEL[target]} failed: `;
  const others = isExportError ? current!.split(NEXT_EXPORT_FAILURE).filter((f) => !f.startsWith(own)) : [];
  const open = failure ? [...others, failure] : others;
  return open.length ? open.join('; ') : null;
}

type OutcomeDeps = Pick<ExportDeps, 'documents' | 'live' | 'clock' | 'ids'>;

/**
 * Writes one target's outcome into the document's history (`name`, by default the failure or "Exported to <target>")
 * and its error, then tells the screens: the document as written; null when it is gone (deleted meanwhile).
 */
async function recordOutcome(deps: OutcomeDeps, receiptId: string, target: ExportTarget, failure: string | null, name = failure ?? `Exported to ${TARGET_LABEL[target]}`): Promise<DocumentRecord | null> {
  for (let attempt = 1; attempt <= 5; attempt++) {
    const doc = await deps.documents.get(receiptId);
    if (!doc) return null;
    const now = deps.clock.now().toISOString();
    const after: DocumentRecord = { ...doc, error_message: exportErrorAfter(doc.error_message, target, failure), version: doc.version + 1, updated_at: now };
    const change = emptyChange();
    change.updates.push({ before: doc, after });
    change.history.push(historyRecord(deps.ids, receiptId, now, name, SYSTEM_ACTOR));
    try {
      await deps.documents.commit(change);
      await publishDoc(deps.live, 'receipt-update', after);
      return after;
    } catch (e) {
      if (e instanceof CommitConflict && e.reason === 'version') continue;
      throw e;
    }
  }
  throw new Error(`could not record the export outcome of ${receiptId}`);
}

/** The export targets whose failure a document's error holds. */
export function failedTargets(error: string | null | undefined): ExportTarget[] {
  if (!error?.startsWith(EXPORT_ERROR_PREFIX)) return [];
  const failures = error.split(NEXT_EXPORT_FAILURE);
  return EXPORT_TARGETS.filter((t) => failures.some((f) => f.startsWith(`${EXPORT_ERROR_PREFIX}${TARGET_LABEL[t]} failed: `)));
}

/** The history line of a failure Send dismisses because its target has been switched off since. */
export const switchedOffDismissal = (target: ExportTarget) =>
  `${EXPORT_ERROR_PREFIX}${TARGET_LABEL[target]} not tried again: the ${TARGET_LABEL[target]} integration is switched off`;

/**
 * Sending a confirmed document again goes to the targets switched on now; the failure of a target switched off since
 * could never be cleared by it, so it is dismissed (its own history line) and the document's error keeps only what
 * Send may still mend. The document as it is then.
 */
async function dismissSwitchedOffFailures(deps: OutcomeDeps, doc: DocumentRecord, targets: ExportTarget[]): Promise<DocumentRecord> {
  let current = doc;
  for (const target of failedTargets(doc.error_message)) {
    if (targets.includes(target)) continue;
    current = (await recordOutcome(deps, doc.receipt_id, target, null, switchedOffDismissal(target))) ?? current;
  }
  return current;
}

export type ExportOutcome = 'done' | 'already-done' | 'skipped' | 'retry' | 'failed';

export async function runExport(
  deps: ExportDeps,
  msg: ExportMessage,
  log: { info(m: string, d?: Record<string, unknown>): void; warn(m: string, d?: Record<string, unknown>): void },
): Promise<ExportOutcome> {
  const label = TARGET_LABEL[msg.target];
  const ctx = { receipt_id: msg.receipt_id, target: msg.target, attempt: msg.attempt };
  const doc = await deps.documents.get(msg.receipt_id);
  if (!doc || doc.company_id !== msg.company_id) {
    log.info('export skipped: the document is gone or moved', ctx);
    return 'skipped';
  }
  const marker = await deps.integrations.getExportMarker(doc.receipt_id, msg.target);
  if (marker && marker.content_key === (doc.content_key ?? null)) {
    log.info('export skipped: already exported', ctx);
    return 'already-done';
  }
  const [company] = await deps.store.getCompanies([msg.company_id]);
  let failure: TargetError;
  try {
    if (!company) return 'skipped';
    if (!company.integrations?.[msg.target]) throw new TargetError(`the ${label} integration is switched off`, false);
    const reference = await deliver(deps, company, doc, msg.target);
    await deps.integrations.putExportMarker({
      receipt_id: doc.receipt_id,
      target: msg.target,
      state: 'done',
      exported_at: deps.clock.now().toISOString(),
      content_key: doc.content_key ?? null,
      reference,
    });
    if (!(await recordOutcome(deps, doc.receipt_id, msg.target, null))) {
      // Deleted while it was being delivered: its delete has removed the markers it had, so this one goes too.
      await deps.documents.deleteExportMarkers(doc.receipt_id);
      log.info('exported, but the document was deleted meanwhile', ctx);
      return 'done';
    }
    log.info('exported', ctx);
    return 'done';
  } catch (error) {
    failure = error instanceof TargetError ? error : new TargetError('an unexpected error happened', true);
    log.warn('export attempt failed', { ...ctx, transient: failure.transient, error: failure.message, cause: error instanceof TargetError ? undefined : String(error instanceof Error ? error.name : error) });
  }
  if (failure.transient && msg.attempt < deps.retry.maxAttempts) {
    await deps.queue.send([{ ...msg, attempt: msg.attempt + 1 }], backoffSeconds(msg.attempt, deps.retry));
    return 'retry';
  }
  await recordOutcome(deps, doc.receipt_id, msg.target, exportFailure(msg.target, failure.message));
  return 'failed';
}
