/**
 * Actions on selected rows: POST /receipts/bulk (status, flag, type, delete by receipt_ids) and
 * POST /receipts/export-xml. A bulk action is applied document by document (each its own
 * transaction with its own checks, version condition, history record and counts), and the answer says per
 * document how it went. The documents are worked on BULK_CONCURRENCY at a time (docs/decisions.md "Bulk
 * actions"): the caller's name is read once and the documents in one consistent batch, and the transactions
 * that move the same counts item are committed one after the other, as DynamoDB would cancel overlapping ones.
 */
import { AppError, conflict, notFound } from '../../../shared/errors';
import type { BulkBody, StatusAction } from '../../../shared/schemas/receipts';
import { companySchema } from '../content/schema';
import { parseStoredContent } from '../content/service';
import { emptyContent } from '../content/tree';
import { buildDocumentsXml } from '../export/xml';
import type { AccountsStore, LiveEvent, LiveEvents } from '../ports';
import type { DocumentsStore } from './ports';
import { sumMoves } from './sums';
import { MESSAGES } from './status-machine';
import type { DocumentChange, DocumentRecord } from './types';
import { toSummary } from './views';
import { canSee, convertType, deleteDocument, setFlag, type DeleteDeps, type DocCaller, type DocumentDeps } from './workflow';

export interface BulkResult {
  receipt_id: string;
  ok: boolean;
  status: number;
  message?: string;
  receipt?: ReturnType<typeof toSummary>;
}

/** Documents of one bulk call worked on at the same time. */
export const BULK_CONCURRENCY = 8;
/** Commits of one document tried in all when the store answers that they met other changes (`isBusy`). */
export const BUSY_ROUNDS = 3;
const BUSY_MESSAGE = 'Too many changes at once. Try again.';

export interface BulkOptions {
  /**
   * An error of the store saying a commit met other changes and was not made (DynamoDB's TransactionConflict after
   * the client's own retries): the commit is tried again after a pause, BUSY_ROUNDS times in all, then that document
   * answers 503 and the others go on.
   */
  isBusy?: (error: unknown) => boolean;
  /** The pause before round `round + 1` of a busy commit (default: 100–400 ms × round, at random). */
  pause?: (round: number) => Promise<void>;
}

const defaultPause = (round: number) => new Promise<void>((resolve) => setTimeout(resolve, (100 + Math.random() * 300) * round));

/**
 * `changeStatus` is the status change the caller wires in: the edit screen's rules (a document is marked ready only
 * with content a confirm would take, core/content/edit.ts `changeDocumentStatus`), given the call's adapters.
 * A refusal (AppError) is that document's answer; any other error ends the call with it once the documents already
 * begun are done (none is left half done: each is one transaction).
 */
export async function bulkAction<D extends DeleteDeps>(
  deps: D,
  caller: DocCaller,
  body: BulkBody,
  changeStatus: (deps: D, caller: DocCaller, receiptId: string, status: StatusAction, version?: number) => Promise<ReturnType<typeof toSummary>>,
  options: BulkOptions = {},
): Promise<{ results: BulkResult[] }> {
  const ids = [...new Set(body.receipt_ids)];
  const live = collectedLive();
  const d = await callDeps({ ...deps, live }, caller, ids, options);
  const one = async (id: string): Promise<BulkResult> => {
    try {
      switch (body.action) {
        case 'status':
          // With the version the client read, a document changed since is this document's 409 (workflow.ts `editDocument`).
          return { receipt_id: id, ok: true, status: 200, receipt: await changeStatus(d, caller, id, body.status, versionOf(body.versions, id)) };
        case 'flag':
          return { receipt_id: id, ok: true, status: 200, receipt: await setFlag(d, caller, id, body.flag) };
        case 'type':
          return { receipt_id: id, ok: true, status: 200, receipt: await convertType(d, caller, id, body.receipt_type) };
        case 'delete':
          await deleteDocument(d, caller, id);
          return { receipt_id: id, ok: true, status: 200 };
        default:
          throw new AppError('BadRequest', 'Unknown bulk action');
      }
    } catch (error) {
      if (options.isBusy?.(error)) return { receipt_id: id, ok: false, status: 503, message: BUSY_MESSAGE };
      if (!(error instanceof AppError)) throw error;
      return { receipt_id: id, ok: false, status: error.statusCode, message: error.message };
    }
  };
  try {
    return { results: await mapLimited(ids, BULK_CONCURRENCY, one) };
  } finally {
    // The documents' live events, also of those done before an error ended the call.
    await publishLatest(deps.live, live.events);
  }
}

