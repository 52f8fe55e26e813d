import { describe, expect, it } from 'vitest';
import {
  byIssueDate,
  documentAfter,
  findNeighbours,
  listContext,
  listKey,
  narrowed,
  POSITION_PAGES,
  walkFilterText,
  walkQuery,
  type ListContext,
  type ListItem,
  type ListQuery,
  type Neighbours,
  type ReadList,
} from '../../../web/src/features/edit-receipt/lib/navigation';
import { EMPTY_FILTERS, localDayBounds, todayIso, type ListScope } from '../../../web/src/features/receipts/lib/list-params';
import type { Query } from '../../../web/src/lib/api-client';
import type { ReceiptStatus } from '../../../shared/status';

/**
 * GET /receipts as the server answers it (lambdas/core/documents/list.ts): the context's status (the inbox: every
 * status) and type, newest first by `created_at#receipt_id`, both created_at bounds inclusive, `next` continuing below
 * the last item of a full page.
 */
function fakeList(docs: ListItem[], ctx: ListContext) {
  const sorted = docs
    .filter((d) => d.receipt_type === ctx.receiptType && (ctx.inbox || d.status === ctx.status))
    .sort((a, b) => (listKey(a) < listKey(b) ? 1 : -1));
  const reads: ListQuery[] = [];
  const read: ReadList = async (q) => {
    reads.push(q);
    const upper = q.created_at_before ? `${q.created_at_before}\uffff` : undefined;
    const matching = sorted.filter(
      (d) => (!q.created_at_after || listKey(d) >= q.created_at_after) && (!upper || listKey(d) <= upper) && (!q.next || listKey(d) < q.next),
    );
    const items = matching.slice(0, q.limit);
    return { items, next: matching.length > q.limit ? listKey(items[items.length - 1]!) : null };
  };
  /** The list as the walk sees it (left-out statuses gone), newest first. */
  const walked = (pick: (d: ListItem) => boolean) => sorted.filter(pick);
  return { read, reads, walked };
}

const C1: ListScope = { kind: 'company', companyId: 'C1' };
const DAY = 86_400_000;
const START = Date.parse('2025-01-01T00:00:00.000Z');
const id = (n: number) => `DOC${String(n).padStart(23, '0')}`;
const at = (ms: number) => new Date(ms).toISOString();

/** A year of uploads: `n` documents at uneven gaps (minutes to days), with bursts and some in the same millisecond. */
function yearOfDocuments(n: number, status: (i: number) => ReceiptStatus = () => 'archive', type: (i: number) => 'receipt' | 'invoice' = () => 'receipt'): ListItem[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  let t = START;
  return Array.from({ length: n }, (_, i) => {
    const r = rnd();
    // a burst (a few in the same second or millisecond), minutes apart, or a gap of days
    t += i % 97 === 0 ? 0 : r < 0.3 ? Math.floor(rnd() * 900) : r < 0.97 ? Math.floor(rnd() * 4 * 3600_000) : Math.floor(rnd() * 9 * DAY);
    return { receipt_id: id(i), created_at: at(t), status: status(i), receipt_type: type(i) };
  });
}

