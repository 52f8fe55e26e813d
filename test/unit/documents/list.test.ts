import { describe, expect, it } from 'vitest';
import {
  decodeCursor,
  emptyScopes,
  encodeCursor,
  justBelow,
  mergeStreams,
  normaliseSearch,
  planList,
  runList,
  sortKeyOf,
  type ListFilter,
  type StreamReader,
  type StreamSpec,
} from '../../../lambdas/core/documents/list';
import { bucketOf, searchWords } from '../../../lambdas/core/documents/search';
import type { DocumentRecord, ReceiptStatus, ReceiptType, ScopeKey } from '../../../lambdas/core/documents/types';
import type { ListReceiptsQuery } from '../../../shared/schemas/receipts';

type Doc = Pick<DocumentRecord, 'receipt_id' | 'created_at' | 'scope' | 'receipt_type' | 'status' | 'search_text' | 'issue_date' | 'duplicate_id'>;

function doc(i: number, over: Partial<Doc> = {}): DocumentRecord {
  const id = `D${String(i).padStart(6, '0')}`;
  return {
    receipt_id: id,
    created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    scope: 'C#c1',
    receipt_type: 'receipt',
    status: 'review',
    search_text: `file-${i}.pdf`,
    issue_date: null,
    duplicate_id: null,
    ...over,
  } as DocumentRecord;
}

function matches(stream: StreamSpec, d: DocumentRecord): boolean {
  if (d.scope !== stream.scope) return false;
  // except_status is a filter of the query (read, then left out): see `passesStream`
  if (stream.by === 'type') return d.receipt_type === stream.receipt_type;
  if (stream.by === 'type-status') return d.receipt_type === stream.receipt_type && d.status === stream.status;
  if (stream.by === 'search') {
    // The search index: the document is in the bucket of one of its words (here the words of search_text).
    if (!searchWords(d.search_text).some((w) => bucketOf(w) === stream.bucket)) return false;
    if (stream.receipt_type && d.receipt_type !== stream.receipt_type) return false;
    if (stream.status && d.status !== stream.status) return false;
  }
  return true;
}

function passes(filter: ListFilter | null, d: DocumentRecord): boolean {
  if (!filter) return true;
  if (filter.search && !filter.search.every((w) => ` ${searchWords(d.search_text).join(' ')}`.includes(` ${w}`))) return false;
  if (filter.words && !filter.words.every((w) => searchWords(d.search_text).some((dw) => dw.startsWith(w)))) return false;
  if (filter.issueFrom && !(d.issue_date && d.issue_date >= filter.issueFrom)) return false;
  if (filter.issueTo && !(d.issue_date && d.issue_date <= filter.issueTo)) return false;
  if (filter.duplicatesOnly && !d.duplicate_id) return false;
  if (filter.duplicateOf && d.duplicate_id !== filter.duplicateOf && d.receipt_id !== filter.duplicateOf) return false;
  return true;
}

function passesStream(stream: StreamSpec, d: DocumentRecord): boolean {
  return stream.by === 'type-status' || !stream.except_status || d.status !== stream.except_status;
}

/** DynamoDB Query semantics: descending, Limit counts items read before the filter, LastEvaluatedKey. */
function fakeReader(all: DocumentRecord[]): StreamReader & { reads: number; scanned: number } {
  const reader = {
    reads: 0,
    scanned: 0,
    async read(stream: StreamSpec, opts: { lower?: string; upper?: string; limit: number; filter: ListFilter | null; continuation?: unknown }) {
      reader.reads += 1;
      const sorted = all
        .filter((d) => matches(stream, d))
        .map((d) => ({ d, k: sortKeyOf(d) }))
        .filter(({ k }) => (opts.lower === undefined || k >= opts.lower) && (opts.upper === undefined || k <= opts.upper))
        .sort((a, b) => (a.k < b.k ? 1 : -1));
      const start = opts.continuation ? sorted.findIndex(({ k }) => k < (opts.continuation as string)) : 0;
      const window = start < 0 ? [] : sorted.slice(start, start + opts.limit);
      reader.scanned += window.length;
      const more = start >= 0 && start + opts.limit < sorted.length;
      const last = window[window.length - 1]?.k;
      return {
        items: window.filter(({ d }) => passes(opts.filter, d) && passesStream(stream, d)).map(({ d }) => d),
        continuation: more ? last : undefined,
        reachedKey: more ? last : undefined,
      };
    },
  };
  return reader;
}