/** The version a bulk call names for a document (own keys only: an id like `__proto__` names none). */
function versionOf(versions: Record<string, number> | undefined, id: string): number | undefined {
  return versions && Object.prototype.hasOwnProperty.call(versions, id) ? versions[id] : undefined;
}

/** Live events kept until the documents are done (one look-up of each channel's connections for them all). */
function collectedLive(): LiveEvents & { events: LiveEvent[] } {
  const events: LiveEvent[] = [];
  return {
    events,
    publish: async (companyId, event, payload) => void events.push({ companyId, event, payload }),
    publishToUser: async (userId, event, payload) => void events.push({ userId, event, payload }),
  };
}

/**
 * Sends the events, one per document and channel: its last state (the update of the highest version), or its
 * deletion. The events go out together and not in order, so a document touched twice in one call (a copy whose
 * original was deleted, then deleted itself) gets no stale update after its deletion.
 */
export async function publishLatest(live: LiveEvents, events: LiveEvent[]): Promise<void> {
  const latest = new Map<string, LiveEvent>();
  const others: LiveEvent[] = [];
  const versionOf = (e: LiveEvent) => Number((e.payload as { version?: unknown }).version ?? 0);
  for (const e of events) {
    const receiptId = (e.payload as { receipt_id?: unknown } | null)?.receipt_id;
    if (typeof receiptId !== 'string' || !e.event.startsWith('receipt')) {
      others.push(e);
      continue;
    }
    const key = `${'companyId' in e ? `C|${e.companyId}` : `U|${e.userId}`}|${receiptId}`;
    const kept = latest.get(key);
    if (!kept || e.event === 'receipt-delete' || (kept.event !== 'receipt-delete' && versionOf(e) >= versionOf(kept))) latest.set(key, e);
  }
  const out = [...latest.values(), ...others];
  if (out.length === 0) return;
  if (live.publishAll) return live.publishAll(out);
  for (const e of out) await ('companyId' in e ? live.publish(e.companyId, e.event, e.payload) : live.publishToUser(e.userId, e.event, e.payload));
}

/**
 * `fn` over the items, at most `limit` at a time, the answers in the order of the items. After an error no
 * further item is begun; it is thrown once the ones begun are done.
 */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return out;
}

/** The object with some methods replaced; the others are the object's own, called on it. */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(t, name) {
      if (Object.prototype.hasOwnProperty.call(overrides, name)) return overrides[name as keyof T];
      const value = Reflect.get(t, name) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
}

/**
 * The adapters for one bulk call:
 * - the caller's profile (their name in every history record) is read once, when first needed;
 * - the documents are read in one consistent batch (BatchGetItem, docs/data-model.md D16) at the start; each document's first reads
 *   are answered from it until its first commit is tried, after which (a retry after a version conflict) it is read
 *   afresh. A document changed meanwhile fails its version condition and is made again from a fresh read, as always;
 * - the commits that move the same counts item (status numbers and sums of totals, one item per scope and type)
 *   or the same month's usage are made one after the other; one that met other changes (`isBusy`) is tried again
 *   after a pause, holding its place, so that the others' changes (another call's) get through meanwhile.
 */
