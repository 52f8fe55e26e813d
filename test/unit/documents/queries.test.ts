import { describe, expect, it } from 'vitest';
import type { CompanyRecord } from '../../../lambdas/core/accounts/types';
import { countMove } from '../../../lambdas/core/documents/status-machine';
import { emptyChange, type DocumentRecord, type ReceiptStatus, type ReceiptType, type ScopeKey } from '../../../lambdas/core/documents/types';
import { sortKeyOf, type StreamReader } from '../../../lambdas/core/documents/list';
import { listDocuments, totalDocuments } from '../../../lambdas/core/documents/queries';
import type { AccountsStore } from '../../../lambdas/core/ports';
import { listReceiptsQuerySchema } from '../../../shared/schemas/receipts';
import { seededDocument } from '../../support/document-records';
import { memoryAccounts, MemoryDocuments } from './fakes';

const ME = 'user-1';
const OWN: ScopeKey = `U#${ME}`;

/** The caller is a member of two companies, a and b. */
function accountsOfTwo(): AccountsStore {
  const base = memoryAccounts({ company_id: 'a' } as CompanyRecord);
  return {
    ...base,
    getMembership: async (userId, companyId) => (['a', 'b'].includes(companyId) ? { user_id: userId, company_id: companyId, role: 'admin', joined_at: '' } : undefined),
    listMembershipsOfUser: async (userId) => ['a', 'b'].map((company_id) => ({ user_id: userId, company_id, role: 'admin' as const, joined_at: '' })),
  };
}

let seq = 0;
/** Documents written as the app writes them: one commit each, with its count. */
async function write(documents: MemoryDocuments, scope: ScopeKey, status: ReceiptStatus, receipt_type: ReceiptType = 'receipt'): Promise<DocumentRecord> {
  seq += 1;
  const doc = seededDocument({ receipt_id: `D${String(seq).padStart(6, '0')}`, scope, created_at: new Date(Date.UTC(2026, 10, 1, 0, seq)).toISOString(), status, receipt_type });
  const change = emptyChange();
  change.puts.push(doc);
  change.counts.push(...countMove(null, doc));
  await documents.commit(change);
  return doc;
}

async function seeded() {
  const documents = new MemoryDocuments();
  // The caller's uploads of the all-companies view: two still being read, one broken, one waiting for a company.
  await write(documents, OWN, 'processing');
  await write(documents, OWN, 'processing', 'invoice');
  await write(documents, OWN, 'failed');
  await write(documents, OWN, 'unassigned', 'invoice');
  await write(documents, 'C#a', 'processing');
  await write(documents, 'C#a', 'review');
  await write(documents, 'C#b', 'failed', 'invoice');
  // Another user's uploads never count for the caller.
  await write(documents, 'U#user-2', 'processing');
  await write(documents, 'U#user-2', 'unassigned');
  return { documents, store: accountsOfTwo() };
}

const caller = (companyId?: string) => ({ userId: ME, ...(companyId ? { companyId } : {}) });
const sum = (counts: Record<ReceiptType, Record<string, number>>, status: string) => counts.receipt[status]! + counts.invoice[status]!;

describe('counts and lists of the all-companies view with the caller\'s own uploads', () => {
  it('counts the uploads in their own status in the all-companies view, and only those waiting for a company as unassigned', async () => {
    const deps = await seeded();
    const all = await totalDocuments(deps, caller(), { selected: 'ALL' });
    expect(sum(all, 'processing')).toBe(3);
    expect(sum(all, 'failed')).toBe(2);
    expect(sum(all, 'review')).toBe(1);
    expect(sum(all, 'unassigned')).toBe(1);
    expect(all.invoice.unassigned).toBe(1);
    // company_id NONE is the same view
    expect(await totalDocuments(deps, caller(), { company_id: 'NONE' })).toEqual(all);

    // One company: that company's counts; under unassigned the documents waiting for a company (the Unassigned list).
    const one = await totalDocuments(deps, caller('a'), { company_id: 'a' });
    expect(sum(one, 'processing')).toBe(1);
    expect(sum(one, 'failed')).toBe(0);
    expect(sum(one, 'unassigned')).toBe(1);
  });

  it('lists the uploads under their status in the all-companies view, and only those waiting for a company under Unassigned', async () => {
    const deps = await seeded();
    const list = async (query: Record<string, string>, companyId?: string) =>
      (await listDocuments(deps, caller(companyId), listReceiptsQuerySchema.parse(query))).items.map((d) => `${d.company_id ?? 'none'}:${d.status}`).sort();
    expect(await list({ selected: 'ALL', receipt_status: 'processing' })).toEqual(['a:processing', 'none:processing', 'none:processing']);
    expect(await list({ selected: 'ALL', receipt_status: 'failed' })).toEqual(['b:failed', 'none:failed']);
    expect(await list({ company_id: 'NONE', receipt_status: 'unassigned' })).toEqual(['none:unassigned']);
    expect(await list({ company_id: 'a', receipt_status: 'unassigned' }, 'a')).toEqual(['none:unassigned']);
    // The inbox leaves out documents waiting for a company, as its count does.
    expect(await list({ selected: 'ALL' })).toEqual(['a:processing', 'a:review', 'b:failed', 'none:failed', 'none:processing', 'none:processing']);
    // One company's lists stay that company's.
    expect(await list({ company_id: 'a', receipt_status: 'processing' }, 'a')).toEqual(['a:processing']);
  });
});