const baseQuery: Pick<
  ListReceiptsQuery,
  'receipt_type' | 'receipt_status' | 'search_value' | 'selected_date' | 'created_at_after' | 'created_at_before' | 'by_issue_date' | 'duplicate_id' | 'limit'
> = { receipt_status: 'inbox', by_issue_date: false, limit: 50, receipt_type: undefined };

async function pageAll(reader: StreamReader, query: typeof baseQuery, scopes: ScopeKey[]) {
  const plan = planList(query, scopes);
  const seen: DocumentRecord[] = [];
  let next: string | undefined;
  let pages = 0;
  do {
    const page = await runList(reader, plan, next);
    expect(page.items.length).toBeLessThanOrEqual(query.limit);
    seen.push(...page.items);
    next = page.next ?? undefined;
    pages += 1;
    expect(pages).toBeLessThan(500);
  } while (next);
  return { seen, pages };
}

describe('list plan', () => {
  it('chooses one partition per view and merges the two types of a status view', () => {
    const s: ScopeKey = 'C#c1';
    expect(planList({ ...baseQuery }, [s]).streams(s)).toEqual([{ by: 'scope', scope: s }]);
    expect(planList({ ...baseQuery, receipt_type: 'invoice' }, [s]).streams(s)).toEqual([{ by: 'type', scope: s, receipt_type: 'invoice' }]);
    expect(planList({ ...baseQuery, receipt_status: 'review', receipt_type: 'receipt' }, [s]).streams(s)).toEqual([
      { by: 'type-status', scope: s, receipt_type: 'receipt', status: 'review' },
    ]);
    expect(planList({ ...baseQuery, receipt_status: 'archive' }, [s]).streams(s)).toEqual([
      { by: 'type-status', scope: s, receipt_type: 'receipt', status: 'archive' },
      { by: 'type-status', scope: s, receipt_type: 'invoice', status: 'archive' },
    ]);
  });

  it('turns a created_at range into key bounds and the rest into filters', () => {
    const plan = planList({ ...baseQuery, created_at_after: '2024-02-01', created_at_before: '2024-02-29', search_value: '  Čiurlionio  UAB ', duplicate_id: 'true' }, ['C#c']);
    expect(plan.lower).toBe('2024-02-01T00:00:00.000Z');
    expect(plan.upper! > '2024-02-29T23:59:59.999Z#ZZZZZZZZZZZZZZZZZZZZZZZZZZ').toBe(true);
    expect(plan.upper! < '2024-03-01T00:00:00.000Z').toBe(true);
    expect(plan.filter).toEqual({ words: ['ciurlionio', 'uab'], duplicatesOnly: true });
    expect(plan.streams('C#c')).toEqual([{ by: 'search', scope: 'C#c', bucket: 'ciu' }]);
    // A term without a word of three letters is a filter on the list partitions: each word starts a word.
    const short = planList({ ...baseQuery, search_value: 'Ab 1' }, ['C#c']);
    expect(short.filter).toEqual({ search: ['ab', '1'] });
    expect(short.streams('C#c')).toEqual([{ by: 'scope', scope: 'C#c' }]);
    const byIssue = planList({ ...baseQuery, created_at_after: '2024-02-01', created_at_before: '2024-02-29', by_issue_date: true }, ['C#c']);
    expect(byIssue.lower).toBeUndefined();
    expect(byIssue.filter).toEqual({ issueFrom: '2024-02-01', issueTo: '2024-02-29' });
    expect(planList({ ...baseQuery, duplicate_id: 'D000001' }, ['C#c']).filter).toEqual({ duplicateOf: 'D000001' });
    expect(() => planList({ ...baseQuery, created_at_after: '2024-03-01', created_at_before: '2024-02-01' }, ['C#c'])).toThrow(/after/);
  });

  it('normalises search text and keeps cursors opaque but checked', () => {
    expect(normaliseSearch('  Žalgirio   Arena ')).toBe('zalgirio arena');
    const key = sortKeyOf(doc(5));
    expect(justBelow(key) < key).toBe(true);
    expect(justBelow(key) > sortKeyOf(doc(4))).toBe(true);
    expect(decodeCursor(encodeCursor({ s: key, c: 'c1' }))).toEqual({ s: key, c: 'c1' });
    expect(() => decodeCursor('not-a-cursor')).toThrow(/Invalid next/);
    expect(() => decodeCursor(encodeCursor({ s: 'x"; DROP' }))).toThrow(/Invalid next/);
    // A well-formed cursor of another shape does not silently start the list over
    for (const other of [{ a: 1 }, {}, { c: 'c1' }, { c: '', s: key }, { s: key, extra: 1 }, [key]]) {
      expect(() => decodeCursor(Buffer.from(JSON.stringify(other)).toString('base64url')), JSON.stringify(other)).toThrow(/Invalid next/);
    }
  });
});