describe('edit screen: previous / next without reading the list down to the document', () => {
  const archive: ListContext = { inbox: false, status: 'archive', receiptType: 'receipt' };

  it('finds both neighbours of documents far beyond the 1,000th, in a few small reads', async () => {
    const docs = yearOfDocuments(2600);
    const list = fakeList(docs, archive);
    const walked = list.walked(() => true);
    expect(walked).toHaveLength(2600);
    for (const n of [1, 2, 49, 50, 51, 200, 201, 1000, 1001, 1500, 2110, 2599, 2600]) {
      list.reads.length = 0;
      const doc = walked[n - 1]!;
      const found = await findNeighbours(list.read, doc, archive);
      expect({ n, previous: found.previous, next: found.next }).toEqual({ n, previous: walked[n - 2]?.receipt_id ?? null, next: walked[n]?.receipt_id ?? null });
      // the place is counted on the first pages only
      expect(found.position).toBe(n <= POSITION_PAGES * 50 ? n : null);
      // never the list read page by page from its start: at most the pages that count the place, then small windows
      const fromTop = list.reads.filter((q) => !q.created_at_before);
      expect(fromTop.length).toBeLessThanOrEqual(POSITION_PAGES);
      expect(list.reads.length, `reads for the ${n}th`).toBeLessThanOrEqual(POSITION_PAGES + 8);
      expect(list.reads.every((q) => q.limit <= 50)).toBe(true);
    }
  });

  it('knowing where it came from (Next: the previous one and the place) costs one read', async () => {
    const walked = fakeList(yearOfDocuments(1500), archive).walked(() => true);
    const list = fakeList(yearOfDocuments(1500), archive);
    const doc = walked[1200]!;
    const found = await findNeighbours(list.read, doc, archive, { previous: walked[1199]!.receipt_id, position: null });
    expect(found).toMatchObject({ previous: walked[1199]!.receipt_id, next: walked[1201]!.receipt_id, position: null });
    expect(list.reads).toHaveLength(1);
    expect(list.reads[0]).toMatchObject({ created_at_before: doc.created_at });
    // Previous: the next one known, the place one less than where it came from
    list.reads.length = 0;
    const back = await findNeighbours(list.read, walked[1199]!, archive, { next: doc.receipt_id, position: 1200 });
    expect(back).toMatchObject({ previous: walked[1198]!.receipt_id, next: doc.receipt_id, position: 1200 });
    expect(list.reads.length).toBeLessThanOrEqual(16);
  });

  it('walks the inbox past the documents it leaves out (processing, another type), also in a dense burst', async () => {
    const inbox: ListContext = { inbox: true, status: 'review', receiptType: 'receipt' };
    // 1,800 documents; every third still processing, every fifth an invoice; 300 of them in one second
    const docs = yearOfDocuments(1800, (i) => (i % 3 === 0 ? 'processing' : i % 2 ? 'review' : 'ready'), (i) => (i % 5 === 0 ? 'invoice' : 'receipt')).map((d, i) =>
      i >= 1000 && i < 1300 ? { ...d, created_at: at(Date.parse('2025-09-01T10:00:00.000Z') + (i - 1000) * 3) } : i >= 1300 ? { ...d, created_at: at(Date.parse(d.created_at) + 300 * DAY) } : d,
    );
    const list = fakeList(docs, inbox);
    const walked = list.walked((d) => d.status !== 'processing');
    for (const n of [1, 2, 150, 300, 420, 500, 560, 700, walked.length]) {
      list.reads.length = 0;
      const found = await findNeighbours(list.read, walked[n - 1]!, inbox);
      expect({ n, previous: found.previous, next: found.next }).toEqual({ n, previous: walked[n - 2]?.receipt_id ?? null, next: walked[n]?.receipt_id ?? null });
      // counted while the document is on the server's first pages (which hold the left-out ones too)
      const served = list.walked(() => true).findIndex((d) => d.receipt_id === walked[n - 1]!.receipt_id) + 1;
      expect(found.position).toBe(served <= POSITION_PAGES * 50 ? n : null);
      expect(list.reads.length, `reads for the ${n}th`).toBeLessThanOrEqual(POSITION_PAGES + 40);
      // Merge's candidates: documents of the list around this one, in its order
      const around = found.nearby.map((i) => walked.findIndex((w) => w.receipt_id === i.receipt_id) + 1);
      expect(around.every((k) => k > 0 && k !== n)).toBe(true);
      expect([...around].sort((a, b) => a - b)).toEqual(around);
    }
  });

  it('more than a page of documents in one millisecond', async () => {
    const t = '2025-05-05T05:05:05.005Z';
    const docs: ListItem[] = [
      ...Array.from({ length: 400 }, (_, i) => ({ receipt_id: id(i), created_at: at(START + i * 60_000), status: 'review' as const, receipt_type: 'receipt' as const })),
      ...Array.from({ length: 120 }, (_, i) => ({ receipt_id: id(1000 + i), created_at: t, status: 'review' as const, receipt_type: 'receipt' as const })),
      ...Array.from({ length: 300 }, (_, i) => ({ receipt_id: id(2000 + i), created_at: at(Date.parse(t) + (i + 1) * 3_600_000), status: 'review' as const, receipt_type: 'receipt' as const })),
    ];
    const ctx: ListContext = { inbox: false, status: 'review', receiptType: 'receipt' };
    const list = fakeList(docs, ctx);
    const walked = list.walked(() => true);
    for (const n of [300, 301, 360, 420, 421]) {
      const found = await findNeighbours(list.read, walked[n - 1]!, ctx);
      expect({ n, previous: found.previous, next: found.next }).toEqual({ n, previous: walked[n - 2]!.receipt_id, next: walked[n]!.receipt_id });
    }
  });

  it('after an action: the document after this one as the list is now, else the first (the walk wraps), else none', async () => {
    const ctx: ListContext = { inbox: false, status: 'review', receiptType: 'receipt' };
    const docs = yearOfDocuments(1200, () => 'review');
    const list = fakeList(docs, ctx);
    const walked = list.walked(() => true);
    // the confirmed document has left the review list: the one after its old place
    const confirmed = { ...walked[1100]!, status: 'ready' as const };
    const gone = fakeList(docs.filter((d) => d.receipt_id !== confirmed.receipt_id), ctx);
    gone.reads.length = 0;
    expect(await documentAfter(gone.read, confirmed, ctx)).toBe(walked[1101]!.receipt_id);
    expect(gone.reads).toHaveLength(1);
    // the last one: the list's first
    expect(await documentAfter(list.read, walked[1199]!, ctx)).toBe(walked[0]!.receipt_id);
    // the only one: none
    const one = fakeList([walked[5]!], ctx);
    expect(await documentAfter(one.read, walked[5]!, ctx)).toBeNull();
  });
});

