/**
 * Handing a company over: PUT /company/owner (real handlers, local stand-ins). The account owner makes an administrator
 * member the account owner; the company-code guard moves with it; only the owner may, only to an administrator, never
 * across companies (isolation); a former owner may then leave with their account.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { companyCodeKey } from '../../lambdas/core/accounts/companies';
import { OWNER_MSG } from '../../shared/schemas/team';
import { addMembership, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';

type User = Awaited<ReturnType<typeof registeredUser>>;
type Users = { items: Array<{ user_id: string; is_owner: boolean; can_be_deleted: boolean; role: string }> };
type Companies = { items: Array<{ company_id: string; code: string; user: { email: string } }> };

describe('handing a company over (PUT /company/owner)', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const handOver = (u: User, companyId: string, userId: string) => u.api.put(`/company/owner?company_id=${companyId}`, { user_id: userId });
  const guard = async (userId: string, code: string) =>
    (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.companyCodeGuard(userId, companyCodeKey(code)), ConsistentRead: true }))).Item;

  it('makes an administrator member the account owner; the old owner stays an administrator and may leave', async () => {
    const owner = await registeredUser(t.stack, 'handover');
    const partner = await registeredUser(t.stack, 'partner');
    const clerk = await registeredUser(t.stack, 'clerk');
    const [ownerId, partnerId, clerkId] = [owner, partner, clerk].map((u) => subOf(u.token));
    await addMembership(partnerId!, owner.companyId, 'admin');
    await addMembership(clerkId!, owner.companyId, 'basic');
    const company = ((await owner.api.get('/companies')).body as Companies).items.find((c) => c.company_id === owner.companyId)!;
    expect(await guard(ownerId!, company.code)).toMatchObject({ company_id: owner.companyId });

    // Only the owner, only to an administrator.
    expect(await handOver(partner, owner.companyId, partnerId!)).toMatchObject({ status: 403, body: { message: OWNER_MSG.ownerOnly } });
    expect(await handOver(owner, owner.companyId, clerkId!)).toMatchObject({ status: 409, body: { message: OWNER_MSG.notAdmin } });
    expect((await handOver(owner, owner.companyId, 'nobody')).status).toBe(404);
    expect((await owner.api.put(`/company/owner?company_id=${owner.companyId}`, { user_id: partnerId, role: 'admin' })).status).toBe(422);

    // Act
    const res = await handOver(owner, owner.companyId, partnerId!);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ company_id: owner.companyId, owner: { user_id: partnerId, name: partner.user.name, surname: partner.user.surname, email: partner.user.email } });

    // My Team: the partner is the owner (cannot be deleted), the old owner an administrator who now can be.
    const users = ((await partner.api.get(`/company/users?company_id=${owner.companyId}`)).body as Users).items;
    expect(users.find((u) => u.user_id === partnerId)).toMatchObject({ is_owner: true, role: 'admin', can_be_deleted: false });
    expect(users.find((u) => u.user_id === ownerId)).toMatchObject({ is_owner: false, role: 'admin', can_be_deleted: true });
    const listed = ((await clerk.api.get('/companies')).body as Companies).items.find((c) => c.company_id === owner.companyId)!;
    expect(listed.user.email).toBe(partner.user.email);
    // The company-code guard moved with the company.
    expect(await guard(partnerId!, company.code)).toMatchObject({ company_id: owner.companyId, user_id: partnerId });
    expect(await guard(ownerId!, company.code)).toBeUndefined();
    // The former owner may no longer hand it over; they may now delete their account (they only leave this company).
    expect((await handOver(owner, owner.companyId, ownerId!)).status).toBe(403);
    const left = await owner.api.raw('DELETE', '/user', JSON.stringify({ email: owner.user.email }));
    expect(left.status).toBe(200);
    expect(left.body).toMatchObject({ companies_left: [owner.companyId] });
    expect(((await partner.api.get(`/company/users?company_id=${owner.companyId}`)).body as Users).items.map((u) => u.user_id).sort()).toEqual(
      [partnerId, clerkId].sort(),
    );
  });

  it('is refused when the new owner already owns a company with this code; nothing moves', async () => {
    const owner = await registeredUser(t.stack, 'samecode');
    const partner = await registeredUser(t.stack, 'samecode');
    const partnerId = subOf(partner.token);
    const code = ((await owner.api.get('/companies')).body as Companies).items[0]!.code;
    expect((await partner.api.post('/company', { company_name: 'Partner Same Code UAB', code })).status).toBe(201);
    await addMembership(partnerId, owner.companyId, 'admin');
    expect(await handOver(owner, owner.companyId, partnerId)).toMatchObject({ status: 409, body: { message: OWNER_MSG.codeTaken } });
    const users = ((await owner.api.get(`/company/users?company_id=${owner.companyId}`)).body as Users).items;
    expect(users.find((u) => u.is_owner)!.user_id).toBe(subOf(owner.token));
    expect(await guard(subOf(owner.token), code)).toMatchObject({ company_id: owner.companyId });
  });

  it('never reaches another company (isolation)', async () => {
    const a = await registeredUser(t.stack, 'isoa');
    const b = await registeredUser(t.stack, 'isob');
    // b names a's company: not a member.
    expect((await handOver(b, a.companyId, subOf(b.token))).status).toBe(403);
    // a basic member of a's company is not an administrator: the route is refused before the body is read.
    const basic = await registeredUser(t.stack, 'isoc');
    await addMembership(subOf(basic.token), a.companyId, 'basic');
    expect((await handOver(basic, a.companyId, subOf(basic.token))).status).toBe(403);
    const users = ((await a.api.get(`/company/users?company_id=${a.companyId}`)).body as Users).items;
    expect(users.find((u) => u.is_owner)!.user_id).toBe(subOf(a.token));
  });
});