describe('bounded newest-first merge', () => {
  it('pages through one partition with one read per page and one item read per item returned', async () => {
    const docs = Array.from({ length: 120 }, (_, i) => doc(i));
    const reader = fakeReader(docs);
    const { seen, pages } = await pageAll(reader, baseQuery, ['C#c1']);
    expect(seen.map((d) => d.receipt_id)).toEqual([...docs].reverse().map((d) => d.receipt_id));
    expect(pages).toBe(3);
    expect(reader.reads).toBe(3);
    expect(reader.scanned).toBe(120);
  });

  it('merges the two types of a status view without skipping or repeating anything', async () => {
    const types: ReceiptType[] = ['receipt', 'invoice'];
    const statuses: ReceiptStatus[] = ['review', 'ready'];
    const docs = Array.from({ length: 400 }, (_, i) => doc(i, { receipt_type: types[(i * 7) % 3 === 0 ? 1 : 0]!, status: statuses[i % 5 === 0 ? 1 : 0]! }));
    const reader = fakeReader(docs);
    const { seen } = await pageAll(reader, { ...baseQuery, receipt_status: 'review' }, ['C#c1']);
    const expected = docs.filter((d) => d.status === 'review').reverse();
    expect(seen.map((d) => d.receipt_id)).toEqual(expected.map((d) => d.receipt_id));
  });

  it('filters within bounded read windows and still returns every match exactly once', async () => {
    const docs = Array.from({ length: 3000 }, (_, i) =>
      doc(i, { search_text: i % 97 === 0 ? `maxima ${i}` : `other ${i}`, receipt_type: i % 2 ? 'invoice' : 'receipt', status: i % 3 ? 'review' : 'archive' }),
    );
    for (const query of [
      { ...baseQuery, search_value: 'MAXIMA' },
      { ...baseQuery, search_value: 'maxima', receipt_status: 'review' as const },
      { ...baseQuery, search_value: 'maxima', receipt_type: 'invoice' as const, created_at_after: '2024-01-01', created_at_before: '2024-01-02' },
    ]) {
      const reader = fakeReader(docs);
      const { seen } = await pageAll(reader, query, ['C#c1']);
      const lower = query.created_at_after ? `${query.created_at_after}T00:00:00.000Z` : '';
      const upper = query.created_at_before ? `${query.created_at_before}T23:59:59.999Z~` : '~';
      const expected = docs
        .filter((d) => d.search_text.includes('maxima'))
        .filter((d) => query.receipt_status === 'inbox' || d.status === query.receipt_status)
        .filter((d) => !query.receipt_type || d.receipt_type === query.receipt_type)
        .filter((d) => sortKeyOf(d) >= lower && sortKeyOf(d) <= upper)
        .reverse();
      expect(seen.map((d) => d.receipt_id)).toEqual(expected.map((d) => d.receipt_id));
    }
  });

  it('never reads more than the page budget and says where to continue (terms too short for the index)', async () => {
    const docs = Array.from({ length: 5000 }, (_, i) => doc(i, { search_text: i === 10 ? 'needle' : 'hay' }));
    const reader = fakeReader(docs);
    const plan = planList({ ...baseQuery, search_value: 'ne' }, ['C#c1']);
    const page = await runList(reader, plan, undefined);
    expect(reader.reads).toBeLessThanOrEqual(8);
    expect(page.items).toEqual([]);
    expect(page.next).not.toBeNull();
    const { seen } = await pageAll(fakeReader(docs), { ...baseQuery, search_value: 'ne' }, ['C#c1']);
    expect(seen.map((d) => d.receipt_id)).toEqual(['D000010']);
    // A window that matched nothing does not end the page while reads are left: a needle three
    // windows down is on the first page.
    const near = Array.from({ length: 5000 }, (_, i) => doc(i, { search_text: i === 4400 ? 'needle' : 'hay' }));
    const found = await runList(fakeReader(near), planList({ ...baseQuery, search_value: 'ne' }, ['C#c1']), undefined);
    expect(found.items.map((d) => d.receipt_id)).toEqual(['D004400']);
  });

  it('answers a rare term from its bucket in one read, and a common one with one item read per item returned', async () => {
    const docs = Array.from({ length: 5000 }, (_, i) =>
      doc(i, { search_text: i === 10 ? 'needle' : `hay ${i % 3 ? 'maxima' : 'other'} ${i}`, status: i % 2 ? 'review' : 'ready' }),
    );
    const rare = fakeReader(docs);
    const page = await runList(rare, planList({ ...baseQuery, search_value: 'NEEDLE' }, ['C#c1']), undefined);
    expect(page.items.map((d) => d.receipt_id)).toEqual(['D000010']);
    expect(page.next).toBeNull();
    expect(rare.reads).toBe(1);

    const common = fakeReader(docs);
    const query = { ...baseQuery, search_value: 'max', receipt_status: 'review' as const };
    const { seen, pages } = await pageAll(common, query, ['C#c1']);
    const expected = docs.filter((d) => d.search_text.includes(' maxima') && d.status === 'review').reverse();
    expect(seen.map((d) => d.receipt_id)).toEqual(expected.map((d) => d.receipt_id));
    expect(pages).toBe(Math.ceil(expected.length / 50));
    // One read a page, Limit 51: each page reads its 50 items and the first of the next page.
    expect(common.reads).toBe(pages);
    expect(common.scanned / seen.length).toBeLessThanOrEqual(1.02);
  });

  it('lists all companies newest first across companies, without next_company', async () => {
    // the two companies' documents interleaved in time
    const docs = [...Array.from({ length: 30 }, (_, i) => doc(i * 3, { scope: 'C#a' })), ...Array.from({ length: 45 }, (_, i) => doc(i * 2 + 1, { scope: 'C#b' }))];
    const newest = [...docs].sort((x, y) => (sortKeyOf(x) < sortKeyOf(y) ? 1 : -1)).map((d) => d.receipt_id);
    const reader = fakeReader(docs);
    const plan = planList(baseQuery, ['C#a', 'C#b']);
    const first = await runList(reader, plan, undefined);
    expect(first.items.map((d) => d.receipt_id)).toEqual(newest.slice(0, 50));
    expect(first.next_company).toBeNull();
    const second = await runList(reader, plan, first.next!);
    expect(second.items.map((d) => d.receipt_id)).toEqual(newest.slice(50));
    expect(second.next).toBeNull();
  });

  it("lists the caller's own scope (uploads of the all-companies view) by status: Unassigned only those waiting for a company, the other lists the rest", async () => {
    const own: ScopeKey = 'U#u1';
    const statuses: ReceiptStatus[] = ['unassigned', 'processing', 'failed'];
    const docs = [
      ...Array.from({ length: 60 }, (_, i) => doc(i, { scope: own, status: statuses[i % 3]!, receipt_type: i % 2 ? 'invoice' : 'receipt' })),
      ...Array.from({ length: 70 }, (_, i) => doc(200 + i, { scope: 'C#a', status: i % 2 ? 'processing' : 'review' })),
    ];
    const idsOf = (list: DocumentRecord[]) => list.map((d) => d.receipt_id).sort();
    const expected = (keep: (d: DocumentRecord) => boolean) => idsOf(docs.filter(keep));

    expect(planList({ ...baseQuery, receipt_status: 'unassigned' }, [own]).streams(own)).toEqual([
      { by: 'type-status', scope: own, receipt_type: 'receipt', status: 'unassigned' },
      { by: 'type-status', scope: own, receipt_type: 'invoice', status: 'unassigned' },
    ]);
    const unassigned = await pageAll(fakeReader(docs), { ...baseQuery, receipt_status: 'unassigned' }, [own]);
    expect(idsOf(unassigned.seen)).toEqual(expected((d) => d.scope === own && d.status === 'unassigned'));

    // The all-companies view: the caller's scope first, then the companies, paged without a gap or a repeat.
    for (const status of ['processing', 'failed'] as const) {
      const { seen } = await pageAll(fakeReader(docs), { ...baseQuery, receipt_status: status }, [own, 'C#a']);
      expect(idsOf(seen), status).toEqual(expected((d) => d.status === status));
    }
    expect(planList(baseQuery, [own, 'C#a']).streams(own)).toEqual([{ by: 'scope', scope: own, except_status: 'unassigned' }]);
    expect(planList(baseQuery, [own, 'C#a']).streams('C#a')).toEqual([{ by: 'scope', scope: 'C#a' }]);
    const inbox = await pageAll(fakeReader(docs), { ...baseQuery, limit: 7 }, [own, 'C#a']);
    expect(idsOf(inbox.seen)).toEqual(expected((d) => d.status !== 'unassigned'));
    expect(new Set(inbox.seen.map((d) => d.receipt_id)).size).toBe(inbox.seen.length);
    // newest first across the caller's scope and the companies
    const first = await runList(fakeReader(docs), planList({ ...baseQuery, receipt_status: 'processing', limit: 5 }, [own, 'C#a']), undefined);
    const processing = docs.filter((d) => d.status === 'processing').sort((x, y) => (sortKeyOf(x) < sortKeyOf(y) ? 1 : -1));
    expect(first.items.map((d) => d.receipt_id)).toEqual(processing.slice(0, 5).map((d) => d.receipt_id));
    expect(first.items.some((d) => d.scope === 'C#a')).toBe(true);
    expect(first.next_company).toBeNull();
  });

  it('merges directly with a read budget of one read per stream', async () => {
    const docs = Array.from({ length: 20 }, (_, i) => doc(i, { receipt_type: i % 2 ? 'invoice' : 'receipt' }));
    const reader = fakeReader(docs);
    const res = await mergeStreams(
      reader,
      [
        { by: 'type', scope: 'C#c1', receipt_type: 'receipt' },
        { by: 'type', scope: 'C#c1', receipt_type: 'invoice' },
      ],
      { limit: 50, filter: null, maxReads: 2 },
    );
    expect(res.items.map((d) => d.receipt_id)).toEqual([...docs].reverse().map((d) => d.receipt_id));
    expect(res.next).toBeUndefined();
  });
});