/**
 * GET /receipts as the server answers a list with filters (lambdas/core/documents/list.ts): the status and type; a
 * search (here: the name contains the term); a created_at range (days from their first to their last millisecond,
 * timestamps inclusive) or, with by_issue_date, the same parameters as a range of issue dates; duplicate_id=true.
 * Newest first by `created_at#receipt_id`; a filtered page looks at `scan` documents at most (the server's 8 reads of
 * 250), so it may hold fewer than its limit (even none) and still say `next`.
 */
type Doc = ListItem & { name: string; issue_date: string; duplicate: boolean };
function fakeServer(docs: Doc[], scan = 2000) {
  const sorted = [...docs].sort((a, b) => (listKey(a) < listKey(b) ? 1 : -1));
  const queries: Query[] = [];
  const serve = async (q: Query) => {
    queries.push(q);
    const str = (k: string) => (typeof q[k] === 'string' ? (q[k] as string) : undefined);
    const after = str('created_at_after');
    const before = str('created_at_before');
    const byIssue = q.by_issue_date === 'true';
    const lower = after && !byIssue ? (after.length === 10 ? `${after}T00:00:00.000Z` : after) : undefined;
    const upper = before && !byIssue ? (before.length === 10 ? `${before}T23:59:59.999Z\uffff` : `${before}\uffff`) : undefined;
    const search = str('search_value')?.toLowerCase();
    const filtered = Boolean(search || byIssue || q.duplicate_id);
    const partition = sorted.filter(
      (d) =>
        d.receipt_type === q.receipt_type &&
        (q.receipt_status === undefined ? d.status !== 'processing' : d.status === q.receipt_status) &&
        (!lower || listKey(d) >= lower) &&
        (!upper || listKey(d) <= upper) &&
        (!q.next || listKey(d) < (q.next as string)),
    );
    const matches = (d: Doc) =>
      (!search || d.name.toLowerCase().includes(search)) &&
      (!byIssue || ((!after || d.issue_date >= after.slice(0, 10)) && (!before || d.issue_date <= before.slice(0, 10)))) &&
      (q.duplicate_id !== 'true' || d.duplicate);
    const limit = Number(q.limit);
    const items: Doc[] = [];
    let looked = 0;
    for (const d of partition) {
      if (items.length === limit || (filtered && looked === scan)) return { items, next: listKey(partition[looked - 1]!) };
      looked++;
      if (matches(d)) items.push(d);
    }
    return { items, next: null };
  };
  return { serve, queries };
}

/** The walk's reads as the screen makes them: the list's query (`walkQuery`) sent to the server. */
function walkOver(server: ReturnType<typeof fakeServer>, ctx: ListContext): ReadList {
  return async (q) => {
    const query = walkQuery(C1, ctx, q);
    return query ? server.serve(query) : { items: [], next: null };
  };
}

