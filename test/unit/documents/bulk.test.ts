/**
 * POST /receipts/bulk's core (core/documents/bulk.ts `bulkAction`): every document gets its own checks, its own
 * transaction with its version condition, history record and counts, the answer lists the documents in the order of
 * the ids, and a refused document does not stop the others. The documents are worked on several at a time; the
 * transactions that move the same counts item are committed one after the other (DynamoDB would cancel overlapping
 * ones), the caller's name is read once and the documents in one batch.
 */
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import { BULK_CONCURRENCY, bulkAction, publishLatest } from '../../../lambdas/core/documents/bulk';
import { sumMoves } from '../../../lambdas/core/documents/sums';
import { companyScope, type DocumentChange, type DocumentRecord, type ReceiptStatus, type ReceiptType } from '../../../lambdas/core/documents/types';
import { changeStatus, type DeleteDeps } from '../../../lambdas/core/documents/workflow';
import type { LiveEvent, LiveEvents } from '../../../lambdas/core/ports';
import { seededDocument } from '../../support/document-records';
import { liveRecorder, memoryAccounts, MemoryDocuments, MemoryFiles, memoryLayouts, warningsLog } from './fakes';

/** Commits that take a while (each waits a few turns of the event loop), counting how many overlap. */
class SlowDocuments extends MemoryDocuments {
  inFlight = 0;
  maxInFlight = 0;
  /** Per counts item (scope|type): commits in flight now and at most. */
  perCounts = new Map<string, { now: number; max: number }>();
  gets = 0;
  getManys = 0;
  /** Before the commit of this document, another writer changes it (once). */
  raceOn?: string;
  /** The commit of this document throws a plain Error (an outage, not an answer). */
  failOn?: string;
  /** The next commits of these documents meet other changes (DynamoDB's TransactionConflict after the client's retries). */
  busy = new Map<string, number>();

  override async get(id: string) {
    this.gets += 1;
    return super.get(id);
  }
  override async getMany(ids: string[]) {
    this.getManys += 1;
    return super.getMany(ids);
  }
  override async commit(change: DocumentChange) {
    const id = change.updates[0]?.before.receipt_id ?? change.deletes[0]?.receipt_id;
    if (id && id === this.failOn) throw new Error('the table is not reachable');
    if (id && (this.busy.get(id) ?? 0) > 0) {
      this.busy.set(id, this.busy.get(id)! - 1);
      throw Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', busy: true });
    }
    const items = [...new Set([...change.counts, ...sumMoves(change)].map((c) => `${c.scope}|${c.receipt_type}`))];
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    for (const key of items) {
      const c = this.perCounts.get(key) ?? { now: 0, max: 0 };
      c.now += 1;
      c.max = Math.max(c.max, c.now);
      this.perCounts.set(key, c);
    }
    try {
      for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 1));
      if (id && id === this.raceOn) {
        this.raceOn = undefined;
        const doc = this.docs.get(id)!;
        this.docs.set(id, { ...doc, notes: 'written by someone else', version: doc.version + 1 });
      }
      return await super.commit(change);
    } finally {
      this.inFlight -= 1;
      for (const key of items) this.perCounts.get(key)!.now -= 1;
    }
  }
}