/** Pages as the web does: `next` and `next_company` of each page sent back until both are null. */
async function pageAsWeb(reader: StreamReader, plan: ReturnType<typeof planList>, from: { next?: string; nextCompany?: string } = {}) {
  const pages: { items: DocumentRecord[]; reads: number }[] = [];
  let next = from.next;
  let nextCompany = from.nextCompany;
  // one read per stream of every scope and as many again at most
  const streams = plan.scopes.flatMap((s) => plan.streams(s)).length;
  do {
    const page = await runList(reader, plan, next, nextCompany);
    expect(page.items.length).toBeLessThanOrEqual(plan.limit);
    expect(page.reads).toBeLessThanOrEqual(plan.scopes.length > 1 ? streams + Math.max(8, streams) : 8);
    pages.push({ items: page.items, reads: page.reads });
    next = page.next ?? undefined;
    nextCompany = page.next_company ?? undefined;
    expect(pages.length).toBeLessThan(500);
  } while (next || nextCompany);
  return { seen: pages.flatMap((p) => p.items), pages };
}

/** Newest first across every scope (the order of every list). */
const newestOrder = (docs: DocumentRecord[]) => [...docs].sort((a, b) => (sortKeyOf(a) < sortKeyOf(b) ? 1 : -1)).map((d) => d.receipt_id);

