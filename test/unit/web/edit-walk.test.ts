import { describe, expect, it } from 'vitest';
import {
  documentAfter,
  findNeighbours,
  listKey,
  POSITION_PAGES,
  type ListContext,
  type ListItem,
  type ListQuery,
  type ReadList,
} from '../../../web/src/features/edit-receipt/lib/navigation';
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
