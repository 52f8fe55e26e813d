import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Company } from '../../../shared/schemas/company';
import { handleLiveMessage } from '../../../web/src/features/live/components/LiveChannel';
import {
  applyCompanyDelete,
  applyCompanyEvent,
  applyMembershipEvent,
  applyDeleteToList,
  applyReceiptToList,
  prependReceipt,
  receiptIdOfPayload,
  receiptMatchesList,
  receiptOfPayload,
  type ListData,
} from '../../../web/src/features/live/lib/cache-updates';
import { processedAnnouncement } from '../../../web/src/features/live/lib/announce';
import { UPLOAD_WATCH_MS, receiptCache, settledUploads } from '../../../web/src/features/live/use-receipt-cache';
import { queryKeys } from '../../../web/src/lib/query-keys';
import { data, list, receipt } from './receipt-fixture';

const ids = (d: ListData | undefined) => d?.pages.flatMap((p) => p.items.map((r) => r.receipt_id));

describe('which cached lists a document belongs to', () => {
  it('checks company, status and type', () => {
    expect(receiptMatchesList(receipt({ status: 'review' }), list('review'))).toBe(true);
    expect(receiptMatchesList(receipt({ status: 'ready' }), list('review'))).toBe(false);
    expect(receiptMatchesList(receipt({ company_id: 'c2' }), list('review'))).toBe(false);
    expect(receiptMatchesList(receipt({ company_id: 'c2' }), list('review', { scope: 'ALL' }))).toBe(true);
    expect(receiptMatchesList(receipt({ receipt_type: 'invoice' }), list('review', { receipt_type: 'receipt' }))).toBe(false);
  });

  it('the inbox has every status except unassigned', () => {
    expect(receiptMatchesList(receipt({ status: 'processing' }), list('inbox'))).toBe(true);
    expect(receiptMatchesList(receipt({ status: 'archive' }), list('inbox'))).toBe(true);
    expect(receiptMatchesList(receipt({ status: 'unassigned' }), list('inbox'))).toBe(false);
  });

  it('Unassigned has the documents waiting for a company; while read or failed they are in the all-companies lists by status, never a company\'s', () => {
    expect(receiptMatchesList(receipt({ company_id: null, status: 'unassigned' }), list('unassigned'))).toBe(true);
    expect(receiptMatchesList(receipt({ company_id: null, status: 'processing' }), list('unassigned'))).toBe(false);
    expect(receiptMatchesList(receipt({ company_id: 'c1', status: 'review' }), list('unassigned'))).toBe(false);
    expect(receiptMatchesList(receipt({ company_id: null, status: 'processing' }), list('processing', { scope: 'ALL' }))).toBe(true);
    expect(receiptMatchesList(receipt({ company_id: null, status: 'failed' }), list('failed', { scope: 'ALL' }))).toBe(true);
    expect(receiptMatchesList(receipt({ company_id: null, status: 'failed' }), list('inbox', { scope: 'ALL' }))).toBe(true);
    expect(receiptMatchesList(receipt({ company_id: null, status: 'unassigned' }), list('inbox', { scope: 'ALL' }))).toBe(false);
    expect(receiptMatchesList(receipt({ company_id: null, status: 'processing' }), list('processing'))).toBe(false);
    expect(receiptMatchesList(receipt({ company_id: null, status: 'unassigned' }), list('unassigned', { search: 'x' }))).toBe('unknown');
  });

  it("leaves search, dates and duplicates to the server ('unknown')", () => {
    expect(receiptMatchesList(receipt(), list('review', { search: 'max' }))).toBe('unknown');
    expect(receiptMatchesList(receipt(), list('review', { from: '2024-01-01' }))).toBe('unknown');
    expect(receiptMatchesList(receipt(), list('review', { duplicates: true }))).toBe('unknown');
    // but a status that does not match is still known
    expect(receiptMatchesList(receipt({ status: 'ready' }), list('review', { search: 'max' }))).toBe(false);
  });
});

