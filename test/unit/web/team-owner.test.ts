import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Company } from '../../../shared/schemas/company';
import { OWNER_MSG, ownerChangedMessage, transferOwnershipSchema, type CompanyUser } from '../../../shared/schemas/team';
import { ownerChangedByCompanyEvent } from '../../../web/src/features/live/lib/cache-updates';
import { receiptCache } from '../../../web/src/features/live/use-receipt-cache';
import { transferOwnership } from '../../../web/src/features/team/api/team';
import { canMakeAccountOwner, makeOwnerQuestion, withOwner } from '../../../web/src/features/team/lib/owner';
import { createApiClient } from '../../../web/src/lib/api-client';
import { ApiError } from '../../../web/src/lib/api-error';
import { queryKeys } from '../../../web/src/lib/query-keys';

type Member = Pick<CompanyUser, 'user_id' | 'role' | 'is_owner'>;
const owner: Member = { user_id: 'owner-1', role: 'admin', is_owner: true };
const admin: Member = { user_id: 'admin-2', role: 'admin', is_owner: false };
const basic: Member = { user_id: 'basic-3', role: 'basic', is_owner: false };
const team = [owner, admin, basic];

describe('My Team: who sees "Make Account Owner"', () => {
  it('the account owner, on another administrator’s card only', () => {
    expect(canMakeAccountOwner(team, owner.user_id, admin)).toBe(true);
    // not on their own card, not on a Basic member's (made an administrator first)
    expect(canMakeAccountOwner(team, owner.user_id, owner)).toBe(false);
    expect(canMakeAccountOwner(team, owner.user_id, basic)).toBe(false);
  });

  it('nobody else: another administrator, a Basic member, a caller not (or no longer) in the list, no caller', () => {
    const admin2: Member = { user_id: 'admin-4', role: 'admin', is_owner: false };
    const withSecond = [...team, admin2];
    expect(canMakeAccountOwner(withSecond, admin.user_id, admin2)).toBe(false);
    expect(canMakeAccountOwner(withSecond, admin.user_id, owner)).toBe(false);
    expect(canMakeAccountOwner(withSecond, basic.user_id, admin)).toBe(false);
    expect(canMakeAccountOwner(withSecond, 'stranger', admin)).toBe(false);
    expect(canMakeAccountOwner(withSecond, undefined, admin)).toBe(false);
    expect(canMakeAccountOwner(withSecond, null, admin)).toBe(false);
    expect(canMakeAccountOwner(withSecond, '', admin)).toBe(false);
    // the list is the one of the card's company: owning another company gives nothing here
    expect(canMakeAccountOwner([{ ...owner, is_owner: false }, admin], owner.user_id, admin)).toBe(false);
  });

  it('goes from the old owner once the ownership moved (the cards updated at once)', () => {
    const after = withOwner(team, admin.user_id);
    expect(after.map((u) => [u.user_id, u.is_owner])).toEqual([
      [owner.user_id, false],
      [admin.user_id, true],
      [basic.user_id, false],
    ]);
    // the unchanged cards stay the same objects; the input is not changed
    expect(after[2]).toBe(basic);
    expect(team[0]!.is_owner).toBe(true);
    expect(after.some((u) => canMakeAccountOwner(after, owner.user_id, u))).toBe(false);
    // the new owner sees it on the old owner's card (still an administrator)
    expect(after.filter((u) => canMakeAccountOwner(after, admin.user_id, u)).map((u) => u.user_id)).toEqual([owner.user_id]);
  });
});

describe('the confirmation and its outcome', () => {
  it('asks with the member’s full name and the company name, then the shared texts', () => {
    expect(makeOwnerQuestion('Rasa Kolegė', 'Acme UAB')).toBe('Make Rasa Kolegė the account owner of Acme UAB?');
    expect(OWNER_MSG.confirm).toContain('The account owner cannot be removed');
    expect(ownerChangedMessage('Rasa Kolegė')).toBe('Rasa Kolegė is now the account owner.');
  });
});

