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
import { planSearch } from './search';
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
  /** Normalised text the document's search_text must contain (terms too short for the index). */
  search?: string;
  /** Indexed search: every word must start a word of the document (search streams only). */
  words?: string[];
  issueFrom?: string;
  issueTo?: string;
  duplicatesOnly?: boolean;
  /** A duplicate group: the document itself and the ones marked as its duplicates. */
  duplicateOf?: string;
}

export interface ListPlan {
  /** Scopes in the order they are listed (several only in the all-companies view). */
  scopes: ScopeKey[];
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

export const sortKeyOf = (doc: Pick<DocumentRecord, 'created_at' | 'receipt_id'>) => `${doc.created_at}#${doc.receipt_id}`;

/** Lower-case, accents removed, whitespace collapsed: how search_text and search_value are compared. */
export function normaliseSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export function searchTextOf(doc: Pick<DocumentRecord, 'original_file_name' | 'counterparty_name' | 'document_number'>): string {
  return normaliseSearch([doc.original_file_name, doc.counterparty_name, doc.document_number].filter(Boolean).join(' | '));
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
  /** Company the cursor is in (all-companies view). */
  c?: string;
  /** Exclusive upper sort key to continue below. */
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
    // Every cursor a page hands out names the key to continue below (and its company in the all-companies view):
    // another shape would silently start the list over
    if (Object.keys(parsed).some((k) => k !== 's' && k !== 'c')) throw new Error('unknown field');
    if (typeof parsed.s !== 'string' || !/^\d{4}-\d{2}-\d{2}T[^#]+#[0-9A-Z]+$/.test(parsed.s)) throw new Error('bad key');
    if (parsed.c !== undefined && typeof parsed.c !== 'string') throw new Error('bad company');
    return parsed;
  } catch {
    throw badRequest('Invalid next cursor');
  }
}

/**
 * Filters → plan. `scopes` are the companies (or the caller's unassigned scope) to list, in order.
 */
export function planList(
  query: Pick<
    ListReceiptsQuery,
    'receipt_type' | 'receipt_status' | 'search_value' | 'selected_date' | 'created_at_after' | 'created_at_before' | 'by_issue_date' | 'duplicate_id' | 'limit'
  >,
  scopes: ScopeKey[],
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
    const search = query.search_value ? normaliseSearch(query.search_value) : '';
    if (search) filter.search = search;
  }
  const dup = query.duplicate_id?.trim();
  if (dup) {
    if (['true', '1', 'on', 'yes'].includes(dup.toLowerCase())) filter.duplicatesOnly = true;
    else if (!['false', '0', 'off', 'no'].includes(dup.toLowerCase())) filter.duplicateOf = dup;
  }
  return {
    scopes,
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
  opts: { lower?: string; upper?: string; limit: number; filter: ListFilter | null; maxReads: number },
): Promise<MergeResult> {
  const states: StreamState[] = specs.map((spec) => ({ spec, buffer: [], started: false, exhausted: false, reads: 0 }));
  const out: DocumentRecord[] = [];
  let reads = 0;
  while (out.length < opts.limit) {
    for (const s of states) {
      if (s.buffer.length > 0 || s.exhausted || reads >= opts.maxReads) continue;
      const res = await reader.read(s.spec, {
        lower: opts.lower,
        upper: opts.upper,
        limit: readLimit(s.spec, opts.filter, opts.limit - out.length, s.reads),
        filter: opts.filter,
        continuation: s.continuation,
      });
      reads += 1;
      s.reads += 1;
      s.started = true;
      s.buffer.push(...res.items);
      s.continuation = res.continuation;
      s.exhausted = res.continuation === undefined;
      s.reached = res.reachedKey;
    }
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
 * Items one read asks for. A filtered partition is read in windows. A search bucket nearly only
 * holds matches, so its first read asks for what the page still needs plus one (which tells
 * whether more follow, so a page never says `next` in front of an empty page); when words of the
 * term or other filters (issue dates, duplicates) leave out items, each following read of the page
 * asks for twice as many, up to a window.
 */
function readLimit(spec: StreamSpec, filter: ListFilter | null, remaining: number, readsSoFar: number): number {
  if (spec.by === 'search') return Math.min(FILTER_WINDOW, (remaining + 1) * 2 ** readsSoFar);
  return filter || (spec.by !== 'type-status' && spec.except_status) ? FILTER_WINDOW : remaining;
}

export interface ListPage {
  items: DocumentRecord[];
  next: string | null;
  next_company: string | null;
  reads: number;
}

/**
 * Runs a plan from a cursor: one scope after the other (all-companies view) until the page is
 * full or the read budget is spent. `next` always says where to continue; `next_company` is the
 * company it continues in.
 */
export async function runList(reader: StreamReader, plan: ListPlan, next: string | undefined, nextCompany?: string): Promise<ListPage> {
  const cursor = decodeCursor(next) ?? (nextCompany ? { c: nextCompany } : undefined);
  let index = 0;
  if (cursor?.c) {
    index = plan.scopes.findIndex((s) => s === `C#${cursor.c}` || s === `U#${cursor.c}`);
    if (index < 0) throw badRequest('Invalid next cursor');
  }
  const items: DocumentRecord[] = [];
  let reads = 0;
  let startKey = cursor?.s;
  for (; index < plan.scopes.length; index++) {
    const scope = plan.scopes[index]!;
    const upper = startKey ? minKey(justBelow(startKey), plan.upper) : plan.upper;
    const specs = plan.streams(scope);
    const budget = MAX_READS_PER_PAGE - reads;
    // Each stream must be read at least once before anything of the scope can be returned.
    if (budget < specs.length) return continueAt(items, plan, index, startKey, reads);
    const res = await mergeStreams(reader, specs, {
      lower: plan.lower,
      upper,
      limit: plan.limit - items.length,
      filter: plan.filter,
      maxReads: budget,
    });
    reads += res.reads;
    items.push(...res.items);
    if (res.next !== undefined) return continueAt(items, plan, index, res.next, reads);
    startKey = undefined;
    if (items.length >= plan.limit) {
      if (index + 1 < plan.scopes.length) return continueAt(items, plan, index + 1, undefined, reads);
      return { items, next: null, next_company: null, reads };
    }
  }
  return { items, next: null, next_company: null, reads };
}

function minKey(a: string, b: string | undefined): string {
  return b !== undefined && b < a ? b : a;
}

function continueAt(items: DocumentRecord[], plan: ListPlan, index: number, key: string | undefined, reads: number): ListPage {
  const scope = plan.scopes[index]!;
  const company = scope.slice(2);
  const multi = plan.scopes.length > 1;
  return {
    items,
    next: encodeCursor(multi ? { c: company, s: key } : { s: key }),
    next_company: multi ? company : null,
    reads,
  };
}