describe('receipt events on one list', () => {
  it('adds a new matching document at the top (receipt)', () => {
    const before = data([receipt({ receipt_id: 'a', status: 'processing' })], [receipt({ receipt_id: 'b', status: 'processing' })]);
    const r = applyReceiptToList(before, list('processing'), receipt({ receipt_id: 'new', status: 'processing' }));
    expect(r.kind).toBe('set');
    expect(ids(r.kind === 'set' ? r.data : undefined)).toEqual(['new', 'a', 'b']);
    expect(before.pages[0]!.items).toHaveLength(1);
  });

  it('an update of an unknown receipt adds it (receipt-update)', () => {
    const r = applyReceiptToList(data([]), list('review'), receipt({ receipt_id: 'x', status: 'review' }));
    expect(r.kind === 'set' && ids(r.data)).toEqual(['x']);
  });

  it('updates a known document in place', () => {
    const before = data([receipt({ receipt_id: 'a' }), receipt({ receipt_id: 'b', total: '1.00' })]);
    const r = applyReceiptToList(before, list('review'), receipt({ receipt_id: 'b', total: '9.99' }));
    expect(r.kind === 'set' && r.data.pages[0]!.items[1]!.total).toBe('9.99');
    expect(r.kind === 'set' && ids(r.data)).toEqual(['a', 'b']);
  });

  it('removes a document that moved to another status (processing → review)', () => {
    const before = data([receipt({ receipt_id: 'a', status: 'processing' })]);
    const r = applyReceiptToList(before, list('processing'), receipt({ receipt_id: 'a', status: 'review' }));
    expect(r.kind === 'set' && ids(r.data)).toEqual([]);
    expect(applyReceiptToList(data([]), list('processing'), receipt({ receipt_id: 'z', status: 'review' }))).toEqual({ kind: 'none' });
  });

  it('drops an older state that arrives after a newer one (an HTTP answer overtaken by a live event)', () => {
    const before = data([receipt({ receipt_id: 'a', status: 'failed', version: 4, can_be_restarted: true })]);
    expect(applyReceiptToList(before, list('inbox'), receipt({ receipt_id: 'a', status: 'processing', version: 3 }))).toEqual({ kind: 'none' });
    const newer = applyReceiptToList(before, list('inbox'), receipt({ receipt_id: 'a', status: 'review', version: 5 }));
    expect(newer.kind === 'set' && newer.data.pages[0]!.items[0]!.status).toBe('review');
    // nor does a late answer take a document out of a list it has already moved into
    const failedList = data([receipt({ receipt_id: 'a', status: 'failed', version: 4 })]);
    expect(applyReceiptToList(failedList, list('failed'), receipt({ receipt_id: 'a', status: 'processing', version: 3 }))).toEqual({ kind: 'none' });
  });

  it('refetches a filtered list it cannot decide, and ignores lists not loaded', () => {
    expect(applyReceiptToList(data([]), list('review', { search: 'x' }), receipt())).toEqual({ kind: 'invalidate' });
    expect(applyReceiptToList(undefined, list('review'), receipt())).toEqual({ kind: 'none' });
  });

  it('receipt-delete removes the document from every page', () => {
    const before = data([receipt({ receipt_id: 'a' })], [receipt({ receipt_id: 'b' })]);
    const r = applyDeleteToList(before, 'b');
    expect(r.kind === 'set' && ids(r.data)).toEqual(['a']);
    expect(applyDeleteToList(before, 'zz')).toEqual({ kind: 'none' });
  });

  it('prepends into an empty cache', () => {
    expect(ids(prependReceipt({ pages: [], pageParams: [] }, receipt({ receipt_id: 'q' })))).toEqual(['q']);
  });
});

