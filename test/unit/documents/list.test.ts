import { describe, expect, it } from 'vitest';
import {
  decodeCursor,
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
  if (filter.search && !d.search_text.includes(filter.search)) return false;
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
    // A term without a word of three letters is a substring filter on the list partitions.
    const short = planList({ ...baseQuery, search_value: 'Ab 1' }, ['C#c']);
    expect(short.filter).toEqual({ search: 'ab 1' });
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
    for (const other of [{ a: 1 }, {}, { c: 'c1' }, { s: key, extra: 1 }, [key]]) {
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
    const plan = planList({ ...baseQuery, search_value: 'ee' }, ['C#c1']);
    const page = await runList(reader, plan, undefined);
    expect(reader.reads).toBeLessThanOrEqual(8);
    expect(page.items).toEqual([]);
    expect(page.next).not.toBeNull();
    const { seen } = await pageAll(fakeReader(docs), { ...baseQuery, search_value: 'ee' }, ['C#c1']);
    expect(seen.map((d) => d.receipt_id)).toEqual(['D000010']);
    // A window that matched nothing does not end the page while reads are left: a needle three
    // windows down is on the first page.
    const near = Array.from({ length: 5000 }, (_, i) => doc(i, { search_text: i === 4400 ? 'needle' : 'hay' }));
    const found = await runList(fakeReader(near), planList({ ...baseQuery, search_value: 'ee' }, ['C#c1']), undefined);
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

  it('lists all companies one after the other with next_company', async () => {
    const docs = [
      ...Array.from({ length: 30 }, (_, i) => doc(i, { scope: 'C#a' })),
      ...Array.from({ length: 45 }, (_, i) => doc(100 + i, { scope: 'C#b' })),
    ];
    const reader = fakeReader(docs);
    const plan = planList(baseQuery, ['C#a', 'C#b']);
    const first = await runList(reader, plan, undefined);
    expect(first.items).toHaveLength(50);
    expect(first.items.slice(0, 30).every((d) => d.scope === 'C#a')).toBe(true);
    expect(first.next_company).toBe('b');
    const second = await runList(reader, plan, first.next!);
    expect(second.items).toHaveLength(25);
    expect(second.next).toBeNull();
    const ids = [...first.items, ...second.items].map((d) => d.receipt_id);
    expect(new Set(ids).size).toBe(75);
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
    const first = await runList(fakeReader(docs), planList({ ...baseQuery, receipt_status: 'failed', limit: 5 }, [own, 'C#a']), undefined);
    expect(first.items.every((d) => d.scope === own && d.status === 'failed')).toBe(true);
    expect(first.next_company).toBe('u1');
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