describe('all companies: every next a page gives continues exactly', () => {
  const six: ScopeKey[] = ['C#a', 'C#b', 'C#c', 'C#d', 'C#e', 'C#f'];

  it('continues exactly with two streams a company, one company after another in time', async () => {
    // Company a's documents are the oldest, f's the newest: the first page is f's and e's.
    const docs = six.flatMap((scope, c) => Array.from({ length: 10 }, (_, i) => doc(c * 100 + i, { scope, status: 'rejected', receipt_type: i % 2 ? 'invoice' : 'receipt' })));
    const plan = planList({ ...baseQuery, receipt_status: 'rejected', limit: 15 }, six);
    const first = await runList(fakeReader(docs), plan, undefined);
    expect(first.items.map((d) => d.receipt_id)).toEqual(newestOrder(docs).slice(0, 15));
    expect(first.next_company).toBeNull();
    const { seen } = await pageAsWeb(fakeReader(docs), plan);
    expect(seen.map((d) => d.receipt_id)).toEqual(newestOrder(docs));
    const second = await runList(fakeReader(docs), plan, first.next!);
    expect(second.items.map((d) => d.receipt_id)).toEqual(newestOrder(docs).slice(15, 30));
  });

  it('continues exactly when a page ends where streams end, and with every page size', async () => {
    const docs = [...Array.from({ length: 50 }, (_, i) => doc(i * 2, { scope: 'C#a' })), ...Array.from({ length: 30 }, (_, i) => doc(200 + i, { scope: 'C#b' }))];
    const plan = planList(baseQuery, ['C#a', 'C#b']);
    const { seen } = await pageAsWeb(fakeReader(docs), plan);
    expect(seen.map((d) => d.receipt_id)).toEqual(newestOrder(docs));
    const two = docs.map((d, i) => ({ ...d, receipt_type: i % 3 ? 'receipt' : 'invoice' }) as DocumentRecord);
    for (const limit of [1, 7, 25, 30, 50, 80]) {
      const status = await pageAsWeb(fakeReader(two), planList({ ...baseQuery, receipt_status: 'review', limit }, ['C#a', 'C#b']));
      expect(status.seen.map((d) => d.receipt_id), `limit ${limit}`).toEqual(newestOrder(two));
    }
  });

  it('passes over empty companies, and an empty list ends without an error', async () => {
    const scopes: ScopeKey[] = ['U#me', 'C#a', 'C#b', 'C#c', 'C#d', 'C#e', 'C#f', 'C#g', 'C#h', 'C#i', 'C#j'];
    const docs = [
      ...Array.from({ length: 3 }, (_, i) => doc(i * 2, { scope: 'C#b', status: 'saving' })),
      ...Array.from({ length: 4 }, (_, i) => doc(i * 2 + 1, { scope: 'C#h', status: 'saving', receipt_type: 'invoice' })),
    ];
    const saving = await pageAsWeb(fakeReader(docs), planList({ ...baseQuery, receipt_status: 'saving' }, scopes));
    expect(saving.seen.map((d) => d.receipt_id)).toEqual(newestOrder(docs));
    expect(saving.pages).toHaveLength(1);
    const none = await pageAsWeb(fakeReader(docs), planList({ ...baseQuery, receipt_status: 'failed' }, scopes));
    expect(none.seen).toEqual([]);
    expect(none.pages).toHaveLength(1);
    for (const limit of [1, 3, 4, 7]) {
      const inbox = await pageAsWeb(fakeReader(docs), planList({ ...baseQuery, limit }, scopes));
      expect(inbox.seen.map((d) => d.receipt_id), `limit ${limit}`).toEqual(newestOrder(docs));
    }
  });

  it('fills pages from one company that holds all the newest documents, within the read budget', async () => {
    const scopes: ScopeKey[] = Array.from({ length: 40 }, (_, i) => `C#k${String(i).padStart(2, '0')}` as ScopeKey);
    const docs = [
      ...scopes.flatMap((scope, c) => Array.from({ length: 5 }, (_, i) => doc(c * 10 + i, { scope, status: 'review', receipt_type: i % 2 ? 'invoice' : 'receipt' }))),
      ...Array.from({ length: 300 }, (_, i) => doc(5000 + i, { scope: 'C#k17', status: 'review', receipt_type: i % 4 ? 'receipt' : 'invoice' })),
    ];
    const plan = planList({ ...baseQuery, receipt_status: 'review' }, scopes);
    const reader = fakeReader(docs);
    const first = await runList(reader, plan, undefined);
    expect(first.items.map((d) => d.receipt_id)).toEqual(newestOrder(docs).slice(0, 50));
    // 80 streams: one read each, then the two streams of k17 read again
    expect(first.reads).toBeLessThanOrEqual(80 + 8);
    expect(reader.scanned).toBeLessThan(400);
    const { seen } = await pageAsWeb(fakeReader(docs), plan);
    expect(seen.map((d) => d.receipt_id)).toEqual(newestOrder(docs));
    // a filter (a term too short for the index) over many companies: the same order, bounded reads
    const short = await pageAsWeb(fakeReader(docs), planList({ ...baseQuery, receipt_status: 'review', search_value: '52' }, scopes));
    const hits = newestOrder(docs.filter((d) => searchWords(d.search_text).some((w) => w.startsWith('52'))));
    expect(hits.length).toBeGreaterThan(50);
    expect(short.seen.map((d) => d.receipt_id)).toEqual(hits);
  });

  it('reads a search of two words over many companies in wide windows: few pages, newest first', async () => {
    const scopes: ScopeKey[] = Array.from({ length: 40 }, (_, i) => `C#k${String(i).padStart(2, '0')}` as ScopeKey);
    const docs = Array.from({ length: 1200 }, (_, i) => doc(i, { scope: scopes[i % 40]!, search_text: `inv ${i} scan.pdf` }));
    const query = { ...baseQuery, search_value: 'inv 12' };
    const plan = planList(query, scopes);
    expect(plan.streams('C#k00')).toEqual([{ by: 'search', scope: 'C#k00', bucket: 'inv' }]);
    const { seen, pages } = await pageAsWeb(fakeReader(docs), plan);
    expect(seen.map((d) => d.receipt_id)).toEqual(newestOrder(docs.filter((d) => / 12/.test(` ${d.search_text.split(' ')[1]}`))));
    expect(pages).toHaveLength(1);
    // a term of one word: its bucket holds matches, small windows
    const one = await runList(fakeReader(docs), planList({ ...baseQuery, search_value: 'inv' }, scopes), undefined);
    expect(one.items.map((d) => d.receipt_id)).toEqual(newestOrder(docs).slice(0, 50));
  });

  it('keeps refusing cursors that no page gives', async () => {
    const six2: ScopeKey[] = ['U#me', ...six];
    const plan = planList({ ...baseQuery, receipt_status: 'rejected' }, six2);
    const reader = fakeReader([]);
    for (const bad of [{}, { c: '' }, { c: 5 }, { c: 'zz' }, { s: 'x' }, { c: 'a', s: 'x' }, { c: 'a', s: sortKeyOf(doc(1)), x: 1 }, ['a'], null, 'a']) {
      await expect(runList(reader, plan, Buffer.from(JSON.stringify(bad)).toString('base64url')), JSON.stringify(bad)).rejects.toThrow(/Invalid next cursor/);
    }
    await expect(runList(reader, plan, 'garbage!')).rejects.toThrow(/Invalid next cursor/);
    // a company or user that is not one of the caller's
    await expect(runList(reader, plan, undefined, 'zz')).rejects.toThrow(/Invalid next cursor/);
    await expect(runList(reader, plan, undefined, 'other-user')).rejects.toThrow(/Invalid next cursor/);
    // a cursor of the caller's own is taken
    await expect(runList(reader, plan, undefined, 'me')).resolves.toMatchObject({ items: [] });
  });
});