describe('event payloads', () => {
  it('reads a document or its id', () => {
    expect(receiptOfPayload(receipt())?.receipt_id).toBe('r1');
    expect(receiptOfPayload({ receipt: receipt({ receipt_id: 'n' }) })?.receipt_id).toBe('n');
    expect(receiptOfPayload({ receipt_id: 'x' })).toBeNull();
    expect(receiptIdOfPayload({ receipt_id: 'x', company_id: 'c1' })).toBe('x');
    expect(receiptIdOfPayload('y')).toBe('y');
    expect(receiptIdOfPayload({})).toBeNull();
  });
});

const company = (id: string, over: Partial<Company> = {}) => ({ company_id: id, name: id.toUpperCase(), role: 'admin', counts: {}, ...over }) as Company;

describe('company events', () => {
  it('merges a company update; an unknown company is refetched (its role is the server list\'s to say)', () => {
    const before = [company('c1'), company('c2')];
    const r = applyCompanyEvent(before, { company_id: 'c2', name: 'Renamed' });
    expect(r.kind === 'set' && r.data.map((c) => c.name)).toEqual(['C1', 'Renamed']);
    expect(applyCompanyEvent(before, company('c3'))).toEqual({ kind: 'invalidate' });
    expect(applyCompanyEvent(before, { company_id: 'c9' })).toEqual({ kind: 'invalidate' });
  });

  it("keeps the user's own role: a basic member stays basic after a company event that names an admin role", () => {
    // Prepare: a basic member's cached companies; the event is a whole company view as an admin saw it
    const before = [company('c1', { role: 'basic' }), company('c2', { role: 'admin' })];
    const adminView = company('c1', { name: 'Switched', role: 'admin', ftp_export: true });
    // Act
    const r = applyCompanyEvent(before, adminView);
    const nested = applyCompanyEvent(before, { company: { company_id: 'c1', role: 'admin', vat_account: '2410' } });
    // Assess: the shared fields are taken, the role is the cached one
    expect(r.kind).toBe('set');
    expect(r.kind === 'set' && r.data[0]).toMatchObject({ company_id: 'c1', name: 'Switched', ftp_export: true, role: 'basic' });
    expect(r.kind === 'set' && r.data[1]!.role).toBe('admin');
    expect(nested.kind === 'set' && nested.data[0]).toMatchObject({ vat_account: '2410', role: 'basic' });
  });

  it("membership, on the user's own channel, sets their role in that company; anything else refetches", () => {
    const before = [company('c1', { role: 'admin' }), company('c2', { role: 'basic' })];
    const demoted = applyMembershipEvent(before, { company_id: 'c1', role: 'basic' });
    expect(demoted.kind === 'set' && demoted.data.map((c) => c.role)).toEqual(['basic', 'basic']);
    const promoted = applyMembershipEvent(before, { company_id: 'c2', role: 'admin' });
    expect(promoted.kind === 'set' && promoted.data.map((c) => c.role)).toEqual(['admin', 'admin']);
    expect(applyMembershipEvent(before, { company_id: 'c9', role: 'admin' })).toEqual({ kind: 'invalidate' });
    expect(applyMembershipEvent(before, { company_id: 'c1', role: 'owner' })).toEqual({ kind: 'invalidate' });
    expect(applyMembershipEvent(undefined, { company_id: 'c1', role: 'basic' })).toEqual({ kind: 'none' });
  });

  it('company-delete removes a company other than the active one', () => {
    const before = [company('c1'), company('c2')];
    const r = applyCompanyDelete(before, { company_id: 'c2' }, 'c1');
    expect(r.kind === 'set' && r.data.map((c) => c.company_id)).toEqual(['c1']);
    expect(applyCompanyDelete(before, { company_id: 'c1' }, 'c1')).toEqual({ kind: 'invalidate' });
    expect(applyCompanyDelete(before, { company_id: 'zz' }, 'c1')).toEqual({ kind: 'none' });
  });
});

