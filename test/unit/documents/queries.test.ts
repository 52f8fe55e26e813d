import { describe, expect, it } from 'vitest';
import type { CompanyRecord } from '../../../lambdas/core/accounts/types';
import { countMove } from '../../../lambdas/core/documents/status-machine';
import { emptyChange, type DocumentRecord, type ReceiptStatus, type ReceiptType, type ScopeKey } from '../../../lambdas/core/documents/types';
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