/** 2,600 uploads of a year in Ready; every 20th supplier is an "Alpha" one, every 3rd a "Beta"; issue dates unrelated to the upload. */
function readyDocuments(n = 2600): Doc[] {
  return yearOfDocuments(n, () => 'ready').map((d, i) => ({
    ...d,
    name: i % 20 === 7 ? `ALPHA SDN BHD ${i}` : i % 3 === 0 ? `Beta Trading ${i}` : `Gamma ${i}`,
    issue_date: at(START + ((i * 7919) % 365) * DAY).slice(0, 10),
    duplicate: i % 11 === 4,
  }));
}

/** The walk found the n-th of `listed` (newest first): its neighbours, its place and the list's size. */
function expectPlace(found: Neighbours, listed: { receipt_id: string }[], n: number, total: number) {
  expect({ n, previous: found.previous, next: found.next, position: found.position, total: found.total }).toEqual({
    n,
    previous: listed[n - 2]?.receipt_id ?? null,
    next: listed[n]?.receipt_id ?? null,
    position: n,
    total,
  });
}

describe('edit screen: the walk follows the list it was opened from (its search, date range, issue dates, Duplicates)', () => {
  const ready: ListContext = { inbox: false, status: 'ready', receiptType: 'receipt' };
  const withFilters = (search: string, f: Partial<ListContext['filters']> = {}): ListContext => ({ ...ready, filters: { ...EMPTY_FILTERS, search, ...f } });
  const newestFirst = (docs: Doc[]) => [...docs].sort((a, b) => (listKey(a) < listKey(b) ? 1 : -1));

  it('in the all-companies view the walk reads the list of every company (selected=ALL), with the same window', () => {
    const all = walkQuery({ kind: 'all' }, ready, { created_at_before: '2025-03-10T10:00:00.000Z', limit: 5, next: 'N' });
    expect(all).toMatchObject({ selected: 'ALL', receipt_status: 'ready', receipt_type: 'receipt', created_at_before: '2025-03-10T10:00:00.000Z', limit: 5, next: 'N' });
    expect(all).not.toHaveProperty('company_id');
    // one list newest first across the companies: the neighbours of a document may be of another company
    const docs = yearOfDocuments(300, () => 'ready').map((d, i) => ({ ...d, company_id: i % 3 === 0 ? 'C2' : 'C1' }));
    const list = fakeList(docs, ready);
    const walked = list.walked(() => true);
    return Promise.all(
      [1, 2, 150, 300].map(async (n) => {
        const found = await findNeighbours(list.read, walked[n - 1]!, ready);
        expect({ n, previous: found.previous, next: found.next, position: found.position }).toEqual({
          n,
          previous: walked[n - 2]?.receipt_id ?? null,
          next: walked[n]?.receipt_id ?? null,
          position: n <= 4 * 50 ? n : null,
        });
      }),
    );
  });

  it('the walk reads the list with the query the list sends: search, Duplicates, issue dates; created_at windows inside its range', () => {
    // no filter: the query of before (company, status, type, the walk's window), nothing more
    expect(walkQuery(C1, ready, { created_at_before: '2025-03-10T10:00:00.000Z', limit: 5 })).toEqual({
      company_id: 'C1',
      receipt_status: 'ready',
      receipt_type: 'receipt',
      search_value: undefined,
      created_at_after: undefined,
      created_at_before: '2025-03-10T10:00:00.000Z',
      by_issue_date: undefined,
      duplicate_id: undefined,
      limit: 5,
    });
    const list = withFilters('SDN BHD', { duplicates: true, dateFrom: '2025-03-01', dateTo: '2025-03-31' });
    // the list's range and the walk's window meet: the later after, the earlier before
    expect(walkQuery(C1, list, { created_at_after: '2025-02-20T10:00:00.000Z', created_at_before: '2025-03-10T10:00:00.000Z', limit: 50, next: 'N' })).toMatchObject({
      search_value: 'SDN BHD',
      duplicate_id: 'true',
      created_at_after: localDayBounds('2025-03-01')!.start,
      created_at_before: '2025-03-10T10:00:00.000Z',
      limit: 50,
      next: 'N',
    });
    expect(walkQuery(C1, list, { created_at_after: '2025-03-20T10:00:00.000Z', limit: 50 })).toMatchObject({ created_at_after: '2025-03-20T10:00:00.000Z', created_at_before: localDayBounds('2025-03-31')!.end });
    // a window outside the range: nothing to read
    expect(walkQuery(C1, list, { created_at_after: new Date(2025, 3, 1).toISOString(), limit: 50 })).toBeNull();
    expect(walkQuery(C1, list, { created_at_before: new Date(new Date(2025, 2, 1).getTime() - 1).toISOString(), limit: 50 })).toBeNull();
    // a range of issue dates: the list's parameters as they are, the walk never asks for a window there
    const issue = withFilters('', { dateFrom: '2025-03-01', dateTo: '2025-03-31', byIssueDate: true });
    expect(byIssueDate(issue)).toBe(true);
    expect(walkQuery(C1, issue, { limit: 50 })).toMatchObject({ by_issue_date: 'true', created_at_after: '2025-03-01', created_at_before: '2025-03-31' });
    // the type checkboxes: the walk of a list of invoices is of invoices
    expect(listContext(false, 'ready', 'receipt', 'q=SDN+BHD&type=invoice')).toMatchObject({ receiptType: 'invoice', filters: { search: 'SDN BHD', receipt: false, invoice: true } });
    expect(listContext(false, 'ready', 'receipt', undefined)).toMatchObject({ receiptType: 'receipt', filters: EMPTY_FILTERS });
    expect(narrowed(listContext(false, 'ready', 'receipt', 'type=receipt'))).toBe(false);
    expect(narrowed(listContext(false, 'ready', 'receipt', 'q=SDN'))).toBe(true);
  });

  it('says what narrows the walked list: the search as sent, the dates and of what, Duplicates; nothing for a whole list', () => {
    expect(walkFilterText(listContext(false, 'review', 'receipt', 'q=%20alpha%20'))).toBe('“alpha”');
    expect(walkFilterText(listContext(true, 'review', 'receipt', 'from=2025-03-01&to=2025-03-31&duplicates=1'))).toBe('Uploaded 01 Mar 25 – 31 Mar 25 · Duplicates');
    expect(walkFilterText(listContext(false, 'ready', 'receipt', 'q=SDN&from=2025-03-01&dates=issue'))).toBe('“SDN” · Issued 01 Mar 25 – …');
    // the type checkboxes and an empty search narrow nothing the screen must say (the walk is of the document's type)
    expect(walkFilterText(listContext(false, 'ready', 'receipt', 'type=invoice&q='))).toBe('');
    expect(walkFilterText(listContext(false, 'ready', 'receipt', undefined))).toBe('');
  });

  it('opened from a search: previous, next, n and the total are of the hits, every read carries the search', async () => {
    const docs = readyDocuments();
    const hits = newestFirst(docs.filter((d) => d.name.includes('ALPHA SDN BHD')));
    expect(hits).toHaveLength(130);
    const ctx = withFilters('SDN BHD');
    for (const n of [1, 2, 29, 64, 129, 130]) {
      const server = fakeServer(docs);
      const found = await findNeighbours(walkOver(server, ctx), hits[n - 1]!, ctx);
      expectPlace(found, hits, n, 130);
      expect(server.queries.every((q) => q.search_value === 'SDN BHD' && q.receipt_status === 'ready')).toBe(true);
      expect(server.queries.length, `reads for the ${n}th`).toBeLessThanOrEqual(POSITION_PAGES + 8);
    }
    // after an action: the next hit, the last hit wraps to the first, none left: none
    const server = fakeServer(docs);
    expect(await documentAfter(walkOver(server, ctx), hits[1]!, ctx)).toBe(hits[2]!.receipt_id);
    expect(await documentAfter(walkOver(server, ctx), hits[129]!, ctx)).toBe(hits[0]!.receipt_id);
    expect(server.queries.every((q) => q.search_value === 'SDN BHD')).toBe(true);
    const one = fakeServer(docs.filter((d) => d.receipt_id === hits[5]!.receipt_id || !d.name.includes('ALPHA')));
    expect(await documentAfter(walkOver(one, ctx), hits[5]!, ctx)).toBeNull();
  });

  it('a search with many hits: the neighbours deep in it are still hits (n and the total not counted)', async () => {
    const docs = readyDocuments();
    const hits = newestFirst(docs.filter((d) => d.name.startsWith('Beta')));
    expect(hits.length).toBeGreaterThan(POSITION_PAGES * 50);
    const ctx = withFilters('beta');
    for (const n of [150, 201, 500, hits.length]) {
      // pages that looked at 120 documents each: 40 hits a page
      const server = fakeServer(docs, 120);
      const found = await findNeighbours(walkOver(server, ctx), hits[n - 1]!, ctx);
      expect({ n, previous: found.previous, next: found.next }).toEqual({ n, previous: hits[n - 2]!.receipt_id, next: hits[n]?.receipt_id ?? null });
      expect(found.position).toBe(n <= POSITION_PAGES * 50 ? n : null);
      expect(found.total).toBeNull();
      expect(server.queries.every((q) => q.search_value === 'beta')).toBe(true);
    }
    // pages that looked at 10 documents each hold one hit or none: the walk reads on past the empty ones
    const alpha = newestFirst(docs.filter((d) => d.name.includes('ALPHA')));
    const sparse = withFilters('alpha');
    for (const n of [1, 2, 3, 60, alpha.length]) {
      const server = fakeServer(docs, 10);
      const found = await findNeighbours(walkOver(server, sparse), alpha[n - 1]!, sparse);
      expect({ n, previous: found.previous, next: found.next }).toEqual({ n, previous: alpha[n - 2]?.receipt_id ?? null, next: alpha[n]?.receipt_id ?? null });
      // counted where the pages read reached it, else not shown
      expect([n, null]).toContain(found.position);
      expect(server.queries.some((q) => !q.next) && server.queries.every((q) => q.search_value === 'alpha')).toBe(true);
    }
  });

  it('a date range of uploads, Duplicates: the walk stays in the range, its windows within it', async () => {
    const docs = readyDocuments();
    const from = '2025-03-01';
    const to = '2025-04-30';
    const inRange = (d: Doc) => todayIso(new Date(d.created_at)) >= from && todayIso(new Date(d.created_at)) <= to;
    const ctx = withFilters('', { dateFrom: from, dateTo: to, duplicates: true });
    const listed = newestFirst(docs.filter((d) => inRange(d) && d.duplicate));
    expect(listed.length).toBeGreaterThan(10);
    for (const n of [1, 2, Math.floor(listed.length / 2), listed.length]) {
      const server = fakeServer(docs);
      const found = await findNeighbours(walkOver(server, ctx), listed[n - 1]!, ctx);
      expectPlace(found, listed, n, listed.length);
      for (const q of server.queries) {
        expect(q.duplicate_id).toBe('true');
        expect(String(q.created_at_after) >= localDayBounds(from)!.start).toBe(true);
        expect(String(q.created_at_before) <= localDayBounds(to)!.end).toBe(true);
      }
    }
    // the last one of the range: after an action the first of the range, not the next upload below it
    expect(await documentAfter(walkOver(fakeServer(docs), ctx), listed[listed.length - 1]!, ctx)).toBe(listed[0]!.receipt_id);
  });

  it('a range of issue dates (not the order of the list): the neighbours are of the range, read from the list start', async () => {
    const docs = readyDocuments(900);
    const ctx = withFilters('', { dateFrom: '2025-06-01', dateTo: '2025-06-30', byIssueDate: true });
    const listed = newestFirst(docs.filter((d) => d.issue_date >= '2025-06-01' && d.issue_date <= '2025-06-30'));
    expect(listed.length).toBeGreaterThan(40);
    for (const n of [1, 2, 30, listed.length]) {
      const server = fakeServer(docs);
      const found = await findNeighbours(walkOver(server, ctx), listed[n - 1]!, ctx);
      expectPlace(found, listed, n, listed.length);
      expect(server.queries.every((q) => q.by_issue_date === 'true' && q.created_at_after === '2025-06-01' && q.created_at_before === '2025-06-30')).toBe(true);
    }
    const server = fakeServer(docs);
    expect(await documentAfter(walkOver(server, ctx), listed[3]!, ctx)).toBe(listed[4]!.receipt_id);
    expect(await documentAfter(walkOver(server, ctx), listed[listed.length - 1]!, ctx)).toBe(listed[0]!.receipt_id);
  });
});
