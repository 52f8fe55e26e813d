/**
 * One company per code and creator (A8, A26–A28): ADD COMPANY refuses a company code the user already has on a company
 * they created (the sign-up's one too), codes compared trimmed, without case and inner spaces; the guard goes
 * with the company, whoever deletes it; other users may have the same code; the backfill guards older companies.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { backfillCompanyCodeGuards } from '../../lambdas/adapters/ddb/search-backfill';
import { tableName } from '../../lambdas/adapters/ddb/table-ops';
import { addMembership, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];
type CompanyBody = { items: { company_id: string; name: string; code: string }[] };

const TAKEN = 'You already have a company with this code';

const companiesOf = async (api: Api) => ((await api.get('/companies')).body as CompanyBody).items;
/** The guard item as the table holds it (docs/data-model.md, company-code guard). */
const guardKey = (userId: string, code: string) => ({ pk: `USER#${userId}`, sk: `COMPANYCODE#${code}` });
const guardOf = async (userId: string, code: string) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: guardKey(userId, code) }))).Item;

describe('company code guard through the local API', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('refuses a second company with the same code, spelled with other case and spaces, with 409 on the name field', async () => {
    const { api } = await registeredUser(t.stack, 'dupcode');
    const first = await api.post('/company', { company_name: 'Ona Catering', code: 'LT 305 999' });
    expect(first.status).toBe(201);
    for (const code of ['LT 305 999', ' lt305999 ', 'Lt 3059 99']) {
      const again = await api.post('/company', { company_name: 'Ona Catering', code });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: TAKEN,
        details: [{ path: ['company_name'], message: TAKEN }],
      });
    }
    // another code of the same user is fine
    expect((await api.post('/company', { company_name: 'Ona Catering', code: 'LT 305 998' })).status).toBe(201);
    expect((await companiesOf(api)).filter((c) => c.name === 'Ona Catering').map((c) => c.code)).toEqual(['LT 305 999', 'LT 305 998']);
  });

  it('refuses ADD COMPANY of the code of the company the sign-up created', async () => {
    const { api, user } = await registeredUser(t.stack, 'dupsignup');
    const same = await api.post('/company', { company_name: user.company, code: user.company_code });
    expect(same.status).toBe(409);
    expect(same.body).toMatchObject({ details: [{ path: ['company_name'], message: TAKEN }] });
    const spaced = await api.post('/company', { company_name: 'Other name', code: ` ${user.company_code.slice(0, 3)} ${user.company_code.slice(3)} ` });
    expect(spaced.status).toBe(409);
    expect(await companiesOf(api)).toHaveLength(1);
  });

  it('lets the same code be created again once the company that had it is deleted', async () => {
    const { api, token } = await registeredUser(t.stack, 'dupdelete');
    const first = (await api.post('/company', { company_name: 'Short lived', code: '777111' })).body as { company_id: string };
    expect((await api.post('/company', { company_name: 'Short lived', code: '777111' })).status).toBe(409);
    expect(await guardOf(subOf(token), '777111')).toMatchObject({ company_id: first.company_id });
    expect((await api.delete(`/company?company_id=${first.company_id}`)).status).toBe(200);
    // the delete took the guard with it
    expect(await guardOf(subOf(token), '777111')).toBeUndefined();
    const again = await api.post('/company', { company_name: 'Short lived', code: '777111' });
    expect(again.status).toBe(201);
  });

  it('frees the code when another admin deletes the company', async () => {
    const creator = await registeredUser(t.stack, 'dupcreator');
    const colleague = await registeredUser(t.stack, 'dupcolleague');
    const shared = (await creator.api.post('/company', { company_name: 'Shared UAB', code: '888222' })).body as { company_id: string };
    await addMembership(subOf(colleague.token), shared.company_id, 'admin');
    expect((await creator.api.post('/company', { company_name: 'Shared UAB', code: '888222' })).status).toBe(409);
    // the colleague is not its creator: the code is free for them
    expect((await colleague.api.post('/company', { company_name: 'Own Shared UAB', code: '888222' })).status).toBe(201);
    expect((await colleague.api.delete(`/company?company_id=${shared.company_id}`)).status).toBe(200);
    expect(await guardOf(subOf(creator.token), '888222')).toBeUndefined();
    expect((await creator.api.post('/company', { company_name: 'Shared UAB', code: '888222' })).status).toBe(201);
  });

  it('lets another user create a company with the same code', async () => {
    const owner = await registeredUser(t.stack, 'dupowner');
    const accountant = await registeredUser(t.stack, 'dupaccountant');
    expect((await owner.api.post('/company', { company_name: owner.user.company, code: owner.user.company_code })).status).toBe(409);
    expect((await accountant.api.post('/company', { company_name: owner.user.company, code: owner.user.company_code })).status).toBe(201);
    expect((await owner.api.post('/company', { company_name: 'Branch', code: '999333' })).status).toBe(201);
    expect((await accountant.api.post('/company', { company_name: 'Branch client', code: '999333' })).status).toBe(201);
    expect((await accountant.api.post('/company', { company_name: 'Branch client', code: '999333' })).status).toBe(409);
  });

  it('frees the old code when the company code is changed in the settings', async () => {
    const { api, companyId, user } = await registeredUser(t.stack, 'duprename');
    expect((await api.put(`/company?company_id=${companyId}`, { name: user.company, code: '444555' })).status).toBe(200);
    expect((await api.post('/company', { company_name: 'Again', code: user.company_code })).status).toBe(201);
    expect((await api.post('/company', { company_name: 'Again', code: user.company_code })).status).toBe(409);
  });

  it('moves the guard with a code changed in the settings: ADD COMPANY of the new code is refused', async () => {
    const { api, companyId, token, user } = await registeredUser(t.stack, 'dupmove');
    const userId = subOf(token);
    expect((await api.put(`/company?company_id=${companyId}`, { name: user.company, code: '777 444' })).status).toBe(200);
    expect(await guardOf(userId, '777444')).toMatchObject({ company_id: companyId, user_id: userId, code_key: '777444' });
    expect(await guardOf(userId, user.company_code)).toBeUndefined();
    const again = await api.post('/company', { company_name: 'Third', code: '777444' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: TAKEN, details: [{ path: ['company_name'], message: TAKEN }] });
    expect((await companiesOf(api)).map((c) => c.code)).toEqual(['777 444']);
  });

  it('refuses a settings code change to the code of another company of the creator, with 409 on the code field', async () => {
    const { api, companyId, user } = await registeredUser(t.stack, 'dupsettings');
    expect((await api.post('/company', { company_name: 'Branch', code: 'LT 100 200' })).status).toBe(201);
    for (const code of ['LT 100 200', 'lt100200']) {
      const res = await api.put(`/company?company_id=${companyId}`, { name: 'Renamed', code });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ statusCode: 409, error: 'Conflict', message: TAKEN, details: [{ path: ['code'], message: TAKEN }] });
    }
    // nothing was written: the name and code stay
    expect((await companiesOf(api)).find((c) => c.company_id === companyId)).toMatchObject({ name: user.company, code: user.company_code });
  });

  it('keeps the guard when the code changes only in case or spaces', async () => {
    const { api, companyId, token } = await registeredUser(t.stack, 'dupspaces');
    const userId = subOf(token);
    expect((await api.put(`/company?company_id=${companyId}`, { name: 'Spaced', code: 'ab 12' })).status).toBe(200);
    const guard = await guardOf(userId, 'ab12');
    expect(guard).toMatchObject({ company_id: companyId });
    expect((await api.put(`/company?company_id=${companyId}`, { name: 'Spaced', code: 'AB12' })).status).toBe(200);
    expect(await guardOf(userId, 'ab12')).toEqual(guard);
    expect((await api.post('/company', { company_name: 'Other', code: 'a b 1 2' })).status).toBe(409);
  });

  it('replaces a stale guard of the new code on a settings change', async () => {
    const { api, companyId, token } = await registeredUser(t.stack, 'dupstale');
    const userId = subOf(token);
    // a guard left behind by a company that is gone
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...guardKey(userId, '321321'), type: 'COMPANY_CODE', user_id: userId, code_key: '321321', company_id: 'gone-company', created_at: '2026-01-01T00:00:00.000Z' },
      }),
    );
    expect((await api.put(`/company?company_id=${companyId}`, { name: 'Healed', code: '321321' })).status).toBe(200);
    expect(await guardOf(userId, '321321')).toMatchObject({ company_id: companyId });
    expect((await api.post('/company', { company_name: 'Other', code: '321321' })).status).toBe(409);
  });

  it('guards the new code of an older company that had no guard for its old one', async () => {
    const { api, companyId, token, user } = await registeredUser(t.stack, 'dupunguarded');
    const userId = subOf(token);
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: guardKey(userId, user.company_code) }));
    expect((await api.put(`/company?company_id=${companyId}`, { name: user.company, code: '909090' })).status).toBe(200);
    expect(await guardOf(userId, '909090')).toMatchObject({ company_id: companyId });
    expect((await api.post('/company', { company_name: 'Other', code: '909090' })).status).toBe(409);
  });

  it('holds the creator to the code when another admin changes it', async () => {
    const creator = await registeredUser(t.stack, 'dupsetcreator');
    const colleague = await registeredUser(t.stack, 'dupsetcolleague');
    const shared = (await creator.api.post('/company', { company_name: 'Shared', code: '515151' })).body as { company_id: string };
    await addMembership(subOf(colleague.token), shared.company_id, 'admin');
    // the colleague's own code is free for the creator's company
    const toColleagueCode = await colleague.api.put(`/company?company_id=${shared.company_id}`, { name: 'Shared', code: colleague.user.company_code });
    expect(toColleagueCode.status).toBe(200);
    expect(await guardOf(subOf(creator.token), colleague.user.company_code)).toMatchObject({ company_id: shared.company_id });
    expect(await guardOf(subOf(colleague.token), colleague.user.company_code)).toMatchObject({ company_id: colleague.companyId });
    // the code of the creator's sign-up company is not
    const toCreatorCode = await colleague.api.put(`/company?company_id=${shared.company_id}`, { name: 'Shared', code: creator.user.company_code });
    expect(toCreatorCode.status).toBe(409);
    expect(toCreatorCode.body).toMatchObject({ details: [{ path: ['code'], message: TAKEN }] });
  });

  it('backfills guards for older companies whose creator has that code once, and leaves older duplicates as they are', async () => {
    const { api, token, user } = await registeredUser(t.stack, 'dupbackfill');
    const userId = subOf(token);
    const signUpCode = user.company_code;
    // companies from before the guard: no guard items
    const dropGuard = (code: string) => ddb().send(new DeleteCommand({ TableName: tableName(), Key: guardKey(userId, code) }));
    await dropGuard(signUpCode);
    expect((await api.post('/company', { company_name: 'Older duplicate', code: signUpCode })).status).toBe(201);
    await dropGuard(signUpCode);
    expect((await api.post('/company', { company_name: 'Older single', code: '5550 1' })).status).toBe(201);
    await dropGuard('55501');
    expect((await api.post('/company', { company_name: 'Older single', code: '55501' })).status).toBe(201);
    await dropGuard('55501');
    expect((await api.post('/company', { company_name: 'Lone one', code: '66601' })).status).toBe(201);
    await dropGuard('66601');

    const result = await backfillCompanyCodeGuards();
    expect(result.written).toBeGreaterThanOrEqual(1);
    expect(result.duplicates).toBeGreaterThanOrEqual(2);
    expect(await guardOf(userId, '66601')).toMatchObject({ type: 'COMPANY_CODE', user_id: userId });
    expect((await api.post('/company', { company_name: 'Lone one', code: '66601' })).status).toBe(409);
    // the older duplicates stay unguarded (nothing says which one keeps the code)
    expect(await guardOf(userId, signUpCode)).toBeUndefined();
    expect(await guardOf(userId, '55501')).toBeUndefined();
    // and again: nothing left to write
    const again = await backfillCompanyCodeGuards();
    expect(again.written).toBe(0);
  });
});