describe('all companies: companies whose counts show nothing for the list are passed over', () => {
  type Counts = Partial<Record<ReceiptStatus, number>>;
  const tally = (receipt: Counts, invoice: Counts = {}) => {
    const full = (c: Counts) => ({ counts: Object.fromEntries(['processing', 'archive', 'error', 'review', 'ready', 'unassigned', 'converting', 'rejected', 'saving', 'failed'].map((s) => [s, c[s as ReceiptStatus] ?? 0])) as Record<ReceiptStatus, number> });
    return { receipt: full(receipt), invoice: full(invoice) };
  };

  it('decides on the type and status of the list only', async () => {
    const counts = new Map<ScopeKey, ReturnType<typeof tally>>([
      ['U#me', tally({ unassigned: 2 }, { processing: 1 })],
      ['C#a', tally({ review: 3 })],
      ['C#b', tally({}, { saving: 1, review: 1 })],
      ['C#c', tally({})],
    ]);
    const empty = (q: Partial<Pick<ListReceiptsQuery, 'receipt_type' | 'receipt_status'>>) => [...emptyScopes({ receipt_status: 'inbox', receipt_type: undefined, ...q }, counts)].sort();
    expect(empty({})).toEqual(['C#c']);
    // the own scope: its documents waiting for a company are not in the inbox
    expect(empty({ receipt_type: 'receipt' })).toEqual(['C#b', 'C#c', 'U#me']);
    expect(empty({ receipt_status: 'review' })).toEqual(['C#c', 'U#me']);
    expect(empty({ receipt_status: 'review', receipt_type: 'invoice' })).toEqual(['C#a', 'C#c', 'U#me']);
    expect(empty({ receipt_status: 'saving' })).toEqual(['C#a', 'C#c', 'U#me']);
    expect(empty({ receipt_status: 'unassigned' })).toEqual(['C#a', 'C#b', 'C#c']);
    expect(empty({ receipt_status: 'failed' })).toEqual(['C#a', 'C#b', 'C#c', 'U#me']);
    // search, dates and the duplicates flag are no part of the decision (planList keeps them as filters)
    const plan = planList({ ...baseQuery, receipt_status: 'review', search_value: 'maxima', created_at_after: '2024-01-01', duplicate_id: 'true' }, [...counts.keys()], async () => counts);
    expect([...(await plan.emptyAmong!([...counts.keys()]))].sort()).toEqual(['C#c', 'U#me']);
  });

  it('reads only the companies with documents of the status: a sparse list in one page, an empty one without a read', async () => {
    const scopes: ScopeKey[] = ['U#me', ...Array.from({ length: 60 }, (_, i) => `C#c${String(i).padStart(2, '0')}` as ScopeKey)];
    const docs = [
      ...Array.from({ length: 3 }, (_, i) => doc(i * 2, { scope: 'C#c07', status: 'saving' })),
      ...Array.from({ length: 4 }, (_, i) => doc(i * 2 + 1, { scope: 'C#c51', status: 'saving', receipt_type: 'invoice' })),
      ...Array.from({ length: 60 }, (_, i) => doc(200 + i, { scope: scopes[i + 1]!, status: 'review' })),
    ];
    const countsOf = (list: DocumentRecord[]) =>
      new Map(
        scopes.map((scope) => {
          const of = (t: ReceiptType) => {
            const c: Counts = {};
            for (const d of list) if (d.scope === scope && d.receipt_type === t) c[d.status] = (c[d.status] ?? 0) + 1;
            return c;
          };
          return [scope, tally(of('receipt'), of('invoice'))] as const;
        }),
      );
    const counts = countsOf(docs);
    const asked: number[] = [];
    const countsFn = (of: ReturnType<typeof countsOf>) => async (list: ScopeKey[]) => {
      asked.push(list.length);
      return new Map(list.map((s) => [s, of.get(s)!] as const));
    };
    const saving = fakeReader(docs);
    const query = { ...baseQuery, receipt_status: 'saving' as const };
    const page = await runList(saving, planList(query, scopes, countsFn(counts)), undefined);
    expect(page.items.map((d) => d.receipt_id)).toEqual(newestOrder(docs.filter((d) => d.status === 'saving')));
    expect(page.next).toBeNull();
    expect(page.next_company).toBeNull();
    // two companies of two streams each
    expect(saving.reads).toBe(4);
    // the counts of every scope, in batches of 50 (one BatchGetItem each)
    expect(asked).toEqual([50, 11]);

    const failed = fakeReader(docs);
    const none = await runList(failed, planList({ ...baseQuery, receipt_status: 'failed' }, scopes, countsFn(counts)), undefined);
    expect(none).toEqual({ items: [], next: null, next_company: null, reads: 0 });
    expect(failed.reads).toBe(0);

    const small = { ...baseQuery, receipt_status: 'saving' as const, limit: 3 };
    const all = await pageAsWeb(fakeReader(docs), planList(small, scopes, countsFn(counts)));
    expect(all.seen.map((d) => d.receipt_id)).toEqual(page.items.map((d) => d.receipt_id));

    // A cursor taken before a company lost its documents (now passed over) continues below it in the others
    const review = { ...baseQuery, receipt_status: 'review' as const, limit: 10 };
    const p1 = await runList(fakeReader(docs), planList(review, scopes), undefined);
    const gone = docs.filter((d) => d.scope !== 'C#c30');
    const rest = await pageAsWeb(fakeReader(gone), planList(review, scopes, countsFn(countsOf(gone))), { next: p1.next! });
    expect([...p1.items, ...rest.seen].map((d) => d.receipt_id)).toEqual(newestOrder(docs.filter((d) => d.status === 'review' && (d.scope !== 'C#c30' || p1.items.includes(d)))));
  });
});