describe('live events on the query cache', () => {
  function setup() {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const processing = list('processing');
    const review = list('review');
    const searched = list('review', { search: 'maxima' });
    qc.setQueryData(queryKeys.receiptList(processing), data([receipt({ receipt_id: 'a', status: 'processing' })]));
    qc.setQueryData(queryKeys.receiptList(review), data([receipt({ receipt_id: 'old', status: 'review' })]));
    qc.setQueryData(queryKeys.receiptList(searched), data([]));
    qc.setQueryData(queryKeys.companies, [company('c1'), company('c2')]);
    return { qc, cache: receiptCache(qc), processing, review, searched };
  }

  it('a processed document leaves In Processing, enters To Review, filtered lists go stale', () => {
    const { qc, cache, processing, review, searched } = setup();
    handleLiveMessage({ event: 'receipt-update', payload: receipt({ receipt_id: 'a', status: 'review' }) }, cache, 'c1');
    expect(ids(qc.getQueryData(queryKeys.receiptList(processing)))).toEqual([]);
    expect(ids(qc.getQueryData(queryKeys.receiptList(review)))).toEqual(['a', 'old']);
    expect(qc.getQueryState(queryKeys.receiptList(searched))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(queryKeys.receiptList(review))?.isInvalidated).toBe(false);
  });

  it('tells a screen reader which documents it saw being read are done, by name or by count per list', () => {
    const { cache } = setup();
    const before = cache.cachedStatuses(['a', 'old', 'unseen']);
    expect([...before]).toEqual([
      ['a', 'processing'],
      ['old', 'review'],
    ]);
    const a = receipt({ receipt_id: 'a', status: 'review', original_file_name: 'maxima.jpg' });
    expect(processedAnnouncement([a], before)).toBe('maxima.jpg processed: To Review');
    // A document not seen being read, or one still being read, is not told.
    expect(processedAnnouncement([receipt({ receipt_id: 'old', status: 'ready' }), receipt({ receipt_id: 'unseen', status: 'ready' })], before)).toBeNull();
    expect(processedAnnouncement([receipt({ receipt_id: 'a', status: 'processing' })], before)).toBeNull();
    const many = new Map([
      ['x', 'processing'],
      ['y', 'processing'],
      ['z', 'converting'],
    ]);
    const done = [receipt({ receipt_id: 'x', status: 'review' }), receipt({ receipt_id: 'y', status: 'failed' }), receipt({ receipt_id: 'z', status: 'review' })];
    expect(processedAnnouncement(done, many)).toBe('3 documents processed: 2 To Review, 1 Failed');
  });

  it("the tab's own delete keeps the detail its screen shows, also when the live channel echoes it; a colleague's delete drops it", () => {
    const { qc, cache, review } = setup();
    const detail = (id: string) => queryKeys.receipt(id, 'c1');
    qc.setQueryData(detail('old'), receipt({ receipt_id: 'old', status: 'review' }));
    qc.setQueryData(detail('other'), receipt({ receipt_id: 'other', status: 'review' }));
    cache.applyDelete('old', { keepDetail: true });
    expect(ids(qc.getQueryData(queryKeys.receiptList(review)))).toEqual([]);
    handleLiveMessage({ event: 'receipt-delete', payload: { receipt_id: 'old' } }, cache, 'c1');
    expect(qc.getQueryData(detail('old'))).toBeDefined();
    handleLiveMessage({ event: 'receipt-delete', payload: { receipt_id: 'other' } }, cache, 'c1');
    expect(qc.getQueryData(detail('other'))).toBeUndefined();
  });

  it("another company's deletion reads the lists and counts again (the all-companies view held its documents)", () => {
    const { qc, cache, review } = setup();
    handleLiveMessage({ event: 'company-delete', payload: { company_id: 'c2' } }, cache, 'c1');
    expect(qc.getQueryData<Array<{ company_id: string }>>(queryKeys.companies)?.map((c) => c.company_id)).toEqual(['c1']);
    expect(qc.getQueryState(queryKeys.receiptList(review))?.isInvalidated).toBe(true);
    // a company the user never had changes nothing
    const fresh = setup();
    handleLiveMessage({ event: 'company-delete', payload: { company_id: 'zz' } }, fresh.cache, 'c1');
    expect(fresh.qc.getQueryState(queryKeys.receiptList(fresh.review))?.isInvalidated).toBe(false);
  });

  it('a late older state of a document changes no list', () => {
    const { qc, cache, processing, review } = setup();
    handleLiveMessage({ event: 'receipt-update', payload: receipt({ receipt_id: 'a', status: 'review', version: 3 }) }, cache, 'c1');
    // the answer of the call that started processing arrives after the live event
    cache.applyReceipt(receipt({ receipt_id: 'a', status: 'processing', version: 2 }));
    expect(ids(qc.getQueryData(queryKeys.receiptList(processing)))).toEqual([]);
    expect(ids(qc.getQueryData(queryKeys.receiptList(review)))).toEqual(['a', 'old']);
  });

  it('receipt-delete removes it everywhere', () => {
    const { qc, cache, review } = setup();
    handleLiveMessage({ event: 'receipt-delete', payload: { receipt_id: 'old', company_id: 'c1' } }, cache, 'c1');
    expect(ids(qc.getQueryData(queryKeys.receiptList(review)))).toEqual([]);
  });

  it('a company event never makes a basic member an admin on screen', () => {
    const { qc, cache } = setup();
    qc.setQueryData(queryKeys.companies, [company('c1', { role: 'basic' }), company('c2')]);
    handleLiveMessage({ event: 'company', payload: company('c1', { name: 'Renamed', role: 'admin' }) }, cache, 'c1');
    expect(qc.getQueryData<Company[]>(queryKeys.companies)?.[0]).toMatchObject({ name: 'Renamed', role: 'basic' });
  });

  it('company-delete of another company removes it from the companies', () => {
    const { qc, cache } = setup();
    handleLiveMessage({ event: 'company-delete', payload: { company_id: 'c2' } }, cache, 'c1');
    expect(qc.getQueryData<Company[]>(queryKeys.companies)?.map((c) => c.company_id)).toEqual(['c1']);
  });

  it('ignores pong and unknown events', () => {
    const { qc, cache, review } = setup();
    const before = qc.getQueryData(queryKeys.receiptList(review));
    handleLiveMessage({ event: 'pong', payload: undefined }, cache, 'c1');
    expect(qc.getQueryData(queryKeys.receiptList(review))).toBe(before);
  });
});

describe('watching uploads without a company (no live events)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('knows which uploads are listed and processed', () => {
    const d = data([receipt({ receipt_id: 'a', upload_id: 'u1', status: 'unassigned' }), receipt({ receipt_id: 'b', upload_id: 'u2', status: 'processing' })]);
    expect(settledUploads([d, undefined], new Set(['u1', 'u2', 'u3']))).toEqual(new Set(['u1']));
  });

  it('reloads the lists every few seconds until the documents are there', async () => {
    vi.useFakeTimers();
    const qc = new QueryClient();
    const key = queryKeys.receiptList(list('unassigned', { scope: 'ALL' }));
    qc.setQueryData(key, data([]));
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    receiptCache(qc).watchUploads(['u1']);
    await vi.advanceTimersByTimeAsync(UPLOAD_WATCH_MS);
    expect(invalidate).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(UPLOAD_WATCH_MS);
    expect(invalidate).toHaveBeenCalledTimes(2);
    qc.setQueryData(key, data([receipt({ receipt_id: 'a', company_id: null, upload_id: 'u1', status: 'unassigned' })]));
    await vi.advanceTimersByTimeAsync(UPLOAD_WATCH_MS * 3);
    expect(invalidate).toHaveBeenCalledTimes(2);
  });
});