/** The caller is a member of `n` companies (k00, k01, …). */
function accountsOfMany(n: number): AccountsStore {
  const ids = Array.from({ length: n }, (_, i) => `k${String(i).padStart(2, '0')}`);
  const base = memoryAccounts({ company_id: 'k00' } as CompanyRecord);
  return {
    ...base,
    getMembership: async (userId, companyId) => (ids.includes(companyId) ? { user_id: userId, company_id: companyId, role: 'admin', joined_at: '' } : undefined),
    // in no particular order: the view sorts them
    listMembershipsOfUser: async (userId) => [...ids].reverse().map((company_id) => ({ user_id: userId, company_id, role: 'admin' as const, joined_at: '' })),
  };
}

/**
 * The store with its calls counted by method, and its list reads as the table answers them: within the key bounds,
 * at most `limit` items a read, with a continuation (the memory store answers every read with the whole partition).
 */
function counted(documents: MemoryDocuments) {
  const calls: Record<string, number> = {};
  const read: StreamReader['read'] = async (spec, opts) => {
    const all = (await documents.read(spec)).items.filter((d) => (!opts.lower || sortKeyOf(d) >= opts.lower) && (!opts.upper || sortKeyOf(d) <= opts.upper));
    const start = (opts.continuation as number | undefined) ?? 0;
    const items = all.slice(start, start + opts.limit);
    const more = start + items.length < all.length;
    return { items, continuation: more ? start + items.length : undefined, reachedKey: more ? sortKeyOf(items.at(-1)!) : undefined };
  };
  const proxy = new Proxy(documents, {
    get(target, prop, receiver) {
      const value = prop === 'read' ? read : Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[String(prop)] = (calls[String(prop)] ?? 0) + 1;
        return value.apply(target, args);
      };
    },
  });
  return { proxy, calls };
}