async function callDeps<D extends DocumentDeps>(deps: D, caller: DocCaller, ids: string[], options: BulkOptions): Promise<D> {
  let profile: ReturnType<AccountsStore['getProfile']> | undefined;
  const store = overriding<AccountsStore>(deps.store, {
    getProfile: (userId) => (userId === caller.userId ? (profile ??= deps.store.getProfile(userId)) : deps.store.getProfile(userId)),
  });
  const read = new Map<string, DocumentRecord | undefined>(ids.map((id) => [id, undefined]));
  for (const doc of await deps.documents.getMany(ids, { consistent: true })) read.set(doc.receipt_id, doc);
  const queue = new KeyedQueue();
  const documents = overriding<DocumentsStore>(deps.documents, {
    get: async (receiptId) => {
      if (read.has(receiptId)) {
        const doc = read.get(receiptId);
        return doc && structuredClone(doc);
      }
      return deps.documents.get(receiptId);
    },
    commit: async (change) => {
      for (const { before } of change.updates) read.delete(before.receipt_id);
      for (const doc of change.deletes) read.delete(doc.receipt_id);
      await queue.run(sharedItems(change), async () => {
        for (let round = 1; ; round++) {
          try {
            return await deps.documents.commit(change);
          } catch (error) {
            if (!options.isBusy?.(error) || round >= BUSY_ROUNDS) throw error;
            await (options.pause ?? defaultPause)(round);
          }
        }
      });
    },
  });
  return { ...deps, store, documents };
}

/** The items of a change that other documents' changes write too: counts items and the month's usage. */
function sharedItems(change: DocumentChange): string[] {
  const out = [...change.counts, ...sumMoves(change)].map((c) => `counts|${c.scope}|${c.receipt_type}`);
  if (change.usage) out.push(`usage|${change.usage.companyId}|${change.usage.month}`);
  return [...new Set(out)];
}

/**
 * Runs jobs one after the other per key: a job waits for every earlier job sharing one of its keys. The keys of a
 * job are taken at once when it is queued, so two jobs never wait for each other.
 */
class KeyedQueue {
  private readonly last = new Map<string, Promise<void>>();

  async run<T>(keys: string[], job: () => Promise<T>): Promise<T> {
    if (keys.length === 0) return job();
    const before = keys.map((k) => this.last.get(k));
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    for (const k of keys) this.last.set(k, mine);
    await Promise.all(before);
    try {
      return await job();
    } finally {
      done();
      for (const k of keys) if (this.last.get(k) === mine) this.last.delete(k);
    }
  }
}

/** The product's XML of the selected documents (format: core/export/xml.ts, docs/decisions.md "Exports"). */
export async function exportXml(deps: Pick<DocumentDeps, 'documents' | 'files' | 'clock'>, caller: DocCaller, receiptIds: string[]): Promise<string> {
  const ids = [...new Set(receiptIds)];
  const docs = await deps.documents.getMany(ids);
  const visible = docs.filter((d) => canSee(d, caller));
  // Same answer for another company's document and for one that does not exist.
  if (visible.length !== ids.length) throw notFound('Document not found');
  // A document without a company is not read yet (processing.ts `keepUnread`): nothing to give an accounting system.
  if (visible.some((d) => !d.company_id)) throw conflict(MESSAGES.unassigned);
  const byId = new Map(visible.map((d) => [d.receipt_id, d]));
  const schema = companySchema();
  const exportDocs = await Promise.all(
    ids.map(async (id) => {
      const d = byId.get(id)!;
      const raw = d.content_key ? await deps.files.getJson<unknown>(d.content_key) : undefined;
      return {
        receipt_id: d.receipt_id,
        receipt_type: d.receipt_type,
        status: d.status,
        created_at: d.created_at,
        original_file_name: d.original_file_name,
        user: d.user,
        category: d.category,
        notes: d.notes,
        content: parseStoredContent(raw) ?? emptyContent(schema),
      };
    }),
  );
  return buildDocumentsXml(exportDocs, schema, deps.clock.now());
}
