import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Company } from '../../../shared/schemas/company';
import { createLiveBatcher, handleLiveMessage, handleLiveMessages } from '../../../web/src/features/live/components/LiveChannel';
import { applyReceiptToList, applyReceiptsToList, type ListData } from '../../../web/src/features/live/lib/cache-updates';
import type { LiveMessage } from '../../../web/src/features/live/lib/live-client';
import { createLiveCoverage } from '../../../web/src/features/live/lib/live-status';
import { receiptCache } from '../../../web/src/features/live/use-receipt-cache';
import { readListScroll, restoresOnVisit, writeListScroll } from '../../../web/src/features/receipts/lib/list-scroll';
import { queryKeys } from '../../../web/src/lib/query-keys';
import { data, list, receipt } from './receipt-fixture';

/**
 * A year's documents in the list: a bulk action's answers and a burst of live events update each cached list once
 * (one render), a live event of a version already applied changes nothing, the counts are read once per bulk.
 */

const ids = (d: ListData | undefined | null) => d?.pages.flatMap((p) => p.items.map((r) => r.receipt_id));
const doc = (i: number, over: Parameters<typeof receipt>[0] = {}) => receipt({ receipt_id: `d${i}`, status: 'review', version: 2, ...over });
const company = (id: string) => ({ company_id: id, name: id, role: 'admin', counts: {} }) as Company;

/** 100 documents To Review on two pages, the same in the inbox, and a searched list. */
function setup() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const docs = Array.from({ length: 100 }, (_, i) => doc(i));
  const review = list('review');
  const inbox = list('inbox');
  const searched = list('review', { search: 'maxima' });
  qc.setQueryData(queryKeys.receiptList(review), data(docs.slice(0, 50), docs.slice(50)));
  qc.setQueryData(queryKeys.receiptList(inbox), data(docs.slice(0, 50), docs.slice(50)));
  qc.setQueryData(queryKeys.receiptList(searched), data(docs.slice(0, 3)));
  qc.setQueryData(queryKeys.companies, [company('c1')]);
  return { qc, cache: receiptCache(qc), docs, review, inbox, searched };
}

/** Calls of setQueryData on document lists. */
function listWrites(qc: QueryClient) {
  const spy = vi.spyOn(qc, 'setQueryData');
  return () => spy.mock.calls.filter(([key]) => Array.isArray(key) && key[1] === 'list').length;
}

