import { describe, expect, it } from 'vitest';
import { COMPANY_CODE_TAKEN, companyCodeKey, createCompany } from '../../../lambdas/core/accounts/companies';
import type { CompanyRecord, ProfileRecord } from '../../../lambdas/core/accounts/types';
import { CompanyCodeTaken, type AccountsStore } from '../../../lambdas/core/ports';

const profile = { id: 'u1', name: 'Ona', surname: 'Petraite', email: 'ona@example.com' } as ProfileRecord;

/** A store whose company-code guard is one map entry per creator and code, as the table's guard item. */
function guardedStore(existing: CompanyRecord[], guards: Map<string, string>) {
  const companies = new Map(existing.map((c) => [c.company_id, c]));
  const calls: Array<string | undefined> = [];
  const store = {
    getProfile: async () => profile,
    getCompanies: async (ids: string[]) => ids.flatMap((id) => (companies.has(id) ? [companies.get(id)!] : [])),
    createCompany: async (company: CompanyRecord, _m: unknown, _max: number, replacing?: string) => {
      calls.push(replacing);
      const key = `${company.owner.user_id}|${companyCodeKey(company.code)}`;
      const there = guards.get(key);
      if (there !== undefined && there !== replacing) throw new CompanyCodeTaken(there);
      guards.set(key, company.company_id);
      companies.set(company.company_id, company);
    },
  } as unknown as AccountsStore;
  return { store, calls };
}

let seq = 0;
const deps = (store: AccountsStore) => ({
  store,
  ids: { newId: () => `01NEW${String(++seq).padStart(21, '0')}` },
  clock: { now: () => new Date('2026-12-01T10:00:00Z') },
  live: { publish: async () => undefined, publishToUser: async () => undefined },
  maxCompaniesPerUser: 10,
  emailInDomain: '',
});
const existing = (id: string, code: string, ownerId = 'u1') => ({ company_id: id, code, owner: { user_id: ownerId } }) as CompanyRecord;

describe('one company per code and creator (POST /company)', () => {
  it('compares codes trimmed, without case and spaces', () => {
    expect(companyCodeKey(' LT 305\u00a0123 ')).toBe('lt305123');
    expect(companyCodeKey('Lt305123')).toBe(companyCodeKey('lt 305 123'));
    expect(companyCodeKey('305-123')).not.toBe(companyCodeKey('305123'));
  });

  it('answers 409 on the name field when the guard names a company of the creator with that code', async () => {
    const { store, calls } = guardedStore([existing('C1', 'LT 305 123')], new Map([['u1|lt305123', 'C1']]));
    const error = await createCompany(deps(store), 'u1', { company_name: 'Ona Bakery', code: 'lt305123' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'Conflict', message: COMPANY_CODE_TAKEN, details: [{ path: ['company_name'], message: COMPANY_CODE_TAKEN }] });
    expect(calls).toEqual([undefined]);
  });

  it('replaces a guard whose company is gone, conditioned on that company', async () => {
    const { store, calls } = guardedStore([], new Map([['u1|305123', 'GONE']]));
    await expect(createCompany(deps(store), 'u1', { company_name: 'Ona Bakery', code: '305123' })).resolves.toMatchObject({ code: '305123' });
    expect(calls).toEqual([undefined, 'GONE']);
  });

  it('replaces a guard whose company has another code now', async () => {
    const { store, calls } = guardedStore([existing('C1', '999')], new Map([['u1|305123', 'C1']]));
    await expect(createCompany(deps(store), 'u1', { company_name: 'Ona Bakery', code: '305123' })).resolves.toMatchObject({ code: '305123' });
    expect(calls).toEqual([undefined, 'C1']);
  });
});