describe('the all-companies view of a member of many companies', () => {
  async function firm() {
    const documents = new MemoryDocuments();
    const statuses: ReceiptStatus[] = ['review', 'ready', 'archive', 'failed', 'processing'];
    for (let c = 0; c < 30; c++) for (let i = 0; i < 4; i++) await write(documents, `C#k${String(c).padStart(2, '0')}`, statuses[(c + i) % statuses.length]!, i % 2 ? 'invoice' : 'receipt');
    // two companies with documents being saved, far down the list
    await write(documents, 'C#k21', 'saving');
    await write(documents, 'C#k27', 'saving', 'invoice');
    await write(documents, 'C#k27', 'saving');
    await write(documents, OWN, 'processing');
    await write(documents, OWN, 'unassigned', 'invoice');
    await write(documents, 'U#user-2', 'saving');
    return documents;
  }

  it('lists a status held by few companies in one page, and an empty status without a next', async () => {
    const documents = await firm();
    const { proxy, calls } = counted(documents);
    const deps = { documents: proxy, store: accountsOfMany(30) };
    const saving = await listDocuments(deps, caller(), listReceiptsQuerySchema.parse({ selected: 'ALL', receipt_status: 'saving' }));
    // newest first across companies
    expect(saving.items.map((d) => `${d.company_id}:${d.status}`)).toEqual(['k27:saving', 'k27:saving', 'k21:saving']);
    expect(saving.next).toBeNull();
    expect(saving.next_company).toBeNull();
    // two companies of two streams each
    expect(calls.read).toBe(4);
    // a date range narrows within the companies that hold the type and status
    const range = await listDocuments(
      deps,
      caller(),
      listReceiptsQuerySchema.parse({ selected: 'ALL', receipt_status: 'saving', receipt_type: 'invoice', created_at_after: '2026-11-01', created_at_before: '2026-11-30' }),
    );
    expect(range.items.map((d) => `${d.company_id}:${d.receipt_type}:${d.status}`)).toEqual(['k27:invoice:saving']);
    expect(range.next).toBeNull();
    // no company holds a rejected document: no read, no next ("No documents found")
    calls.read = 0;
    const none = await listDocuments(deps, caller(), listReceiptsQuerySchema.parse({ selected: 'ALL', receipt_status: 'rejected' }));
    expect(none.items).toEqual([]);
    expect(none.next).toBeNull();
    expect(none.next_company).toBeNull();
    expect(calls.read ?? 0).toBe(0);
  });

  it('pages every other list of the view to its end, newest first across companies, without an error, a gap or a repeat', async () => {
    const documents = await firm();
    const deps = { documents: counted(documents).proxy, store: accountsOfMany(30) };
    const everything = [...documents.docs.values()].filter((d) => d.scope === OWN || d.scope.startsWith('C#'));
    for (const status of ['inbox', 'review', 'ready', 'archive', 'failed', 'processing', 'saving'] as const) {
      for (const receipt_type of [undefined, 'invoice'] as const) {
        const ids: string[] = [];
        let cursor: { next?: string; next_company?: string } = {};
        for (let pages = 0; pages === 0 || cursor.next || cursor.next_company; pages++) {
          expect(pages).toBeLessThan(100);
          const page = await listDocuments(deps, caller(), listReceiptsQuerySchema.parse({ selected: 'ALL', receipt_status: status, ...(receipt_type ? { receipt_type } : {}), limit: '5', ...cursor }));
          ids.push(...page.items.map((d) => d.receipt_id));
          cursor = { ...(page.next ? { next: page.next } : {}), ...(page.next_company ? { next_company: page.next_company } : {}) };
        }
        const want = everything.filter((d) => (status === 'inbox' ? d.status !== 'unassigned' : d.status === status) && (!receipt_type || d.receipt_type === receipt_type));
        // newest first across the companies and the caller's own scope
        expect(ids, `${status} ${receipt_type ?? ''}`).toEqual(want.sort((a, b) => (sortKeyOf(a) < sortKeyOf(b) ? 1 : -1)).map((d) => d.receipt_id));
      }
    }
  });

  it('counts the view with one batched read of the counts items: the same figures as each scope read on its own', async () => {
    const documents = await firm();
    const { proxy, calls } = counted(documents);
    const deps = { documents: proxy, store: accountsOfMany(30) };
    const all = await totalDocuments(deps, caller(), { selected: 'ALL' });
    expect(calls.counts ?? 0).toBe(0);
    expect(calls.tallies).toBe(1);
    // the figures of every company of the caller and of the caller's own scope, each read on its own
    const scopes: ScopeKey[] = [OWN, ...Array.from({ length: 30 }, (_, i) => `C#k${String(i).padStart(2, '0')}` as ScopeKey)];
    const want = { receipt: {} as Record<string, number>, invoice: {} as Record<string, number> };
    for (const scope of scopes) {
      const c = await documents.counts(scope);
      for (const t of ['receipt', 'invoice'] as const) for (const [status, n] of Object.entries(c[t])) want[t][status] = (want[t][status] ?? 0) + n;
    }
    expect(all).toEqual(want);
    // and as the documents are: another user's upload is not counted
    const mine = [...documents.docs.values()].filter((d) => scopes.includes(d.scope));
    for (const t of ['receipt', 'invoice'] as const) {
      for (const status of Object.keys(all[t])) expect(all[t][status as ReceiptStatus], `${t} ${status}`).toBe(mine.filter((d) => d.receipt_type === t && d.status === status).length);
    }

    // one company: its counts, and the caller's documents waiting for a company under unassigned
    calls.tallies = 0;
    const one = await totalDocuments(deps, caller('k27'), { company_id: 'k27' });
    expect(calls.counts ?? 0).toBe(0);
    expect(calls.tallies).toBe(1);
    const k27 = await documents.counts('C#k27');
    expect(one).toEqual({ receipt: { ...k27.receipt, unassigned: 0 }, invoice: { ...k27.invoice, unassigned: 1 } });
  });
});