const flushNotifications = () => new Promise((r) => setTimeout(r, 5));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('a bulk answer in the caches', () => {
  it('flags 100 documents with one write per list and one notification of the screen', async () => {
    const { qc, cache, docs, review, inbox, searched } = setup();
    const writes = listWrites(qc);
    const renders = vi.fn();
    const unsubscribe = new QueryObserver(qc, { queryKey: queryKeys.receiptList(review), enabled: false }).subscribe(renders);
    cache.applyReceipts(docs.map((d) => ({ ...d, flag: true, version: 3 })));
    await flushNotifications();
    unsubscribe();
    expect(writes()).toBe(2);
    expect(renders).toHaveBeenCalledTimes(1);
    const after = qc.getQueryData<ListData>(queryKeys.receiptList(review))!;
    expect(ids(after)).toEqual(docs.map((d) => d.receipt_id));
    expect(after.pages.map((p) => p.items.length)).toEqual([50, 50]);
    expect(after.pages.every((p) => p.items.every((r) => r.flag && r.version === 3))).toBe(true);
    expect(ids(qc.getQueryData(queryKeys.receiptList(inbox)))).toEqual(docs.map((d) => d.receipt_id));
    // the searched list cannot be checked here: read again (once)
    expect(qc.getQueryState(queryKeys.receiptList(searched))?.isInvalidated).toBe(true);
  });

  it('archiving moves the documents out of To Review and keeps them in place in the inbox', () => {
    const { qc, cache, docs, review, inbox } = setup();
    cache.applyReceipts(docs.slice(0, 60).map((d) => ({ ...d, status: 'archive' as const, version: 3 })));
    expect(ids(qc.getQueryData(queryKeys.receiptList(review)))).toEqual(docs.slice(60).map((d) => d.receipt_id));
    const inboxData = qc.getQueryData<ListData>(queryKeys.receiptList(inbox))!;
    expect(ids(inboxData)).toEqual(docs.map((d) => d.receipt_id));
    expect(inboxData.pages[0]!.items[0]!.status).toBe('archive');
  });

  it('a row whose fields do not change keeps its object (its memoized row does not render again)', () => {
    const { qc, cache, docs, review } = setup();
    const before = qc.getQueryData<ListData>(queryKeys.receiptList(review))!;
    const writes = listWrites(qc);
    cache.applyReceipts([{ ...docs[7]!, version: 3 }, { ...docs[70]! }]);
    const after = qc.getQueryData<ListData>(queryKeys.receiptList(review))!;
    expect(writes()).toBe(2);
    expect(after.pages[0]!.items[7]!.version).toBe(3);
    // the second page held nothing that changed: the same page, the same rows
    expect(after.pages[1]).toBe(before.pages[1]);
    expect(after.pages[0]!.items[8]).toBe(before.pages[0]!.items[8]);
    // the same state again changes no list at all
    cache.applyReceipts([{ ...docs[7]!, version: 3 }]);
    expect(writes()).toBe(2);
  });

  it('gives the same lists as applying the documents one after the other', () => {
    const base = data([doc(1), doc(2, { version: 5 }), doc(3)], [doc(4), doc(5)]);
    const batch = [
      doc(2, { flag: true, version: 4 }), // older than cached: dropped
      doc(3, { status: 'ready', version: 3 }), // leaves To Review
      doc(9, { version: 1 }), // new: on top
      doc(4, { total: '9.99', version: 3 }),
      doc(10, { version: 1 }), // new: on top of the other new one
      doc(9, { total: '1.00', version: 2 }), // the new one changed again
      doc(3, { status: 'review', version: 4 }), // back: on top
      doc(11, { status: 'ready', version: 1 }), // not for this list
    ];
    let sequential: ListData = base;
    for (const r of batch) {
      const u = applyReceiptToList(sequential, list('review'), r);
      if (u.kind === 'set') sequential = u.data;
    }
    const batched = applyReceiptsToList(base, list('review'), batch);
    expect(batched.invalidate).toBe(false);
    expect(ids(batched.data)).toEqual(ids(sequential));
    expect(batched.data?.pages.flatMap((p) => p.items)).toEqual(sequential.pages.flatMap((p) => p.items));
  });

  it('refetches the counts once, when the last call of the bulk action is answered', async () => {
    vi.useFakeTimers();
    const { qc, cache, docs } = setup();
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    const countsRefetched = () => invalidate.mock.calls.filter(([f]) => JSON.stringify(f?.queryKey) === JSON.stringify(queryKeys.companies)).length;
    const release = cache.holdRefreshes();
    // ten calls answered 2 s apart, their live events in between
    for (let call = 0; call < 10; call++) {
      const chunk = docs.slice(call * 10, call * 10 + 10).map((d) => ({ ...d, flag: true, version: 3 }));
      handleLiveMessages(chunk.map((payload) => ({ event: 'receipt-update', payload })), cache, 'c1');
      cache.applyReceipts(chunk);
      await vi.advanceTimersByTimeAsync(2000);
    }
    expect(countsRefetched()).toBe(0);
    release();
    release(); // a second release changes nothing
    await vi.advanceTimersByTimeAsync(1000);
    expect(countsRefetched()).toBe(1);
    // outside a bulk action the counts follow as before (debounced)
    cache.applyReceipt({ ...docs[0]!, flag: false, version: 4 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(countsRefetched()).toBe(2);
  });

  it('while a bulk action runs, live events wait: its own are then dropped, a colleague\'s is applied on release', async () => {
    const { qc, cache, docs, review } = setup();
    const writes = listWrites(qc);
    const renders = vi.fn();
    const unsubscribe = new QueryObserver(qc, { queryKey: queryKeys.receiptList(review), enabled: false }).subscribe(renders);
    const release = cache.holdRefreshes();
    for (let call = 0; call < 5; call++) {
      const chunk = docs.slice(call * 20, call * 20 + 20).map((d) => ({ ...d, flag: true, version: 3 }));
      // the server's events of the call come before its answer
      for (const payload of chunk) handleLiveMessage({ event: 'receipt-update', payload }, cache, 'c1');
      cache.applyReceipts(chunk);
      await flushNotifications();
    }
    handleLiveMessage({ event: 'receipt-update', payload: { ...docs[99]!, flag: true, total: '7.00', version: 4 } }, cache, 'c1');
    expect(writes()).toBe(5 * 2);
    release();
    await flushNotifications();
    unsubscribe();
    // five answers, then the colleague's change: one write per list each, one render each
    expect(writes()).toBe(6 * 2);
    expect(renders).toHaveBeenCalledTimes(6);
    const rows = qc.getQueryData<ListData>(queryKeys.receiptList(review))!.pages.flatMap((p) => p.items);
    expect(rows.every((r) => r.flag)).toBe(true);
    expect(rows[99]).toMatchObject({ total: '7.00', version: 4 });
  });

  it('reads a list it cannot check again once, after the bulk action', () => {
    const { qc, cache, docs, searched } = setup();
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    const searchedRefetched = () => invalidate.mock.calls.filter(([f]) => JSON.stringify(f?.queryKey) === JSON.stringify(queryKeys.receiptList(searched))).length;
    const release = cache.holdRefreshes();
    for (let call = 0; call < 5; call++) cache.applyReceipts([{ ...docs[call]!, flag: true, version: 3 }]);
    expect(searchedRefetched()).toBe(0);
    release();
    expect(searchedRefetched()).toBe(1);
  });
});

describe('live events', () => {
  it('a live event of the version the call already applied changes no list', () => {
    const { qc, cache, docs } = setup();
    const flagged = { ...docs[0]!, flag: true, version: 3 };
    cache.applyReceipt(flagged); // the bulk call's answer
    const writes = listWrites(qc);
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    handleLiveMessage({ event: 'receipt-update', payload: { ...flagged, updated_at: '2024-03-06T00:00:00.000Z' } }, cache, 'c1');
    expect(writes()).toBe(0);
    expect(invalidate).not.toHaveBeenCalled();
    // the next version is applied
    handleLiveMessage({ event: 'receipt-update', payload: { ...flagged, flag: false, version: 4 } }, cache, 'c1');
    expect(writes()).toBe(2);
  });

  it('a burst of events is one write per list; other events keep their order', () => {
    const { qc, cache, docs, review } = setup();
    const writes = listWrites(qc);
    const messages: LiveMessage[] = [
      ...docs.slice(0, 40).map((d) => ({ event: 'receipt-update', payload: { ...d, flag: true, version: 3 } })),
      { event: 'receipt-delete', payload: { receipt_id: 'd0' } },
      ...docs.slice(40, 80).map((d) => ({ event: 'receipt-update', payload: { ...d, flag: true, version: 3 } })),
    ];
    handleLiveMessages(messages, cache, 'c1');
    // review and inbox: the first 40, the delete (the searched list has it too), the next 40
    expect(writes()).toBe(2 + 3 + 2);
    const after = qc.getQueryData<ListData>(queryKeys.receiptList(review))!;
    expect(ids(after)).toEqual(docs.slice(1).map((d) => d.receipt_id));
    expect(after.pages.flatMap((p) => p.items).filter((r) => r.flag)).toHaveLength(79);
  });

  it('gathers the events of 50 ms and hands them over together', async () => {
    vi.useFakeTimers();
    const apply = vi.fn();
    const batcher = createLiveBatcher(apply, 50);
    for (let i = 0; i < 30; i++) batcher.push({ event: 'receipt-update', payload: doc(i) });
    await vi.advanceTimersByTimeAsync(49);
    expect(apply).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(apply).toHaveBeenCalledTimes(1);
    expect(apply.mock.calls[0]![0]).toHaveLength(30);
    batcher.push({ event: 'pong', payload: undefined });
    batcher.stop();
    await vi.advanceTimersByTimeAsync(100);
    expect(apply).toHaveBeenCalledTimes(1);
  });
});

describe('lists kept current by the live channel', () => {
  it('covers a list read while the channel followed its company, from the moment it opened', () => {
    let now = 1000;
    const live = createLiveCoverage(() => now);
    live.follow('c1');
    expect(live.covers('c1', 900)).toBe(false); // not open
    live.set('open');
    expect(live.covers('c1', 900)).toBe(false); // read before the channel opened: events may be missing
    expect(live.covers('c1', 1000)).toBe(true);
    expect(live.covers('c2', 1000)).toBe(false);
    // another company followed: the first one's lists miss its events from now on
    now = 2000;
    live.follow('c2');
    live.follow('c1');
    expect(live.covers('c1', 1500)).toBe(false);
    expect(live.covers('c1', 2000)).toBe(true);
    // ALL follows every company; a closed channel covers nothing
    live.follow('ALL');
    expect(live.covers('c9', 2000)).toBe(true);
    live.set('waiting');
    expect(live.covers('c9', 3000)).toBe(false);
  });
});

describe('the list scroll place for Back', () => {
  it('is kept per list address; a visit comes back to it after Back, or once after a document was opened', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    writeListScroll(storage, { address: '/receipts/inbox?q=a', anchorId: 'd990', anchorTop: 120, scrollY: 57607 });
    const entry = readListScroll(storage, '/receipts/inbox?q=a');
    expect(entry).toEqual({ address: '/receipts/inbox?q=a', anchorId: 'd990', anchorTop: 120, scrollY: 57607, opened: false });
    expect(readListScroll(storage, '/receipts/inbox')).toBeNull();
    // the browser's Back comes back to it; a new visit (the menu) starts at the top …
    expect(restoresOnVisit(entry, 'POP')).toBe(true);
    expect(restoresOnVisit(entry, 'PUSH')).toBe(false);
    // … unless a document of the list was opened (the edit screen's Back goes to the list's address)
    writeListScroll(storage, { ...entry!, opened: true });
    expect(restoresOnVisit(readListScroll(storage, '/receipts/inbox?q=a'), 'PUSH')).toBe(true);
    expect(restoresOnVisit(null, 'POP')).toBe(false);
    store.set('receipts-list-scroll:/receipts/inbox', '{not json');
    expect(readListScroll(storage, '/receipts/inbox')).toBeNull();
  });
});