function setup() {
  const clock = { now: () => new Date('2024-06-01T10:00:00Z') };
  const ids = { newId: () => ulid() };
  const company = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Test', surname: 'User', email: 'u@x' }, ids, clock);
  const other = newCompanyRecord({ name: 'Other', code: '2' }, { id: 'u2', name: 'Other', surname: 'User', email: 'o@x' }, ids, clock);
  const documents = new SlowDocuments();
  const accounts = memoryAccounts(company);
  let profileReads = 0;
  const store = {
    ...accounts,
    getProfile: async (id: string) => {
      profileReads += 1;
      return accounts.getProfile(id);
    },
  };
  const live = liveRecorder();
  const deps: DeleteDeps = { documents, files: new MemoryFiles(), store, live, clock, ids, layouts: memoryLayouts(), log: warningsLog() };
  const scope = companyScope(company.company_id);
  const counts = new Map<string, number>();
  const add = (id: string, fields: { receipt_type?: ReceiptType; status?: ReceiptStatus; total?: string; company?: 'other' } = {}) => {
    const doc: DocumentRecord = seededDocument({
      receipt_id: id,
      scope: fields.company === 'other' ? companyScope(other.company_id) : scope,
      created_at: '2024-05-01T00:00:00.000Z',
      receipt_type: fields.receipt_type ?? 'receipt',
      status: fields.status ?? 'review',
      total: fields.total ?? '10.00',
      version: 2,
    });
    documents.docs.set(id, doc);
    // the counts items as the store keeps them, matching the seeded documents
    const key = `${doc.scope}|${doc.receipt_type}`;
    const item = documents.counters.get(key) ?? {};
    item[doc.status] = (item[doc.status] ?? 0) + 1;
    item.total_cents = (item.total_cents ?? 0) + Math.round(Number(doc.total) * 100);
    documents.counters.set(key, item);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  /** The counts items next to a recount of the documents (status numbers and sums of totals). */
  const recount = () => {
    const stored: Record<string, Record<string, number>> = {};
    for (const [key, item] of documents.counters) stored[key] = Object.fromEntries(Object.entries(item).filter(([, n]) => n !== 0));
    const counted: Record<string, Record<string, number>> = {};
    for (const d of documents.docs.values()) {
      const item = (counted[`${d.scope}|${d.receipt_type}`] ??= {});
      item[d.status] = (item[d.status] ?? 0) + 1;
      item.total_cents = (item.total_cents ?? 0) + Math.round(Number(d.total) * 100);
    }
    for (const key of Object.keys(stored)) if (Object.keys(stored[key]!).length === 0) delete stored[key];
    return { stored, counted };
  };
  return { deps, documents, live, add, recount, caller: { userId: 'u1', companyId: company.company_id }, profileReads: () => profileReads };
}

const statusChange = (d: DeleteDeps, c: { userId: string; companyId?: string }, id: string, s: Parameters<typeof changeStatus>[3]) => changeStatus(d, c, id, s);

describe('bulk actions', () => {
  it('answers per document in the order of the ids; refused documents do not stop the others', async () => {
    const { deps, documents, add, caller, live } = setup();
    for (let i = 0; i < 30; i++) add(`d${i}`, { status: i % 7 === 3 ? 'archive' : 'review' });
    add('foreign', { company: 'other' });
    const ids = ['d0', 'nope', ...Array.from({ length: 29 }, (_, i) => `d${i + 1}`), 'foreign', 'd0'];
    const { results } = await bulkAction(deps, caller, { action: 'flag', flag: true, receipt_ids: ids }, statusChange);
    expect(results.map((r) => r.receipt_id)).toEqual(['d0', 'nope', ...Array.from({ length: 29 }, (_, i) => `d${i + 1}`), 'foreign']);
    for (const r of results) {
      if (r.receipt_id === 'nope' || r.receipt_id === 'foreign') expect(r).toEqual({ receipt_id: r.receipt_id, ok: false, status: 404, message: 'Document not found' });
      else if (Number(r.receipt_id.slice(1)) % 7 === 3) expect(r).toMatchObject({ ok: false, status: 409 });
      else expect(r).toMatchObject({ ok: true, status: 200, receipt: { receipt_id: r.receipt_id, flag: true, version: 3 } });
    }
    const flagged = results.filter((r) => r.ok).map((r) => r.receipt_id);
    expect(flagged).toHaveLength(26);
    // one history record and one live event per flagged document, none for the others
    expect(documents.historyItems.map((h) => h.receipt_id).sort()).toEqual([...flagged].sort());
    expect(documents.historyItems.every((h) => h.name === 'Flagged' && h.user_id === 'u1' && h.user.surname === 'User')).toBe(true);
    expect(live.events.map((e) => (e.payload as { receipt_id: string }).receipt_id).sort()).toEqual([...flagged].sort());
    expect(documents.docs.get('foreign')!.flag).toBe(false);
    expect(documents.docs.get('d3')).toMatchObject({ flag: false, version: 2 });
  });

  it('works on several documents at a time, at most BULK_CONCURRENCY', async () => {
    const { deps, documents, add, caller } = setup();
    for (let i = 0; i < 40; i++) add(`d${i}`);
    const { results } = await bulkAction(deps, caller, { action: 'flag', flag: true, receipt_ids: Array.from({ length: 40 }, (_, i) => `d${i}`) }, statusChange);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(documents.maxInFlight).toBeGreaterThan(1);
    expect(documents.maxInFlight).toBeLessThanOrEqual(BULK_CONCURRENCY);
  });

  it('reads the name of the caller once and the documents in one batch', async () => {
    const { deps, documents, add, caller, profileReads } = setup();
    for (let i = 0; i < 25; i++) add(`d${i}`);
    const { results } = await bulkAction(deps, caller, { action: 'flag', flag: true, receipt_ids: Array.from({ length: 25 }, (_, i) => `d${i}`) }, statusChange);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(profileReads()).toBe(1);
    expect(documents.getManys).toBe(1);
    expect(documents.gets).toBe(0);
  });

  it('status changes and deletions move the counts of every document exactly once, equal to a recount', async () => {
    const { deps, documents, add, caller, recount } = setup();
    for (let i = 0; i < 60; i++) add(`d${i}`, { receipt_type: i % 3 === 0 ? 'invoice' : 'receipt', status: i % 10 === 9 ? 'processing' : i % 2 ? 'ready' : 'review', total: `${i}.50` });
    const ids = Array.from({ length: 60 }, (_, i) => `d${i}`);
    const archived = await bulkAction(deps, caller, { action: 'status', status: 'archive', receipt_ids: ids }, statusChange);
    expect(archived.results.map((r) => [r.receipt_id, r.ok, r.status])).toEqual(ids.map((id, i) => [id, i % 10 !== 9, i % 10 === 9 ? 409 : 200]));
    expect(documents.historyItems.filter((h) => h.name === 'Moved to archive')).toHaveLength(54);
    const afterArchive = recount();
    expect(afterArchive.stored).toEqual(afterArchive.counted);
    expect(afterArchive.stored[`${documents.docs.get('d0')!.scope}|receipt`]).toMatchObject({ archive: 36, processing: 4 });

    const deleted = await bulkAction(deps, caller, { action: 'delete', receipt_ids: ids.slice(0, 45) }, statusChange);
    expect(deleted.results.filter((r) => !r.ok).map((r) => r.receipt_id)).toEqual(['d9', 'd19', 'd29', 'd39']);
    const afterDelete = recount();
    expect(afterDelete.stored).toEqual(afterDelete.counted);
    expect(documents.docs.size).toBe(19);
  });

  it('never commits two documents that move the same counts item at the same time', async () => {
    const { deps, documents, add, caller, recount } = setup();
    for (let i = 0; i < 40; i++) add(`d${i}`, { receipt_type: i % 2 ? 'invoice' : 'receipt' });
    const { results } = await bulkAction(deps, caller, { action: 'type', receipt_type: 'invoice', receipt_ids: Array.from({ length: 40 }, (_, i) => `d${i}`) }, statusChange);
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    await bulkAction(deps, caller, { action: 'status', status: 'ready', receipt_ids: Array.from({ length: 40 }, (_, i) => `d${i}`) }, statusChange);
    expect([...documents.perCounts.values()].map((c) => c.max)).toEqual([...documents.perCounts.values()].map(() => 1));
    const { stored, counted } = recount();
    expect(stored).toEqual(counted);
  });

  it('a document written by someone else meanwhile is changed again from a fresh read, keeping the other write', async () => {
    const { deps, documents, add, caller } = setup();
    for (let i = 0; i < 10; i++) add(`d${i}`);
    documents.raceOn = 'd4';
    const { results } = await bulkAction(deps, caller, { action: 'flag', flag: true, receipt_ids: Array.from({ length: 10 }, (_, i) => `d${i}`) }, statusChange);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results[4]).toMatchObject({ receipt: { receipt_id: 'd4', flag: true, version: 4 } });
    expect(documents.docs.get('d4')).toMatchObject({ flag: true, notes: 'written by someone else', version: 4 });
    expect(documents.historyItems.filter((h) => h.receipt_id === 'd4')).toHaveLength(1);
  });

  it('an outage answers the call with its error, after the documents already begun are done', async () => {
    const { deps, documents, add, caller } = setup();
    for (let i = 0; i < 20; i++) add(`d${i}`);
    documents.failOn = 'd2';
    await expect(bulkAction(deps, caller, { action: 'flag', flag: true, receipt_ids: Array.from({ length: 20 }, (_, i) => `d${i}`) }, statusChange)).rejects.toThrow(
      'the table is not reachable',
    );
    expect(documents.inFlight).toBe(0);
    // what was committed is whole: each flagged document has its history record
    const flagged = [...documents.docs.values()].filter((d) => d.flag).map((d) => d.receipt_id).sort();
    expect(documents.historyItems.map((h) => h.receipt_id).sort()).toEqual(flagged);
  });

  it('sends the live events together once the documents are done, one per changed document', async () => {
    const { deps, add, caller } = setup();
    for (let i = 0; i < 12; i++) add(`d${i}`, { status: i === 5 ? 'archive' : 'review' });
    const batches: LiveEvent[][] = [];
    const single: string[] = [];
    const live: LiveEvents = {
      publish: async (_c, event) => void single.push(event),
      publishToUser: async (_u, event) => void single.push(event),
      publishAll: async (events) => void batches.push(events),
    };
    const { results } = await bulkAction({ ...deps, live }, caller, { action: 'flag', flag: true, receipt_ids: Array.from({ length: 12 }, (_, i) => `d${i}`) }, statusChange);
    expect(results.filter((r) => r.ok)).toHaveLength(11);
    expect(single).toEqual([]);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((e) => (e.payload as { receipt_id: string }).receipt_id).sort()).toEqual(results.filter((r) => r.ok).map((r) => r.receipt_id).sort());
    expect(batches[0]!.every((e) => e.event === 'receipt-update' && 'companyId' in e && e.companyId === caller.companyId)).toBe(true);
  });

  it('a document with several events in one call gets only its last state, or its deletion', async () => {
    const sent: LiveEvent[] = [];
    const live: LiveEvents = { publish: async () => undefined, publishToUser: async () => undefined, publishAll: async (events) => void sent.push(...events) };
    await publishLatest(live, [
      { companyId: 'c1', event: 'receipt-update', payload: { receipt_id: 'a', version: 3 } },
      { companyId: 'c1', event: 'receipt-delete', payload: { receipt_id: 'a' } },
      { companyId: 'c1', event: 'receipt-update', payload: { receipt_id: 'b', version: 4 } },
      { companyId: 'c1', event: 'receipt-update', payload: { receipt_id: 'b', version: 3 } },
      { userId: 'u1', event: 'receipt-update', payload: { receipt_id: 'b', version: 2 } },
      { companyId: 'c1', event: 'company', payload: { company_id: 'c1' } },
    ]);
    expect(sent).toEqual([
      { companyId: 'c1', event: 'receipt-delete', payload: { receipt_id: 'a' } },
      { companyId: 'c1', event: 'receipt-update', payload: { receipt_id: 'b', version: 4 } },
      { userId: 'u1', event: 'receipt-update', payload: { receipt_id: 'b', version: 2 } },
      { companyId: 'c1', event: 'company', payload: { company_id: 'c1' } },
    ]);
  });

  it('a document whose transaction keeps meeting other changes is tried again, then answered 503 on its own', async () => {
    const { deps, documents, add, caller, recount } = setup();
    for (let i = 0; i < 10; i++) add(`d${i}`, { receipt_type: i % 2 ? 'invoice' : 'receipt' });
    documents.busy.set('d3', 99);
    documents.busy.set('d6', 2);
    const pauses: number[] = [];
    const { results } = await bulkAction(deps, caller, { action: 'status', status: 'archive', receipt_ids: Array.from({ length: 10 }, (_, i) => `d${i}`) }, statusChange, {
      isBusy: (error) => (error as { busy?: boolean }).busy === true,
      pause: async (round) => void pauses.push(round),
    });
    expect(results.map((r) => [r.receipt_id, r.ok, r.status])).toEqual(Array.from({ length: 10 }, (_, i) => [`d${i}`, i !== 3, i === 3 ? 503 : 200]));
    expect(results[3]).toEqual({ receipt_id: 'd3', ok: false, status: 503, message: 'Too many changes at once. Try again.' });
    expect(pauses.sort()).toEqual([1, 1, 2, 2]);
    expect(documents.docs.get('d3')).toMatchObject({ status: 'review', version: 2 });
    expect(documents.docs.get('d6')).toMatchObject({ status: 'archive', version: 3 });
    expect(documents.historyItems.filter((h) => h.receipt_id === 'd6')).toHaveLength(1);
    const { stored, counted } = recount();
    expect(stored).toEqual(counted);
  });
});