describe('transferOwnership', () => {
  const client = (status: number, body: unknown, calls: Array<{ url: string; init: RequestInit }>) =>
    createApiClient({
      apiUrl: 'https://api.test',
      getAccessToken: async () => 'token-1',
      getCompanyId: () => 'active-company',
      onUnauthorized: () => undefined,
      fetch: async (input, init) => {
        calls.push({ url: String(input), init: init ?? {} });
        return new Response(JSON.stringify(body), { status });
      },
    });

  it('sends PUT /company/owner with the card’s company and {user_id} as JSON', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const result = { company_id: 'c2', owner: { user_id: 'admin-2', name: 'Rasa', surname: 'Kolegė', email: 'rasa@example.com' } };
    await expect(transferOwnership(client(200, result, calls), 'c2', 'admin-2')).resolves.toEqual(result);
    expect(calls).toHaveLength(1);
    // the card's company, not the active one (the all-companies view)
    expect(calls[0]!.url).toBe('https://api.test/company/owner?company_id=c2');
    expect(calls[0]!.init.method).toBe('PUT');
    const sent = JSON.parse(String(calls[0]!.init.body)) as unknown;
    expect(sent).toEqual({ user_id: 'admin-2' });
    expect(transferOwnershipSchema.safeParse(sent).success).toBe(true);
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer token-1');
  });

  it('fails with the API’s message (said in the pop-up)', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const err = await transferOwnership(client(409, { statusCode: 409, error: 'Conflict', message: OWNER_MSG.notAdmin }, calls), 'c2', 'basic-3').catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).message).toBe(OWNER_MSG.notAdmin);
  });
});

describe('the members’ open screens: a company event naming another owner', () => {
  const ana = { name: 'Ana', surname: 'Owner', email: 'ana@example.com' };
  const rasa = { name: 'Rasa', surname: 'Kolegė', email: 'rasa@example.com' };
  const company = (id: string, user = ana) => ({ company_id: id, name: id.toUpperCase(), role: 'admin', user, counts: {} }) as unknown as Company;

  it('names the company whose owner changed; the same owner, no owner or no company: none', () => {
    const companies = [company('c1'), company('c2')];
    expect(ownerChangedByCompanyEvent(companies, { company_id: 'c1', user: rasa })).toBe('c1');
    expect(ownerChangedByCompanyEvent(companies, { company: { company_id: 'c2', user: rasa } })).toBe('c2');
    // a whole company view with the same owner (an integration switched), in other letters' case; no owner in it
    expect(ownerChangedByCompanyEvent(companies, { ...company('c1'), user: { ...ana, email: 'ANA@example.com' }, ftp_export: true })).toBeNull();
    expect(ownerChangedByCompanyEvent(companies, { company_id: 'c1', name: 'Renamed' })).toBeNull();
    expect(ownerChangedByCompanyEvent(companies, {})).toBeNull();
    // a company not cached (or no list): its cards, if any, are read again
    expect(ownerChangedByCompanyEvent(companies, { company_id: 'c9', user: rasa })).toBe('c9');
    expect(ownerChangedByCompanyEvent(undefined, { company_id: 'c1', user: rasa })).toBe('c1');
  });

  it('reads that company’s My Team cards again and takes the new owner into the companies', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    qc.setQueryData(queryKeys.companies, [company('c1'), company('c2')]);
    qc.setQueryData(queryKeys.companyUsers('c1'), []);
    qc.setQueryData(queryKeys.companyUsers('c2'), []);
    receiptCache(qc).applyCompany({ company_id: 'c1', user: rasa });
    expect(qc.getQueryState(queryKeys.companyUsers('c1'))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(queryKeys.companyUsers('c2'))?.isInvalidated).toBe(false);
    expect(qc.getQueryData<Company[]>(queryKeys.companies)?.map((c) => c.user.email)).toEqual([rasa.email, ana.email]);
    // the same owner again: nothing more to read
    qc.setQueryData(queryKeys.companyUsers('c1'), []);
    receiptCache(qc).applyCompany({ company_id: 'c1', user: rasa, name: 'C1 renamed' });
    expect(qc.getQueryState(queryKeys.companyUsers('c1'))?.isInvalidated).toBe(false);
    qc.clear();
  });
});
