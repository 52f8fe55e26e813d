/**
 * Deleting one's own account: DELETE /user (real handlers, local stand-ins: the Cognito stand-in, DynamoDB, the purge
 * queue and job). The account's sign-in, profile and own partition go; the companies it alone was a member of are
 * deleted and purged; it leaves the others, whose documents stay. Refused while it would take something from others
 * or lose something of the user's own. Only the caller's account is touched (isolation).
 */
import { InitiateAuthCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CLIENT_ID } from '../../scripts/local/stack';
import { ACCOUNT_MSG, ownsSharedCompaniesMessage, unassignedDocumentsMessage } from '../../shared/schemas/user';
import { textPdf } from '../support/text-pdf';
import { registerUser } from '../../scripts/local/seed';
import { apiClient, newUser, registeredUser, signIn, startTestStack, subOf, uploadDocument, wholeTable, type TestStack } from '../support/local-stack';

type User = Awaited<ReturnType<typeof registeredUser>>;
type Summary = { receipt_id: string; status: string; original_file_name: string; version: number };

describe('deleting one’s own account (DELETE /user)', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack({ purgeMsPerDelaySecond: 100 });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const deleteAccount = (u: Pick<User, 'api'>, email: unknown) => u.api.raw('DELETE', '/user', JSON.stringify({ email }));

  /** `member` joins `admin`'s company through an invitation they confirm (an existing account). */
  async function join(admin: User, member: User, role: 'basic' | 'admin' = 'basic') {
    const before = t.stack.mail.messages().length;
    const sent = await admin.api.post(`/invitation?company_id=${admin.companyId}`, { name: 'Ona', surname: 'Onaitė', email: member.user.email, role });
    expect(sent.status).toBe(201);
    const mail = await t.stack.mail.waitFor(member.user.email, { after: before });
    const token = new URL(mail.links.find((l) => l.includes('/signup/invite?token='))!).searchParams.get('token')!;
    expect((await apiClient(t.stack.apiUrl).put(`/invitation/${token}`)).status).toBe(200);
  }

  async function documents(api: User['api'], companyId: string): Promise<Summary[]> {
    const res = await api.get(`/receipts?company_id=${companyId}`);
    expect(res.status).toBe(200);
    return (res.body as { items: Summary[] }).items;
  }

  async function signInError(email: string, password: string): Promise<string> {
    const client = new CognitoIdentityProviderClient({
      endpoint: t.stack.cognitoEndpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      await client.send(
        new InitiateAuthCommand({ ClientId: LOCAL_CLIENT_ID, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
      );
      return 'signed in';
    } catch (error) {
      return (error as { name: string }).name;
    } finally {
      client.destroy();
    }
  }

  it('deletes the sign-in, the profile and the companies it alone had; leaves the others, whose documents stay', async () => {
    const leaver = await registeredUser(t.stack, 'leaver');
    const second = await leaver.api.post('/company', { company_name: 'Leaver Second UAB', code: '777001' });
    expect(second.status).toBe(201);
    const secondId = (second.body as { company_id: string }).company_id;
    const firm = await registeredUser(t.stack, 'firm');
    await join(firm, leaver);
    // The leaver's document in the firm's company: a bookkeeping record of that company.
    const { request } = await uploadDocument(leaver.api, { company_id: firm.companyId, original_file_name: 'kept-by-firm.pdf' }, await textPdf(['KEPT UAB', 'Total 5.00 EUR']));
    expect(request.status).toBe(200);
    await t.stack.jobs.idle();
    const leaverId = subOf(leaver.token);

    // The confirmation must be the account's email address.
    const wrong = await deleteAccount(leaver, firm.user.email);
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ message: ACCOUNT_MSG.confirmEmail, details: [{ path: ['email'], message: ACCOUNT_MSG.confirmEmail }] });
    const empty = await deleteAccount(leaver, '');
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ details: [{ path: ['email'], message: ACCOUNT_MSG.confirmEmail }] });
    expect((await leaver.api.get('/user')).status).toBe(200);

    // Act (the address typed in another case)
    const res = await deleteAccount(leaver, ` ${leaver.user.email.toUpperCase()} `);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, companies_deleted: expect.arrayContaining([leaver.companyId, secondId]), companies_left: [firm.companyId] });
    expect((res.body as { companies_deleted: string[] }).companies_deleted).toHaveLength(2);

    // The sign-in is gone; the token still in hand reaches nothing.
    // (The pool does not tell an unknown user from a wrong password; the address registering again below shows it is free.)
    expect(await signInError(leaver.user.email, leaver.user.password)).toBe('NotAuthorizedException');
    expect((await leaver.api.get('/user')).status).toBe(404);
    expect((await leaver.api.get('/companies')).body).toMatchObject({ items: [] });
    expect((await leaver.api.get(`/receipts?company_id=${firm.companyId}`)).status).toBe(403);
    // The firm: the member is gone from My Team, the document stays with its uploader's name.
    const users = (await firm.api.get(`/company/users?company_id=${firm.companyId}`)).body as { items: { user_id: string }[] };
    expect(users.items.map((u) => u.user_id)).toEqual([subOf(firm.token)]);
    const kept = await documents(firm.api, firm.companyId);
    expect(kept.map((d) => d.original_file_name)).toEqual(['kept-by-firm.pdf']);

    // Once purged, no item of the account's own partition or of its companies is left.
    await t.stack.purgeJobs.idle(180_000);
    expect(t.stack.purgeJobs.deadLetters).toHaveLength(0);
    const items = await wholeTable();
    expect(items.filter((i) => String(i.pk) === `USER#${leaverId}`)).toEqual([]);
    for (const gone of [leaver.companyId, secondId]) expect(items.filter((i) => JSON.stringify(i).includes(gone))).toEqual([]);

    // The address can be registered again: a new account, with a company of its own.
    await registerUser(t.stack, { ...newUser('leaver'), email: leaver.user.email });
    const againToken = await signIn(t.stack, leaver.user);
    expect(subOf(againToken)).not.toBe(leaverId);
    const againCompanies = (await apiClient(t.stack.apiUrl, againToken).get('/companies')).body as { items: { company_id: string }[] };
    expect(againCompanies.items).toHaveLength(1);
    expect([leaver.companyId, secondId]).not.toContain(againCompanies.items[0]!.company_id);
  }, 300_000);

  it('is refused while the account owns a company with other members, or has documents without a company', async () => {
    const owner = await registeredUser(t.stack, 'owner');
    const colleague = await registeredUser(t.stack, 'colleague');
    await join(owner, colleague);
    const companyName = ((await owner.api.get('/companies')).body as { items: { company_id: string; name: string }[] }).items[0]!.name;

    const refused = await deleteAccount(owner, owner.user.email);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: ownsSharedCompaniesMessage([companyName]) });
    // Nothing was deleted.
    expect((await owner.api.get('/user')).status).toBe(200);
    expect(await signInError(owner.user.email, owner.user.password)).toBe('signed in');
    expect(((await colleague.api.get('/companies')).body as { items: unknown[] }).items).toHaveLength(2);

    // A document without a company (the all-companies view's upload) is the user's own: refused until it is dealt with.
    const { request } = await uploadDocument(colleague.api, { company_id: 'NONE', original_file_name: 'mine.pdf' }, await textPdf(['MINE UAB', 'Total 1.00 EUR']));
    expect(request.status).toBe(200);
    await t.stack.jobs.idle();
    const own = await colleague.api.raw('DELETE', '/user', JSON.stringify({ email: colleague.user.email }));
    expect(own.status).toBe(409);
    expect(own.body).toMatchObject({ message: unassignedDocumentsMessage(1) });
    const unassigned = (await colleague.api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as { items: Summary[] };
    const doc = unassigned.items.find((d) => d.original_file_name === 'mine.pdf')!;
    expect((await colleague.api.delete(`/receipt/${doc.receipt_id}?company_id=NONE`)).status).toBe(200);

    // Then the colleague can go; the owner's company stays, with the owner alone in it.
    expect((await colleague.api.raw('DELETE', '/user', JSON.stringify({ email: colleague.user.email }))).status).toBe(200);
    const users = (await owner.api.get(`/company/users?company_id=${owner.companyId}`)).body as { items: { user_id: string }[] };
    expect(users.items.map((u) => u.user_id)).toEqual([subOf(owner.token)]);
    // … and now the owner may too.
    expect((await deleteAccount(owner, owner.user.email)).status).toBe(200);
  }, 300_000);

  it('needs a signed-in caller and a well-formed body', async () => {
    expect((await apiClient(t.stack.apiUrl).raw('DELETE', '/user', JSON.stringify({ email: 'x@example.com' }))).status).toBe(401);
    const u = await registeredUser(t.stack, 'bodycheck');
    const extra = await u.api.raw('DELETE', '/user', JSON.stringify({ email: u.user.email, user_id: 'someone-else' }));
    expect(extra.status).toBe(422);
    expect((await u.api.raw('DELETE', '/user', 'not json')).status).toBe(400);
    expect((await u.api.get('/user')).status).toBe(200);
  });
});
