import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { tableName } from '../../lambdas/adapters/ddb/table-ops';
import { INVITATIONS_TODAY, invitationIdOf } from '../../lambdas/core/team/invitations';
import { deps } from '../../lambdas/runtime/deps';
import { INVITATIONS_PER_DAY } from '../../shared/constants';
import { COGNITO_ATTRIBUTES, INVITATION_TOKEN_VALIDATION_KEY } from '../../shared/schemas/auth';
import { LOCAL_CLIENT_ID } from '../../scripts/local/stack';
import { apiClient, newUser, openLiveChannel, registeredUser, signIn, startTestStack, subOf, type TestStack } from '../support/local-stack';

type Users = { items: Array<Record<string, unknown> & { user_id: string; email: string; can_be_deleted: boolean; role: string }> };

describe('team and invitations through the local API', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const cognito = () =>
    new CognitoIdentityProviderClient({
      endpoint: t.stack.cognitoEndpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });

  /** POST /invitation, then the token from the link in the caught mail. */
  async function invite(
    admin: Awaited<ReturnType<typeof registeredUser>>,
    who: { email: string; name?: string; surname?: string; role?: unknown; message?: string },
  ) {
    const before = t.stack.mail.messages().length;
    const res = await admin.api.post(`/invitation?company_id=${admin.companyId}`, {
      name: who.name ?? 'Ona',
      surname: who.surname ?? 'Onaitė',
      email: who.email,
      role: who.role ?? 'basic',
      message: who.message,
    });
    expect(res.status).toBe(201);
    const mail = await t.stack.mail.waitFor(who.email, { after: before });
    const link = mail.links.find((l) => l.includes('/signup/invite?token='))!;
    const token = new URL(link).searchParams.get('token')!;
    return { res, mail, link, token };
  }

  async function signUpInvited(email: string, password: string, invitationId: string) {
    const client = cognito();
    await client.send(
      new SignUpCommand({
        ClientId: LOCAL_CLIENT_ID,
        Username: email,
        Password: password,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: COGNITO_ATTRIBUTES.invitationId, Value: invitationId },
        ],
      }),
    );
    await client.send(
      new ConfirmSignUpCommand({ ClientId: LOCAL_CLIENT_ID, Username: email, ConfirmationCode: t.stack.cognito.lastCode(email)! }),
    );
    client.destroy();
    const token = await signIn(t.stack, { email, password });
    return { token, api: apiClient(t.stack.apiUrl, token) };
  }

  it('invites a new person by mail; after sign-up they belong to the inviting company only, with the invited role', async () => {
    // Prepare
    const admin = await registeredUser(t.stack, 'teamadmin');
    const email = `new${Date.now()}@example.com`;
    // Act
    const { res, mail, link, token } = await invite(admin, { email, name: 'Jonas', surname: 'Jonaitis', message: 'Welcome aboard' });
    // Assess: the answer never carries the token; the mail does, as a link to the web app
    expect(JSON.stringify(res.body)).not.toContain(token);
    expect(res.body).toMatchObject({ email, company_id: admin.companyId, role: 'basic', new_account_required: true });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.startsWith(`${t.stack.url}/signup/invite?token=`)).toBe(true);
    expect(mail.text).toContain('Welcome aboard');
    expect(mail.subject).toContain(admin.user.company);
    // only the hash is stored
    const stored = await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.invitation(invitationIdOf(token)) }));
    expect(stored.Item).toBeDefined();
    expect(JSON.stringify(stored.Item)).not.toContain(token);
    expect(Number(stored.Item!.ttl) * 1000).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);

    const lookup = await apiClient(t.stack.apiUrl).get(`/invitation/${token}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ id: invitationIdOf(token), email, company_id: admin.companyId, new_account_required: true });
    // a new account cannot be confirmed with PUT: it signs up
    expect((await apiClient(t.stack.apiUrl).put(`/invitation/${token}`)).status).toBe(409);

    const invited = await signUpInvited(email, 'Passw0rdOk', (lookup.body as { id: string }).id);
    const companies = (await invited.api.get('/companies')).body as { items: { company_id: string; role: string }[] };
    expect(companies.items).toEqual([expect.objectContaining({ company_id: admin.companyId, role: 'basic' })]);
    const profile = (await invited.api.get('/user')).body as { name: string; surname: string };
    expect(profile).toMatchObject({ name: 'Jonas', surname: 'Jonaitis' });

    // used: the link is refused from now on
    expect((await apiClient(t.stack.apiUrl).get(`/invitation/${token}`)).status).toBe(409);
    expect((await apiClient(t.stack.apiUrl).put(`/invitation/${token}`)).status).toBe(409);

    // the team lists both, with the member's own Email-in address
    const users = (await admin.api.get(`/company/users?company_id=${admin.companyId}`)).body as Users;
    expect(users.items).toHaveLength(2);
    const member = users.items.find((u) => u.user_id === subOf(invited.token))!;
    expect(member).toMatchObject({ name: 'Jonas', surname: 'Jonaitis', role: 'basic', is_owner: false, can_be_deleted: true, email: 'jonas.jonaitis@in.receipts.local' });
    const owner = users.items.find((u) => u.user_id === subOf(admin.token))!;
    expect(owner).toMatchObject({ is_owner: true, can_be_deleted: false, role: 'admin' });
  });

  it('adds an existing account once the invitee confirms, and gives a free Email-in prefix', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const existing = await registeredUser(t.stack, 'existing');
    // a second person with the same name takes the next free prefix
    const first = await invite(admin, { email: existing.user.email, name: 'Petras', surname: 'Petraitis', role: 'admin' });
    expect(first.res.body).toMatchObject({ new_account_required: false, role: 'admin' });
    const lookup = await apiClient(t.stack.apiUrl).get(`/invitation/${first.token}`);
    expect(lookup.body).toMatchObject({ new_account_required: false });
    const put = await apiClient(t.stack.apiUrl).put(`/invitation/${first.token}`);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ accepted: true, company_id: admin.companyId });
    // single use
    expect((await apiClient(t.stack.apiUrl).put(`/invitation/${first.token}`)).status).toBe(409);
    const companies = (await existing.api.get('/companies')).body as { items: { company_id: string; role: string }[] };
    expect(companies.items.map((c) => [c.company_id, c.role])).toEqual(
      expect.arrayContaining([
        [existing.companyId, 'admin'],
        [admin.companyId, 'admin'],
      ]),
    );
    // inviting a member again is refused under the email field
    const again = await admin.api.post(`/invitation?company_id=${admin.companyId}`, {
      name: 'Petras',
      surname: 'Petraitis',
      email: existing.user.email,
      role: 'basic',
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ details: [{ path: ['email'] }] });

    const admin2 = await registeredUser(t.stack, 'teamadmin');
    const other = await registeredUser(t.stack, 'existing');
    const second = await invite(admin2, { email: other.user.email, name: 'Petras', surname: 'Petraitis' });
    expect((await apiClient(t.stack.apiUrl).put(`/invitation/${second.token}`)).status).toBe(200);
    const users = (await admin2.api.get(`/company/users?company_id=${admin2.companyId}`)).body as Users;
    const emails = users.items.map((u) => u.email);
    expect(emails).toContain('petras.petraitis2@in.receipts.local');
  });

  it('validates the invitation: role falls back to basic, custom message at most 1000 characters', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const { res } = await invite(admin, { email: `odd${Date.now()}@example.com`, role: 'superuser' });
    expect(res.body).toMatchObject({ role: 'basic' });
    const long = await admin.api.post(`/invitation?company_id=${admin.companyId}`, {
      name: 'Ona',
      surname: 'Onaitė',
      email: 'long@example.com',
      role: 'basic',
      message: 'x'.repeat(1001),
    });
    expect(long.status).toBe(422);
    expect(long.body).toMatchObject({ details: [{ path: ['message'], message: 'To much sumbols' }] });
    const missing = await admin.api.post(`/invitation?company_id=${admin.companyId}`, { email: 'not-an-email' });
    expect(missing.status).toBe(422);
    const paths = (missing.body as { details: { path: string[] }[] }).details.map((d) => d.path[0]);
    expect(paths).toEqual(expect.arrayContaining(['name', 'surname', 'email']));
  });

  it('refuses an expired or unknown token', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const email = `late${Date.now()}@example.com`;
    const { token } = await invite(admin, { email });
    await ddb().send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: keys.invitation(invitationIdOf(token)),
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const anonymous = apiClient(t.stack.apiUrl);
    const expired = await anonymous.get(`/invitation/${token}`);
    expect(expired.status).toBe(409);
    expect(expired.body).toMatchObject({ message: 'This invitation has expired' });
    expect((await anonymous.put(`/invitation/${token}`)).status).toBe(409);
    // signing up with the expired invitation's id gives an account without any company, not a company of one's own
    const late = await signUpInvited(email, 'Passw0rdOk', invitationIdOf(token));
    expect(((await late.api.get('/companies')).body as { items: unknown[] }).items).toEqual([]);

    const unknown = 'A'.repeat(43);
    expect((await anonymous.get(`/invitation/${unknown}`)).status).toBe(404);
    expect((await anonymous.put(`/invitation/${unknown}`)).status).toBe(404);
    expect((await anonymous.get('/invitation/short')).status).toBe(422);
  });

  it("a sign-up with the link's token is confirmed at once and joins; the id alone, another address or a used link is not enough", async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const email = `linked${Date.now()}@example.com`;
    const { token } = await invite(admin, { email, name: 'Lina', surname: 'Linaitė', role: 'admin' });
    const id = invitationIdOf(token);
    const client = cognito();
    const signUp = (who: string, validation: Record<string, string> | undefined) =>
      client.send(
        new SignUpCommand({
          ClientId: LOCAL_CLIENT_ID,
          Username: who,
          Password: 'Passw0rdOk',
          UserAttributes: [
            { Name: 'email', Value: who },
            { Name: COGNITO_ATTRIBUTES.invitationId, Value: id },
          ],
          ValidationData: validation && Object.entries(validation).map(([Name, Value]) => ({ Name, Value })),
        }),
      );
    try {
      // The invitation's id is listed to the company's admins: with it alone, the address still needs its code
      const intruder = `intruder${Date.now()}@example.com`;
      expect((await signUp(intruder, undefined)).UserConfirmed).toBe(false);
      expect(t.stack.cognito.lastCode(intruder)).toMatch(/^\d{6}$/);
      // The token for another address, or a token of another invitation, confirms nothing either
      const other = `other${Date.now()}@example.com`;
      expect((await signUp(other, { [INVITATION_TOKEN_VALIDATION_KEY]: token })).UserConfirmed).toBe(false);
      const { token: otherToken } = await invite(admin, { email: `third${Date.now()}@example.com` });
      const sameAddress = `same${Date.now()}@example.com`;
      expect((await signUp(sameAddress, { [INVITATION_TOKEN_VALIDATION_KEY]: otherToken })).UserConfirmed).toBe(false);

      // The invitee, with the token of the mailed link: confirmed, no code mailed, a member with the invited role
      const out = await signUp(email, { [INVITATION_TOKEN_VALIDATION_KEY]: token });
      expect(out.UserConfirmed).toBe(true);
      expect(t.stack.cognito.lastCode(email)).toBeUndefined();
      const member = await signIn(t.stack, { email, password: 'Passw0rdOk' });
      const companies = (await apiClient(t.stack.apiUrl, member).get('/companies')).body as { items: Array<{ company_id: string; role: string }> };
      expect(companies.items).toEqual([expect.objectContaining({ company_id: admin.companyId, role: 'admin' })]);
      // The link is used now: another address cannot be confirmed with it
      const late = `late${Date.now()}@example.com`;
      expect((await signUp(late, { [INVITATION_TOKEN_VALIDATION_KEY]: token })).UserConfirmed).toBe(false);
    } finally {
      client.destroy();
    }
  });

  it('an invitation id for another e-mail does not let a sign-up join the company', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const { token } = await invite(admin, { email: `meant${Date.now()}@example.com` });
    const intruder = await signUpInvited(`intruder${Date.now()}@example.com`, 'Passw0rdOk', invitationIdOf(token));
    expect(((await intruder.api.get('/companies')).body as { items: unknown[] }).items).toEqual([]);
    // the invitation is still usable by the right person
    expect((await apiClient(t.stack.apiUrl).get(`/invitation/${token}`)).status).toBe(200);
  });

  it('edits a member: name, surname, role and Email-in prefix; the prefix is unique and validated', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const email = `edit${Date.now()}@example.com`;
    const { token } = await invite(admin, { email, name: 'Rasa', surname: 'Rasaitė' });
    const member = await signUpInvited(email, 'Passw0rdOk', invitationIdOf(token));
    const id = subOf(member.token);
    const q = `?company_id=${admin.companyId}`;

    const bad = await admin.api.put(`/company/users/${id}${q}`, { email_prefix: 'a@b' });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ details: [{ path: ['email_prefix'], message: 'Imvalid email' }] });
    expect((await admin.api.put(`/company/users/${id}${q}`, { email_prefix: 'abc' })).status).toBe(422);
    expect((await admin.api.put(`/company/users/${id}${q}`, { email: 'x@y.z' })).status).toBe(422);

    const memberLive = await openLiveChannel(t.stack.wsUrl, member.token, 'ALL');
    const adminLive = await openLiveChannel(t.stack.wsUrl, admin.token, admin.companyId);
    const changed = await admin.api.put(`/company/users/${id}${q}`, { name: 'Rasa', surname: 'Naujoji', role: 'admin', email_prefix: `rasa.${Date.now()}` });
    expect(changed.status).toBe(200);
    // the member's open screens learn their new role at once; nobody else is told it
    expect((await memberLive.waitFor('membership', 5000)).payload).toEqual({ company_id: admin.companyId, role: 'admin' });
    await new Promise((r) => setTimeout(r, 200));
    expect(adminLive.messages.filter((m) => m.event === 'membership')).toEqual([]);
    memberLive.close();
    adminLive.close();
    expect(changed.body).toMatchObject({ surname: 'Naujoji', role: 'admin', can_be_deleted: true });
    const newAddress = (changed.body as { email: string }).email;
    // the old address is kept for this company only (never another company's), the new one is claimed for this member
    const oldClaim = await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.emailIn('rasa.rasaite@in.receipts.local') }));
    expect(oldClaim.Item).toMatchObject({ kind: 'released', released_company_id: admin.companyId });
    expect(oldClaim.Item!.company_id).toBeUndefined();
    const claim = await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.emailIn(newAddress) }));
    expect(claim.Item).toMatchObject({ company_id: admin.companyId, user_id: id });
    // the member now administers the company
    expect((await member.api.get(`/company/users${q}`)).status).toBe(200);

    // another member cannot take the same prefix
    const email2 = `edit2${Date.now()}@example.com`;
    const second = await invite(admin, { email: email2, name: 'Tomas', surname: 'Tomaitis' });
    const member2 = await signUpInvited(email2, 'Passw0rdOk', invitationIdOf(second.token));
    const taken = await admin.api.put(`/company/users/${subOf(member2.token)}${q}`, { email_prefix: newAddress.split('@')[0] });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ details: [{ path: ['email_prefix'], message: 'This Email-in address is already taken' }] });
  });

  it('keeps the last admin and yourself: can_be_deleted false, demotion refused, deletion refused', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const self = subOf(admin.token);
    const q = `?company_id=${admin.companyId}`;
    expect((await admin.api.put(`/company/users/${self}${q}`, { role: 'basic' })).status).toBe(409);
    expect((await admin.api.delete(`/company/users/${self}${q}`)).status).toBe(409);
    const users = (await admin.api.get(`/company/users${q}`)).body as Users;
    expect(users.items).toEqual([expect.objectContaining({ user_id: self, can_be_deleted: false, role: 'admin' })]);
  });

  it('deletes a member: the membership goes, their Email-in claim is released to the company, their account stays', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const email = `gone${Date.now()}@example.com`;
    const { token } = await invite(admin, { email, name: 'Laura', surname: 'Laukaitė' });
    const member = await signUpInvited(email, 'Passw0rdOk', invitationIdOf(token));
    const id = subOf(member.token);
    const q = `?company_id=${admin.companyId}`;
    const before = (await admin.api.get(`/company/users${q}`)).body as Users;
    const address = before.items.find((u) => u.user_id === id)!.email;

    const deleted = await admin.api.delete(`/company/users/${id}${q}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, user_id: id });
    const after = (await admin.api.get(`/company/users${q}`)).body as Users;
    expect(after.items.map((u) => u.user_id)).toEqual([subOf(admin.token)]);
    const claim = await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.emailIn(address) }));
    expect(claim.Item).toMatchObject({ kind: 'released', released_company_id: admin.companyId, address });
    expect(claim.Item!.company_id).toBeUndefined();
    expect(claim.Item!.user_id).toBeUndefined();
    // the former member keeps their account but no longer reaches the company
    expect((await member.api.get('/user')).status).toBe(200);
    expect((await member.api.get(`/receipts${q}`)).status).toBe(403);
    expect((await admin.api.delete(`/company/users/${id}${q}`)).status).toBe(404);
  });

  it("a released Email-in address is never given to another company: mail to it is not taken; its own company may reuse it", async () => {
    const adminA = await registeredUser(t.stack, 'teamadmin');
    const adminB = await registeredUser(t.stack, 'teamadmin');
    const unique = Date.now().toString(36);
    const surname = `Adresaitė${unique}`;
    const base = `aldona.adresaite${unique}`;
    const domain = '@in.receipts.local';
    const join = async (admin: typeof adminA, tag: string) => {
      const email = `${tag}${Date.now()}@example.com`;
      const { token } = await invite(admin, { email, name: 'Aldona', surname });
      const member = await signUpInvited(email, 'Passw0rdOk', invitationIdOf(token));
      const users = (await admin.api.get(`/company/users?company_id=${admin.companyId}`)).body as Users;
      return { id: subOf(member.token), address: users.items.find((u) => u.user_id === subOf(member.token))!.email };
    };
    const claimOf = async (address: string) => (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.emailIn(address) }))).Item;

    // A member of company A gets the address, and is deleted: the address stays A's.
    const first = await join(adminA, 'reuse1');
    expect(first.address).toBe(`${base}${domain}`);
    expect((await adminA.api.delete(`/company/users/${first.id}?company_id=${adminA.companyId}`)).status).toBe(200);

    // The next person of that name in company B takes the next candidate, and cannot be given the address either.
    const second = await join(adminB, 'reuse2');
    expect(second.address).toBe(`${base}2${domain}`);
    expect(await claimOf(`${base}${domain}`)).toMatchObject({ kind: 'released', released_company_id: adminA.companyId });
    const taken = await adminB.api.put(`/company/users/${second.id}?company_id=${adminB.companyId}`, { email_prefix: base });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ details: [{ path: ['email_prefix'], message: 'This Email-in address is already taken' }] });

    // Suppliers still mailing the old address: refused during the SMTP dialogue (550), as an unknown address.
    const transport = nodemailer.createTransport({ host: t.stack.smtp.host, port: t.stack.smtp.port, secure: false, ignoreTLS: true });
    const raw = await new MailComposer({
      from: 'billing@supplier.example',
      to: `${base}${domain}`,
      subject: 'Invoice for Aldona',
      text: 'attached',
      attachments: [{ filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n') }],
    })
      .compile()
      .build();
    await expect(transport.sendMail({ envelope: { from: 'billing@supplier.example', to: [`${base}${domain}`] }, raw })).rejects.toMatchObject({ responseCode: 550 });
    transport.close();
    await t.stack.emailJobs.idle();
    await t.stack.jobs.idle();
    for (const admin of [adminA, adminB]) {
      expect(((await admin.api.get(`/receipts?company_id=${admin.companyId}`)).body as { items: unknown[] }).items).toEqual([]);
    }

    // Company A may give it again (a new colleague of that name, or the same person back).
    const third = await join(adminA, 'reuse3');
    expect(third.address).toBe(`${base}${domain}`);
    expect(await claimOf(`${base}${domain}`)).toMatchObject({ kind: 'member', company_id: adminA.companyId, user_id: third.id });

    // Moved to another prefix, the address is released to A again: still not B's.
    const moved = await adminA.api.put(`/company/users/${third.id}?company_id=${adminA.companyId}`, { email_prefix: `${base}.new` });
    expect(moved.status).toBe(200);
    expect(await claimOf(`${base}${domain}`)).toMatchObject({ kind: 'released', released_company_id: adminA.companyId });
    expect((await adminB.api.put(`/company/users/${second.id}?company_id=${adminB.companyId}`, { email_prefix: base })).status).toBe(409);
    // …and A may take it back.
    expect((await adminA.api.put(`/company/users/${third.id}?company_id=${adminA.companyId}`, { email_prefix: base })).status).toBe(200);
    expect(await claimOf(`${base}${domain}`)).toMatchObject({ kind: 'member', company_id: adminA.companyId, user_id: third.id });

    // Company A deleted: its members' addresses are released too, not given to the next Aldona of company B.
    expect((await adminA.api.post('/company', { company_name: 'Antra UAB', code: '300000002' })).status).toBe(201);
    expect((await adminA.api.delete(`/company?company_id=${adminA.companyId}`)).status).toBe(200);
    expect(await claimOf(`${base}${domain}`)).toMatchObject({ kind: 'released', released_company_id: adminA.companyId });
    const fourth = await join(adminB, 'reuse4');
    expect(fourth.address).toBe(`${base}3${domain}`);
  }, 120_000);

  it('an invitation of a deleted company cannot be accepted: no membership, no Email-in address; the purge removes it', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const created = await admin.api.post('/company', { company_name: 'Dingusi UAB', code: '300000003' });
    expect(created.status).toBe(201);
    const gone = (created.body as { company_id: string }).company_id;
    const unique = Date.now().toString(36);
    const existing = await registeredUser(t.stack, 'existing');
    const newEmail = `ghost${unique}@example.com`;
    const toExisting = await invite({ ...admin, companyId: gone }, { email: existing.user.email, name: 'Jonas', surname: `Dingęs${unique}` });
    const toNew = await invite({ ...admin, companyId: gone }, { email: newEmail, name: 'Ghost', surname: `User${unique}` });
    expect(toExisting.res.body).toMatchObject({ new_account_required: false });
    expect(toNew.res.body).toMatchObject({ new_account_required: true });
    const ids = [toExisting.token, toNew.token].map(invitationIdOf);
    const item = async (key: { pk: string; sk: string }) => (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: key }))).Item;
    const domain = '@in.receipts.local';

    expect((await admin.api.delete(`/company?company_id=${gone}`)).status).toBe(200);

    // The invitation items are still there until the purge: the link is refused all the same.
    for (const id of ids) expect(await item(keys.invitation(id))).toBeDefined();
    const anonymous = apiClient(t.stack.apiUrl);
    expect(await anonymous.get(`/invitation/${toExisting.token}`)).toMatchObject({ status: 404, body: { message: 'Invitation not found' } });
    const put = await anonymous.put(`/invitation/${toExisting.token}`);
    expect(put).toMatchObject({ status: 404, body: { message: 'Invitation not found' } });
    expect(await item(keys.membership(subOf(existing.token), gone))).toBeUndefined();
    expect(await item(keys.emailIn(`jonas.dinges${unique}${domain}`))).toBeUndefined();
    expect(((await existing.api.get('/companies')).body as { items: { company_id: string }[] }).items.map((c) => c.company_id)).toEqual([existing.companyId]);
    expect((await existing.api.get(`/receipts?company_id=${gone}`)).status).toBe(403);
    expect((await item(keys.invitation(ids[0]!)))!.used_at).toBeUndefined();

    // A sign-up carrying the invitation id gets an account of its own, without the deleted company.
    const invited = await signUpInvited(newEmail, 'Passw0rdOk', ids[1]!);
    expect(((await invited.api.get('/companies')).body as { items: unknown[] }).items).toEqual([]);
    expect((await invited.api.get('/user')).body).toMatchObject({ name: '', surname: '' });
    expect(await item(keys.membership(subOf(invited.token), gone))).toBeUndefined();
    expect((await invited.api.get(`/receipts?company_id=${gone}`)).status).toBe(403);
    expect((await item(keys.invitation(ids[1]!)))!.used_at).toBeUndefined();
    const address = `ghost.user${unique}${domain}`;
    expect(await item(keys.emailIn(address))).toBeUndefined();
    // Mail to the address it would have had is refused during the SMTP dialogue.
    const transport = nodemailer.createTransport({ host: t.stack.smtp.host, port: t.stack.smtp.port, secure: false, ignoreTLS: true });
    const raw = await new MailComposer({ from: 'billing@supplier.example', to: address, subject: 'Invoice', text: 'attached' }).compile().build();
    await expect(transport.sendMail({ envelope: { from: 'billing@supplier.example', to: [address] }, raw })).rejects.toMatchObject({ responseCode: 550 });
    transport.close();

    // The purge (queued by the delete) removes the invitations and the pointers to them.
    await t.stack.purgeJobs.idle(120_000);
    expect(t.stack.purgeJobs.deadLetters).toHaveLength(0);
    for (const id of ids) expect(await item(keys.invitation(id))).toBeUndefined();
    expect(await item(keys.currentInvitation(gone, existing.user.email.toLowerCase()))).toBeUndefined();
    expect(await item(keys.currentInvitation(gone, newEmail))).toBeUndefined();
    expect(await anonymous.put(`/invitation/${toNew.token}`)).toMatchObject({ status: 404, body: { message: 'Invitation not found' } });
  }, 180_000);

  it('keeps tenants apart: basic members get 403, other companies 403/404, anonymous callers 401', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const outsider = await registeredUser(t.stack, 'outsider');
    const email = `basic${Date.now()}@example.com`;
    const { token } = await invite(admin, { email });
    const basic = await signUpInvited(email, 'Passw0rdOk', invitationIdOf(token));
    const basicId = subOf(basic.token);
    const q = `?company_id=${admin.companyId}`;
    const invitation = { name: 'Ona', surname: 'Onaitė', email: 'someone@example.com', role: 'basic' };

    // a basic member of the company
    expect((await basic.api.get(`/company/users${q}`)).status).toBe(403);
    expect((await basic.api.post(`/invitation${q}`, invitation)).status).toBe(403);
    expect((await basic.api.put(`/company/users/${subOf(admin.token)}${q}`, { name: 'Hacked' })).status).toBe(403);
    expect((await basic.api.delete(`/company/users/${subOf(admin.token)}${q}`)).status).toBe(403);

    // an admin of another company: with the victim's company id 403, with their own company 404 for the victim's users
    expect((await outsider.api.get(`/company/users${q}`)).status).toBe(403);
    expect((await outsider.api.post(`/invitation${q}`, invitation)).status).toBe(403);
    expect((await outsider.api.put(`/company/users/${basicId}${q}`, { name: 'Hacked' })).status).toBe(403);
    expect((await outsider.api.delete(`/company/users/${basicId}${q}`)).status).toBe(403);
    const own = `?company_id=${outsider.companyId}`;
    expect((await outsider.api.put(`/company/users/${basicId}${own}`, { name: 'Hacked' })).status).toBe(404);
    expect((await outsider.api.delete(`/company/users/${basicId}${own}`)).status).toBe(404);
    const body = (await outsider.api.post(`/invitation${own}`, { ...invitation, company_id: admin.companyId })).status;
    expect(body).toBe(400);

    // anonymous: 401 on every team call
    const anonymous = apiClient(t.stack.apiUrl);
    expect((await anonymous.get(`/company/users${q}`)).status).toBe(401);
    expect((await anonymous.post(`/invitation${q}`, invitation)).status).toBe(401);
    expect((await anonymous.put(`/company/users/${basicId}${q}`, { name: 'Hacked' })).status).toBe(401);
    expect((await anonymous.delete(`/company/users/${basicId}${q}`)).status).toBe(401);

    // nothing changed
    const users = (await admin.api.get(`/company/users${q}`)).body as Users;
    expect(users.items.map((u) => u.name)).not.toContain('Hacked');
    expect(users.items).toHaveLength(2);

    // GET /company/users/me: every member reads their own card (a Basic user their own Email-in address), nobody
    // else's; it needs a company the caller is a member of
    const basicCard = users.items.find((u) => u.user_id === basicId)!;
    const mine = await basic.api.get(`/company/users/me${q}`);
    expect(mine.status).toBe(200);
    // (its own card is never deletable by its reader; an administrator may delete it)
    expect(mine.body).toEqual({ ...basicCard, can_be_deleted: false });
    expect((mine.body as { email: string }).email).toMatch(/@in\.receipts\.local$/);
    expect((mine.body as { email: string }).email).not.toBe(((await admin.api.get('/companies')).body as { items: { company_id: string; email: string }[] }).items.find((c) => c.company_id === admin.companyId)!.email);
    const adminCard = (await admin.api.get(`/company/users/me${q}`)).body as { user_id: string; is_owner: boolean; can_be_deleted: boolean };
    expect(adminCard).toMatchObject({ user_id: subOf(admin.token), is_owner: true, can_be_deleted: false });
    expect((await outsider.api.get(`/company/users/me${q}`)).status).toBe(403);
    expect(((await outsider.api.get(`/company/users/me${own}`)).body as { user_id: string }).user_id).toBe(subOf(outsider.token));
    expect((await basic.api.get('/company/users/me')).status).toBe(422);
    expect((await anonymous.get(`/company/users/me${q}`)).status).toBe(401);
  });

  it('lists the pending invitations to administrators and cancels one: its link stops working; sent again, one link is valid', async () => {
    const admin = await registeredUser(t.stack, 'teamadmin');
    const outsider = await registeredUser(t.stack, 'outsider');
    const q = `?company_id=${admin.companyId}`;
    const email = `pending${Date.now()}@example.com`;
    const first = await invite(admin, { email, name: 'Rūta', surname: 'Laukienė' });
    const second = await invite(admin, { email, name: 'Rūta', surname: 'Laukienė', role: 'admin' });
    const otherEmail = `other${Date.now()}@example.com`;
    const other = await invite(admin, { email: otherEmail, name: 'Jonas', surname: 'Kitas' });
    type Pending = { items: { id: string; email: string; role: string; invited_by: { name: string } | null }[] };
    const listed = await admin.api.get(`/company/invitations${q}`);
    expect(listed.status).toBe(200);
    // newest first; the one sent again replaced the first (whose link no longer works)
    expect((listed.body as Pending).items.map((i) => [i.id, i.role])).toEqual([
      [invitationIdOf(other.token), 'basic'],
      [invitationIdOf(second.token), 'admin'],
    ]);
    expect((listed.body as Pending).items[0]!.invited_by).toEqual({ name: admin.user.name, surname: admin.user.surname });
    expect(JSON.stringify(listed.body)).not.toContain(second.token);
    expect((await apiClient(t.stack.apiUrl).get(`/invitation/${first.token}`)).status).toBe(404);
    // tenants apart: another company's admin neither sees nor cancels it; a basic member is refused
    expect((await outsider.api.get(`/company/invitations${q}`)).status).toBe(403);
    expect((await outsider.api.delete(`/company/invitations/${invitationIdOf(second.token)}${q}`)).status).toBe(403);
    const own = `?company_id=${outsider.companyId}`;
    expect(((await outsider.api.get(`/company/invitations${own}`)).body as Pending).items).toEqual([]);
    expect((await outsider.api.delete(`/company/invitations/${invitationIdOf(second.token)}${own}`)).status).toBe(404);
    expect((await apiClient(t.stack.apiUrl).get(`/company/invitations${q}`)).status).toBe(401);
    const basic = await signUpInvited(otherEmail, 'Passw0rdOk', invitationIdOf(other.token));
    expect((await basic.api.get(`/company/invitations${q}`)).status).toBe(403);
    expect((await basic.api.delete(`/company/invitations/${invitationIdOf(second.token)}${q}`)).status).toBe(403);
    // accepted: no longer pending, and it cannot be cancelled
    expect(((await admin.api.get(`/company/invitations${q}`)).body as Pending).items.map((i) => i.id)).toEqual([invitationIdOf(second.token)]);
    const accepted = await admin.api.delete(`/company/invitations/${invitationIdOf(other.token)}${q}`);
    expect(accepted.status).toBe(409);
    expect(accepted.body).toMatchObject({ message: 'This invitation has already been used' });
    // cancelled: gone from the list, the link answers not found, a second cancel too; a malformed id is refused
    const cancelled = await admin.api.delete(`/company/invitations/${invitationIdOf(second.token)}${q}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ cancelled: true, id: invitationIdOf(second.token) });
    expect(((await admin.api.get(`/company/invitations${q}`)).body as Pending).items).toEqual([]);
    const link = await apiClient(t.stack.apiUrl).get(`/invitation/${second.token}`);
    expect(link.status).toBe(404);
    expect(link.body).toMatchObject({ message: 'Invitation not found' });
    expect((await admin.api.delete(`/company/invitations/${invitationIdOf(second.token)}${q}`)).status).toBe(404);
    expect((await admin.api.delete(`/company/invitations/not-an-id${q}`)).status).toBe(422);
  });

  it('the same invitation sent twice at once (a double click): both mailed, exactly one link works, the newer, and it is the one listed', async () => {
    const admin = await registeredUser(t.stack, 'doubleclick');
    const q = `?company_id=${admin.companyId}`;
    const email = `twice${Date.now()}@example.com`;
    const before = t.stack.mail.messages().length;
    const body = { name: 'Jonas', surname: 'Jonaitis', email, role: 'basic' };
    const posted = await Promise.all([1, 2].map(() => admin.api.post(`/invitation${q}`, body)));
    expect(posted.map((r) => r.status)).toEqual([201, 201]);
    const mailed = async () => t.stack.mail.messages().slice(before).filter((m) => m.to.join(',').includes(email));
    for (let waited = 0; (await mailed()).length < 2 && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    const tokens = (await mailed()).map((m) => new URL(m.links.find((l) => l.includes('/signup/invite?token='))!).searchParams.get('token')!);
    expect(tokens).toHaveLength(2);
    const reads = await Promise.all(tokens.map((token) => apiClient(t.stack.apiUrl).get(`/invitation/${token}`)));
    expect(reads.map((r) => r.status).sort()).toEqual([200, 404]);
    const valid = tokens[reads.findIndex((r) => r.status === 200)]!;
    type Pending = { items: { id: string; email: string; created_at: string }[] };
    const listed = ((await admin.api.get(`/company/invitations${q}`)).body as Pending).items.filter((i) => i.email === email);
    expect(listed.map((i) => i.id)).toEqual([invitationIdOf(valid)]);
    // the newer of the two (by expiry = creation + 7 days) is the one that stays
    const answers = posted.map((r) => r.body as { id: string; expires_at: string });
    const kept = answers.find((a) => a.id === invitationIdOf(valid))!;
    expect(answers.every((a) => a.expires_at <= kept.expires_at)).toBe(true);
  });

  it("a company's invitations of a UTC day stop at the cap: the next answers 429, stores and mails nothing; another company is not held", async () => {
    const admin = await registeredUser(t.stack, 'invitecap');
    const other = await registeredUser(t.stack, 'invitecapother');
    const q = `?company_id=${admin.companyId}`;
    const day = new Date().toISOString().slice(0, 10);
    const counter = async () => (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.invitationsMailed(admin.companyId, day) }))).Item;
    await invite(admin, { email: `capped-first${Date.now()}@example.com` });
    expect(await counter()).toMatchObject({ mailed: 1, type: 'INVITESENT', company_id: admin.companyId, ttl: Date.parse(`${day}T00:00:00Z`) / 1000 + 3 * 86_400 });
    // The day's other invitations, as if sent (T13's count up to the cap).
    const store = deps().team;
    while (await store.countInvitationMailed(admin.companyId, day, INVITATIONS_PER_DAY));
    expect((await counter())?.mailed).toBe(INVITATIONS_PER_DAY);
    const before = t.stack.mail.messages().length;
    const email = `capped${Date.now()}@example.com`;
    const refused = await admin.api.post(`/invitation${q}`, { name: 'Ona', surname: 'Onaitė', email, role: 'basic' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'QuotaExceeded', message: INVITATIONS_TODAY });
    type Pending = { items: { email: string }[] };
    expect(((await admin.api.get(`/company/invitations${q}`)).body as Pending).items.map((i) => i.email)).not.toContain(email);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.stack.mail.messages().slice(before).some((m) => m.to.join(',').includes(email))).toBe(false);
    expect((await counter())?.mailed).toBe(INVITATIONS_PER_DAY);
    // A count given back (a mail not sent) frees one place; another company has its own count.
    await store.uncountInvitationMailed(admin.companyId, day);
    await invite(admin, { email });
    await invite(other, { email: `other-company${Date.now()}@example.com` });
  });

  it('the local SES stand-in refuses calls not signed with local mode credentials', async () => {
    const res = await fetch(`${t.stack.url}/_ses/v2/email/outbound-emails`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        FromEmailAddress: 'x@example.com',
        Destination: { ToAddresses: ['spoof@example.com'] },
        Content: { Simple: { Subject: { Data: 'hi' }, Body: { Text: { Data: 'hi' } } } },
      }),
    });
    expect(res.status).toBe(403);
    expect(t.stack.mail.messages().some((m) => m.to.includes('spoof@example.com'))).toBe(false);
  });

  it('registration without an invitation still creates a company of ones own', async () => {
    const { api } = await registeredUser(t.stack, newUser('plain').email.split('@')[0]);
    expect(((await api.get('/companies')).body as { items: unknown[] }).items).toHaveLength(1);
  });
});
