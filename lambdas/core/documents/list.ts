/**
 * The document list: filters → a query plan over the list indexes, and the bounded, newest-first
 * merge that runs it. Pure; the store reads the streams.
 *
 * Every document is in three list partitions (docs/data-model.md): by scope, by scope + type, and
 * by scope + type + status, each sorted by `<created_at>#<receipt_id>`. A status view with both
 * types merges the two type+status partitions. A created_at range is a key condition; issue-date
 * ranges and duplicates are filters applied within a bounded window of reads. A search term is
 * read from one bucket of the search index (search.ts), which has the same partitions (and one by
 * status alone), so a search is one stream whatever the type and status filters.
 */
import { badRequest } from '../../../shared/errors';
import type { ListReceiptsQuery } from '../../../shared/schemas/receipts';
import { RECEIPT_TYPES } from '../../../shared/schemas/receipts';
import type { StatusCounts } from '../../../shared/schemas';
import { RECEIPT_STATUSES } from '../../../shared/status';
import { planSearch, searchTokenString, termWords, type SearchIndexed } from './search';
import { scopeUserId, type DocumentRecord, type ReceiptStatus, type ReceiptType, type ScopeKey } from './types';

/**
 * One partition to read. `except_status` leaves out the documents of one status (a filter): the inbox of a user's
 * scope, whose documents waiting for a company (status unassigned) only the Unassigned list shows.
 */
export type StreamSpec =
  | { by: 'scope'; scope: ScopeKey; except_status?: ReceiptStatus }
  | { by: 'type'; scope: ScopeKey; receipt_type: ReceiptType; except_status?: ReceiptStatus }
  | { by: 'type-status'; scope: ScopeKey; receipt_type: ReceiptType; status: ReceiptStatus }
  /** One bucket of the search index (search.ts), optionally of one type and/or status. */
  | { by: 'search'; scope: ScopeKey; bucket: string; receipt_type?: ReceiptType; status?: ReceiptStatus; except_status?: ReceiptStatus };

export interface ListFilter {
  /**
   * Words of a term too short for the index: each must start a word of the document's search_text
   * (`contains(search_text, ' ' + word)`), the rule of the indexed search.
   */
  search?: string[];
  /** Indexed search: every word must start a word of the document (search streams only). */
  words?: string[];
  issueFrom?: string;
  issueTo?: string;
  /**
   * Copies only: of the same file (`duplicate_id`), or of the same document (`same_document`, which the list checks
   * again against the key markers: `withSameDocumentChecked`, workflow.ts).
   */
  duplicatesOnly?: boolean;
  /** A duplicate group: the document itself and the ones marked as its duplicates. */
  duplicateOf?: string;
}

export interface ListPlan {
  /** Scopes in the order they are listed (several only in the all-companies view). */
  scopes: ScopeKey[];
  /**
   * All-companies view: which of these scopes hold nothing of the list's type and status by their counts (D15,
   * emptyScopes); a page asks for every scope's (COUNTS_BATCH scopes a request) and reads none of those.
   */
  emptyAmong?: (scopes: ScopeKey[]) => Promise<ReadonlySet<ScopeKey>>;
  streams(scope: ScopeKey): StreamSpec[];
  /** Inclusive lower bound of the sort key (created_at range). */
  lower?: string;
  /** Inclusive upper bound of the sort key. */
  upper?: string;
  filter: ListFilter | null;
  limit: number;
}

/** Items a filtered read looks at per request, and the reads one page may use. */
export const FILTER_WINDOW = 250;
export const MAX_READS_PER_PAGE = 8;
/** Scopes whose counts one request asks for (2 keys a scope: 100 keys, one BatchGetItem). */
export const COUNTS_BATCH = 50;
/** Items a filtered page of the all-companies view looks at, shared among the streams of its companies. */
export const MERGED_SCAN = 2000;

export const sortKeyOf = (doc: Pick<DocumentRecord, 'created_at' | 'receipt_id'>) => `${doc.created_at}#${doc.receipt_id}`;

