/**
 * The sweeper of documents stuck in processing (core/documents/stuck.ts): company documents and unassigned
 * documents of the all-companies view (the uploader's own scope `U#<userId>`) in processing for longer than the
 * bound end failed and can be restarted; only scopes whose counts show documents in processing are read.
 */
import { describe, expect, it } from 'vitest';
import type { CompanyRecord, MembershipRecord } from '../../../lambdas/core/accounts/types';
import type { StreamSpec } from '../../../lambdas/core/documents/list';
import { FAILED_MESSAGE } from '../../../lambdas/core/documents/processing';
import { countMove } from '../../../lambdas/core/documents/status-machine';
import { sweepStuckDocuments, type SweepDeps } from '../../../lambdas/core/documents/stuck';
import { companyScope, emptyChange, userScope, type DocumentRecord, type ReceiptStatus, type ScopeKey } from '../../../lambdas/core/documents/types';
import { seededDocument } from '../../support/document-records';
import { liveRecorder, MemoryDocuments } from './fakes';

const BOUND = 60 * 60_000;
const NOW = new Date('2026-03-01T12:00:00.000Z');
const LONG_AGO = new Date(NOW.getTime() - BOUND - 60_000).toISOString();
const RECENTLY = new Date(NOW.getTime() - 60_000).toISOString();

/** The store with its counts, as the processing job leaves it. */
async function seed(store: MemoryDocuments, docs: { id: string; scope: ScopeKey; status?: ReceiptStatus; at: string; type?: 'receipt' | 'invoice' }[]) {
  for (const d of docs) {
    const doc: DocumentRecord = seededDocument({
      receipt_id: d.id,
      scope: d.scope,
      created_at: d.at,
      status: d.status ?? 'processing',
      receipt_type: d.type ?? 'receipt',
      user_id: d.scope.startsWith('U#') ? d.scope.slice(2) : 'member',
    });
    const change = emptyChange();
    change.puts.push(doc);
    change.counts.push(...countMove(null, doc));
    await store.commit(change);
  }
}

function company(id: string): CompanyRecord {
  return { company_id: id } as CompanyRecord;
}

function sweeper(store: MemoryDocuments, companies: string[], members: Record<string, string[]>) {
  const live = liveRecorder();
  const reads: string[] = [];
  const read = store.read.bind(store);
  store.read = async (stream: StreamSpec, ...rest: unknown[]) => {
    reads.push(stream.by === 'type-status' ? `${stream.scope}|${stream.receipt_type}|${stream.status}` : stream.scope);
    return (read as (s: StreamSpec, ...r: unknown[]) => ReturnType<MemoryDocuments['read']>)(stream, ...rest);
  };
  const deps: SweepDeps = {
    documents: store,
    live,
    clock: { now: () => NOW },
    ids: { newId: (() => { let n = 0; return () => `h${++n}`; })() },
    log: { info: () => undefined, warn: () => undefined },
    listCompanies: async (limit, next) => {
      const start = next ? Number(next) : 0;
      const items = companies.slice(start, start + limit).map(company);
      return { items, next: start + limit < companies.length ? String(start + limit) : null };
    },
    listMembers: async (companyId) => {
      return (members[companyId] ?? []).map((user_id): MembershipRecord => ({ user_id, company_id: companyId, role: 'admin', joined_at: LONG_AGO }));
    },
  };
  return { deps, live, reads };
}

describe('sweepStuckDocuments', () => {
  it('fails an unassigned document of the all-companies view in processing for longer than the bound, and tells its owner', async () => {
    const store = new MemoryDocuments();
    await seed(store, [{ id: 'loose', scope: userScope('u1'), at: LONG_AGO }]);
    const { deps, live } = sweeper(store, ['c1'], { c1: ['u1'] });

    expect(await sweepStuckDocuments(deps, BOUND)).toEqual(['loose']);

    expect(store.docs.get('loose')).toMatchObject({ status: 'failed', can_be_restarted: true, error_message: FAILED_MESSAGE, scope: 'U#u1' });
    expect((await store.counts(userScope('u1'))).receipt).toMatchObject({ processing: 0, failed: 1 });
    expect(live.events).toEqual([{ companyId: 'user:u1', event: 'receipt-update', payload: expect.objectContaining({ receipt_id: 'loose', status: 'failed' }) }]);
  });

  it('leaves unassigned documents in processing for less than the bound, and those in other statuses', async () => {
    const store = new MemoryDocuments();
    await seed(store, [
      { id: 'fresh', scope: userScope('u1'), at: RECENTLY },
      { id: 'done', scope: userScope('u1'), at: LONG_AGO, status: 'unassigned' },
    ]);
    const { deps, live } = sweeper(store, ['c1'], { c1: ['u1'] });

    expect(await sweepStuckDocuments(deps, BOUND)).toEqual([]);

    expect(store.docs.get('fresh')!.status).toBe('processing');
    expect(store.docs.get('done')!.status).toBe('unassigned');
    expect(live.events).toEqual([]);
  });

  it('fails company and unassigned documents of every type, each user once however many companies they belong to', async () => {
    const store = new MemoryDocuments();
    await seed(store, [
      { id: 'company-doc', scope: companyScope('c2'), at: LONG_AGO, type: 'invoice' },
      { id: 'loose-receipt', scope: userScope('u1'), at: LONG_AGO },
      { id: 'loose-invoice', scope: userScope('u2'), at: LONG_AGO, type: 'invoice' },
    ]);
    // Three companies over two pages of the companies list (PAGE is 100): u1 is a member of all three.
    const many = Array.from({ length: 101 }, (_, i) => `x${i}`);
    const companies = ['c1', 'c2', ...many];
    const members: Record<string, string[]> = { c1: ['u1', 'u2'], c2: ['u1'], x100: ['u1'] };
    const { deps, reads } = sweeper(store, companies, members);

    const failed = await sweepStuckDocuments(deps, BOUND);

    expect(failed.sort()).toEqual(['company-doc', 'loose-invoice', 'loose-receipt']);
    expect(store.docs.get('company-doc')!.status).toBe('failed');
    // Only the scopes whose counts show documents in processing are read, each once.
    expect(reads.sort()).toEqual(['C#c2|invoice|processing', 'U#u1|receipt|processing', 'U#u2|invoice|processing']);
  });

  it('reads no documents when no counts show documents in processing', async () => {
    const store = new MemoryDocuments();
    await seed(store, [
      { id: 'a', scope: companyScope('c1'), at: LONG_AGO, status: 'review' },
      { id: 'b', scope: userScope('u1'), at: LONG_AGO, status: 'failed' },
    ]);
    const { deps, reads } = sweeper(store, ['c1'], { c1: ['u1'] });

    expect(await sweepStuckDocuments(deps, BOUND)).toEqual([]);

    expect(reads).toEqual([]);
  });
});