/** Lower-case, accents removed, whitespace collapsed: how search words are compared. */
export function normaliseSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The document's search words, each after a space (` word1 word2 …`, the words of its search items: search.ts), so that
 * a short term's word is matched at the start of a word (ListFilter.search), as the index matches a longer one.
 */
export function searchTextOf(doc: SearchIndexed): string {
  return searchTokenString(doc);
}

/** The greatest string below `key` that any sort key can have (for an exclusive upper bound). */
export function justBelow(key: string): string {
  const last = key.charCodeAt(key.length - 1);
  return `${key.slice(0, -1)}${String.fromCharCode(last - 1)}\uffff`;
}

function dayStart(value: string): string {
  return value.length === 10 ? `${value}T00:00:00.000Z` : value;
}
function dayEnd(value: string): string {
  return value.length === 10 ? `${value}T23:59:59.999Z\uffff` : `${value}\uffff`;
}
const dateOnly = (value: string) => value.slice(0, 10);

interface Cursor {
  /**
   * A company of the caller (or the caller's own scope): no page hands it out any more (the all-companies view is one
   * newest-first list); a cursor of an earlier page that has it is taken when it is one of the caller's.
   */
  c?: string;
  /** Exclusive upper sort key to continue below (in every stream of every listed scope). */
  s?: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(next: string | undefined): Cursor | undefined {
  if (!next) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(next, 'base64url').toString('utf8')) as Cursor;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    // Every cursor a page hands out names the key to continue below: another shape would silently start the list over
    if (Object.keys(parsed).some((k) => k !== 's' && k !== 'c')) throw new Error('unknown field');
    if (typeof parsed.s !== 'string' || !/^\d{4}-\d{2}-\d{2}T[^#]+#[0-9A-Z]+$/.test(parsed.s)) throw new Error('bad key');
    if (parsed.c !== undefined && (typeof parsed.c !== 'string' || parsed.c === '')) throw new Error('bad company');
    return parsed;
  } catch {
    throw badRequest('Invalid next cursor');
  }
}

/**
 * The scopes whose counts (D15: one counts item per scope and type, exact as the documents are) show no document of
 * the list's type and status, so the all-companies view passes over them without a read. Only the type and status
 * decide: a search, a date range, issue dates or the duplicates flag only narrow a list further, so a scope with a
 * document of the list's type and status is read whatever they are. A scope without a counts entry is read.
 */
export function emptyScopes(
  query: Pick<ListReceiptsQuery, 'receipt_type' | 'receipt_status'>,
  counts: ReadonlyMap<ScopeKey, Record<ReceiptType, { counts: StatusCounts }>>,
): Set<ScopeKey> {
  const types = query.receipt_type ? [query.receipt_type] : [...RECEIPT_TYPES];
  const status = query.receipt_status;
  const empty = new Set<ScopeKey>();
  for (const [scope, byType] of counts) {
    // The inbox: every status, except in a user's scope its documents waiting for a company (planList).
    const statuses = status !== 'inbox' ? [status] : RECEIPT_STATUSES.filter((s) => s !== 'unassigned' || scopeUserId(scope) === null);
    if (!types.some((t) => statuses.some((s) => (byType[t]?.counts[s] ?? 0) > 0))) empty.add(scope);
  }
  return empty;
}

/** The counts items of several scopes, read in one batch (DocumentsStore.tallies, D15). */
export type ScopeCounts = (scopes: ScopeKey[]) => Promise<ReadonlyMap<ScopeKey, Record<ReceiptType, { counts: StatusCounts }>>>;

/**
 * Filters → plan. `scopes` are the companies (or the caller's unassigned scope) to list, in order; with `counts`
 * (the all-companies view) a page passes over the scopes whose counts show nothing for the list (emptyScopes).
 */
export function planList(
  query: Pick<
    ListReceiptsQuery,
    'receipt_type' | 'receipt_status' | 'search_value' | 'selected_date' | 'created_at_after' | 'created_at_before' | 'by_issue_date' | 'duplicate_id' | 'limit'
  >,
  scopes: ScopeKey[],
  counts?: ScopeCounts,
): ListPlan {
  const type = query.receipt_type;
  const status = query.receipt_status;
  const indexed = query.search_value ? planSearch(query.search_value) : undefined;
  const streams = (scope: ScopeKey): StreamSpec[] => {
    // A user's scope holds their uploads of the all-companies view in every state; its inbox leaves out those waiting
    // for a company (only the Unassigned list shows them, as the inbox count leaves them out). A company's scope never
    // has a document in status unassigned: no filter there.
    const except = status === 'inbox' && scopeUserId(scope) !== null ? { except_status: 'unassigned' as const } : {};
    if (indexed) {
      const byStatus = status === 'inbox' ? {} : { status };
      return [{ by: 'search', scope, bucket: indexed.bucket, ...(type ? { receipt_type: type } : {}), ...byStatus, ...except }];
    }
    if (status === 'inbox') return type ? [{ by: 'type', scope, receipt_type: type, ...except }] : [{ by: 'scope', scope, ...except }];
    const types = type ? [type] : [...RECEIPT_TYPES];
    return types.map((t) => ({ by: 'type-status', scope, receipt_type: t, status }));
  };
  const from = query.selected_date ?? query.created_at_after;
  const to = query.selected_date ?? query.created_at_before;
  if (from && to && dateOnly(from) > dateOnly(to)) throw badRequest('created_at_after is after created_at_before');
  const filter: ListFilter = {};
  let lower: string | undefined;
  let upper: string | undefined;
  if (query.by_issue_date) {
    if (from) filter.issueFrom = dateOnly(from);
    if (to) filter.issueTo = dateOnly(to);
  } else {
    if (from) lower = dayStart(from);
    if (to) upper = dayEnd(to);
  }
  if (indexed) filter.words = indexed.words;
  else {
    const words = query.search_value ? termWords(query.search_value) : [];
    if (words.length) filter.search = words;
  }
  const dup = query.duplicate_id?.trim();
  if (dup) {
    if (['true', '1', 'on', 'yes'].includes(dup.toLowerCase())) filter.duplicatesOnly = true;
    else if (!['false', '0', 'off', 'no'].includes(dup.toLowerCase())) filter.duplicateOf = dup;
  }
  return {
    scopes,
    ...(counts ? { emptyAmong: async (of: ScopeKey[]) => emptyScopes(query, await counts(of)) } : {}),
    streams,
    lower,
    upper,
    filter: Object.keys(filter).length ? filter : null,
    limit: query.limit,
  };
}

export interface StreamRead {
  items: DocumentRecord[];
  /** Continuation of this stream (opaque to core); undefined when the stream is exhausted. */
  continuation?: unknown;
  /** Sort key of the last item the read looked at (matched or not); undefined when exhausted. */
  reachedKey?: string;
}

export interface StreamReader {
  read(
    stream: StreamSpec,
    opts: { lower?: string; upper?: string; limit: number; filter: ListFilter | null; continuation?: unknown },
  ): Promise<StreamRead>;
}

interface StreamState {
  spec: StreamSpec;
  buffer: DocumentRecord[];
  continuation?: unknown;
  started: boolean;
  exhausted: boolean;
  reached?: string;
  /** Reads of this stream so far (in this page). */
  reads: number;
}

export interface MergeResult {
  items: DocumentRecord[];
  /** Exclusive upper sort key to continue from; undefined when this scope is done. */
  next?: string;
  reads: number;
}

/**
 * Newest-first merge of one scope's streams, at most `limit` items and `maxReads` reads
 * (`maxReads` must allow one read per stream).
 * An item is returned only when every stream has been read down to it, so a page never skips
 * an item of another stream; when the read budget runs out first, the cursor is the point down
 * to which all streams are known.
 */
export async function mergeStreams(
  reader: StreamReader,
  specs: StreamSpec[],
  opts: { lower?: string; upper?: string; limit: number; filter: ListFilter | null; maxReads: number; window?: MergeWindow },
): Promise<MergeResult> {
  const states: StreamState[] = specs.map((spec) => ({ spec, buffer: [], started: false, exhausted: false, reads: 0 }));
  const out: DocumentRecord[] = [];
  let reads = 0;
  while (out.length < opts.limit) {
    // Every stream that waits for a read is read in this round, at the same time (within the budget).
    const due = states.filter((s) => s.buffer.length === 0 && !s.exhausted).slice(0, Math.max(0, opts.maxReads - reads));
    const remaining = opts.limit - out.length;
    const results = await Promise.all(
      due.map((s) =>
        reader.read(s.spec, {
          lower: opts.lower,
          upper: opts.upper,
          limit: readLimit(s.spec, opts.filter, remaining, s.reads, opts.window),
          filter: opts.filter,
          continuation: s.continuation,
        }),
      ),
    );
    due.forEach((s, i) => {
      const res = results[i]!;
      reads += 1;
      s.reads += 1;
      s.started = true;
      s.buffer.push(...res.items);
      s.continuation = res.continuation;
      s.exhausted = res.continuation === undefined;
      s.reached = res.reachedKey;
    });
    const blockers = states.filter((s) => s.buffer.length === 0 && !s.exhausted);
    // A stream waiting for a read is known down to the last key it looked at (exclusive).
    const bound = blockers.reduce<string | undefined>((max, s) => {
      const at = s.reached!;
      return max === undefined || at > max ? at : max;
    }, undefined);
    let head: StreamState | undefined;
    for (const s of states) {
      if (s.buffer.length === 0) continue;
      if (!head || sortKeyOf(s.buffer[0]!) > sortKeyOf(head.buffer[0]!)) head = s;
    }
    if (!head) {
      if (blockers.length === 0) return { items: out, reads };
      // Every stream with items left is waiting for a read: read on while the budget lasts (a read
      // that matched nothing does not end the page), else continue on the next page.
      if (reads < opts.maxReads) continue;
      return { items: out, next: bound, reads };
    }
    const headKey = sortKeyOf(head.buffer[0]!);
    if (bound !== undefined && headKey <= bound) {
      if (reads < opts.maxReads) continue;
      return { items: out, next: bound, reads };
    }
    out.push(head.buffer.shift()!);
  }
  const done = states.every((s) => s.exhausted && s.buffer.length === 0);
  return { items: out, next: done ? undefined : sortKeyOf(out[out.length - 1]!), reads };
}

/**
 * First reads of a stream in a merge of many: `items` for a partition read as is, `scan` for a filtered one, `search`
 * for a search bucket (`items` where the bucket's word is the whole term, else `scan`).
 */
export interface MergeWindow {
  items: number;
  scan: number;
  search: number;
}

/**
 * Items one read asks for. A filtered partition is read in windows. A search bucket nearly only
 * holds matches, so its first read asks for what the page still needs plus one (which tells
 * whether more follow, so a page never says `next` in front of an empty page); when words of the
 * term or other filters (issue dates, duplicates) leave out items, each following read of the page
 * asks for twice as many, up to a window. With `window` (the merge of many companies' streams) every
 * stream starts with that many and doubles on each further read of the page.
 */
function readLimit(spec: StreamSpec, filter: ListFilter | null, remaining: number, readsSoFar: number, window?: MergeWindow): number {
  const filtered = spec.by === 'search' || Boolean(filter) || (spec.by !== 'type-status' && Boolean(spec.except_status));
  if (window !== undefined) {
    if (spec.by === 'search') return Math.min(FILTER_WINDOW, window.search * 2 ** readsSoFar);
    return filtered ? Math.min(FILTER_WINDOW, window.scan * 2 ** readsSoFar) : Math.min(remaining, window.items * 2 ** readsSoFar);
  }
  if (spec.by === 'search') return Math.min(FILTER_WINDOW, (remaining + 1) * 2 ** readsSoFar);
  return filtered ? FILTER_WINDOW : remaining;
}

export interface ListPage {
  items: DocumentRecord[];
  next: string | null;
  next_company: string | null;
  reads: number;
}

/**
 * Runs a plan from a cursor. One scope (a company, or the caller's Unassigned list): its streams merged newest first,
 * at most MAX_READS_PER_PAGE reads a page. Several scopes (the all-companies view): runMerged.
 */
export async function runList(reader: StreamReader, plan: ListPlan, next: string | undefined, nextCompany?: string): Promise<ListPage> {
  const cursor = decodeCursor(next) ?? (nextCompany ? { c: nextCompany } : undefined);
  // A company named by the cursor must be one of the listed scopes (another user's or company's: refused).
  if (cursor?.c && !plan.scopes.some((s) => s === `C#${cursor.c}` || s === `U#${cursor.c}`)) throw badRequest('Invalid next cursor');
  if (plan.scopes.length > 1) return runMerged(reader, plan, cursor?.s);
  const scope = plan.scopes[0];
  if (scope === undefined) return { items: [], next: null, next_company: null, reads: 0 };
  const upper = cursor?.s ? minKey(justBelow(cursor.s), plan.upper) : plan.upper;
  const res = await mergeStreams(reader, plan.streams(scope), {
    lower: plan.lower,
    upper,
    limit: plan.limit,
    filter: plan.filter,
    maxReads: MAX_READS_PER_PAGE,
  });
  return { items: res.items, next: res.next !== undefined ? encodeCursor({ s: res.next }) : null, next_company: null, reads: res.reads };
}

/**
 * The all-companies view: every company of the caller (and the caller's own scope) newest first across companies —
 * a k-way merge of the streams of every scope whose counts (D15, read in batches of COUNTS_BATCH scopes at the same
 * time) show something of the list's type and status. Every stream continues below the cursor (`{s}`: the last key
 * returned, or the key down to which every stream is known when the page's reads ran out), so no cursor names a
 * company and `next_company` is null. Each stream's first read asks for a small window (its share of the page plus
 * one; a filtered stream its share of MERGED_SCAN items), read at the same time; a stream whose window is used up is
 * read again (twice as many) while it may still hold the next item. Reads: one per listed stream plus as many again
 * at most.
 */
async function runMerged(reader: StreamReader, plan: ListPlan, startKey: string | undefined): Promise<ListPage> {
  let scopes = plan.scopes;
  if (plan.emptyAmong) {
    const batches: ScopeKey[][] = [];
    for (let i = 0; i < scopes.length; i += COUNTS_BATCH) batches.push(scopes.slice(i, i + COUNTS_BATCH));
    const empty = new Set((await Promise.all(batches.map((b) => plan.emptyAmong!(b)))).flatMap((e) => [...e]));
    scopes = scopes.filter((s) => !empty.has(s));
  }
  const specs = scopes.flatMap((s) => plan.streams(s));
  if (specs.length === 0) return { items: [], next: null, next_company: null, reads: 0 };
  const items = Math.ceil(plan.limit / specs.length) + 1;
  const scan = Math.max(items, Math.floor(MERGED_SCAN / specs.length));
  // A term of one word, nothing else filtered: its bucket nearly only holds matches.
  const plainSearch = plan.filter !== null && Object.keys(plan.filter).every((k) => k === 'words') && (plan.filter.words?.length ?? 0) <= 1;
  const window = { items, scan, search: plainSearch ? items : scan };
  const res = await mergeStreams(reader, specs, {
    lower: plan.lower,
    upper: startKey ? minKey(justBelow(startKey), plan.upper) : plan.upper,
    limit: plan.limit,
    filter: plan.filter,
    maxReads: specs.length + Math.max(MAX_READS_PER_PAGE, specs.length),
    window,
  });
  return { items: res.items, next: res.next !== undefined ? encodeCursor({ s: res.next }) : null, next_company: null, reads: res.reads };
}

function minKey(a: string, b: string | undefined): string {
  return b !== undefined && b < a ? b : a;
}
