/**
 * An invitation is the word of the administrator who sent it: it ends when they stop being an administrator of the
 * company. Lowered to Basic or removed, their pending invitations are cancelled (gone from My Team, the link answers
 * 'Invitation not found'); and an acceptance checks, in its own transaction, that the sender is still an
 * administrator member, so an invitation the cancellation missed grants nothing either. Through the real handlers
 * against the local stand-ins.
 */
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { tableName } from '../../lambdas/adapters/ddb/table-ops';
import { invitationIdOf } from '../../lambdas/core/team/invitations';
import { COGNITO_ATTRIBUTES } from '../../shared/schemas/auth';
import { LOCAL_CLIENT_ID } from '../../scripts/local/stack';
import { addMembership, apiClient, registeredUser, signIn, startTestStack, subOf, type TestStack } from '../support/local-stack';

type User = Awaited<ReturnType<typeof registeredUser>>;
type Pending = { items: { id: string; email: string }[] };

describe('invitations of an administrator who is lowered to Basic or removed', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** POST /invitation as `sender` into `companyId`, then the token from the link in the caught mail. */
  async function invite(sender: User, companyId: string, email: string, role: 'admin' | 'basic' = 'admin') {
    const before = t.stack.mail.messages().length;
    const res = await sender.api.post(`/invitation?company_id=${companyId}`, { name: 'Jonas', surname: 'Friend', email, role });
    expect(res.status).toBe(201);
    const mail = await t.stack.mail.waitFor(email, { after: before });
    return new URL(mail.links.find((l) => l.includes('/signup/invite?token='))!).searchParams.get('token')!;
  }

  /** The owner's company with a second administrator (B) and an existing account (X) to invite. */
  async function setUp(prefix: string) {
    const owner = await registeredUser(t.stack, `${prefix}owner`);
    const b = await registeredUser(t.stack, `${prefix}b`);
    const x = await registeredUser(t.stack, `${prefix}x`);
    await addMembership(subOf(b.token), owner.companyId, 'admin');
    return { owner, b, x, q: `company_id=${owner.companyId}` };
  }

  const pendingEmails = async (owner: User) => ((await owner.api.get(`/company/invitations?company_id=${owner.companyId}`)).body as Pending).items.map((i) => i.email);
  const memberIds = async (owner: User) =>
    ((await owner.api.get(`/company/users?company_id=${owner.companyId}`)).body as { items: { user_id: string }[] }).items.map((u) => u.user_id);

  it('lowered to Basic: the invitations they sent are cancelled and the link grants nothing', async () => {
    const { owner, b, x, q } = await setUp('low');
    const token = await invite(b, owner.companyId, x.user.email);
    const ownToken = await invite(owner, owner.companyId, `kept${Date.now()}@example.com`, 'basic');
    expect(await pendingEmails(owner)).toContain(x.user.email);

    expect((await owner.api.put(`/company/users/${subOf(b.token)}?${q}`, { role: 'basic' })).status).toBe(200);

    // gone from My Team; the owner's own invitation stays
    const pending = await pendingEmails(owner);
    expect(pending).not.toContain(x.user.email);
    expect(pending).toHaveLength(1);
    expect((await apiClient(t.stack.apiUrl).get(`/invitation/${ownToken}`)).status).toBe(200);
    const anon = apiClient(t.stack.apiUrl);
    expect((await anon.get(`/invitation/${token}`)).body).toMatchObject({ message: 'Invitation not found' });
    const accept = await anon.put(`/invitation/${token}`);
    expect(accept.status).toBe(404);
    expect(accept.body).toMatchObject({ message: 'Invitation not found' });
    expect(await memberIds(owner)).not.toContain(subOf(x.token));
  });

  it('removed from the company: the invitations they sent are cancelled and the link grants nothing', async () => {
    const { owner, b, x, q } = await setUp('rem');
    const token = await invite(b, owner.companyId, x.user.email);
    expect((await owner.api.delete(`/company/users/${subOf(b.token)}?${q}`)).status).toBe(200);

    expect(await pendingEmails(owner)).not.toContain(x.user.email);
    const accept = await apiClient(t.stack.apiUrl).put(`/invitation/${token}`);
    expect(accept.status).toBe(404);
    expect(accept.body).toMatchObject({ message: 'Invitation not found' });
    expect(await memberIds(owner)).not.toContain(subOf(x.token));
  });

  it('an invitation left behind (its sender lowered or removed without the cancellation) is refused on acceptance', async () => {
    const { owner, b, x } = await setUp('race');
    const bId = subOf(b.token);
    // An existing account's link, with its sender lowered to Basic by a write the cancellation did not follow
    const token = await invite(b, owner.companyId, x.user.email);
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.membership(bId, owner.companyId),
        UpdateExpression: 'SET #r = :basic',
        ExpressionAttributeNames: { '#r': 'role' },
        ExpressionAttributeValues: { ':basic': 'basic' },
      }),
    );
    const anon = apiClient(t.stack.apiUrl);
    expect((await anon.get(`/invitation/${token}`)).status).toBe(404);
    const accept = await anon.put(`/invitation/${token}`);
    expect(accept.status).toBe(404);
    expect(accept.body).toMatchObject({ message: 'Invitation not found' });
    expect(await memberIds(owner)).not.toContain(subOf(x.token));

    // A new person's sign-up with the link of a sender no longer a member: an account without the company
    await addMembership(bId, owner.companyId, 'admin');
    const email = `newcomer${Date.now()}@example.com`;
    const newToken = await invite(b, owner.companyId, email);
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.membership(bId, owner.companyId) }));
    const cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.cognitoEndpoint, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await cognito.send(
      new SignUpCommand({
        ClientId: LOCAL_CLIENT_ID,
        Username: email,
        Password: 'Passw0rdOk',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: COGNITO_ATTRIBUTES.invitationId, Value: invitationIdOf(newToken) },
        ],
      }),
    );
    await cognito.send(new ConfirmSignUpCommand({ ClientId: LOCAL_CLIENT_ID, Username: email, ConfirmationCode: t.stack.cognito.lastCode(email)! }));
    cognito.destroy();
    const newcomer = apiClient(t.stack.apiUrl, await signIn(t.stack, { email, password: 'Passw0rdOk' }));
    expect(((await newcomer.get('/companies')).body as { items: unknown[] }).items).toEqual([]);
    expect(await memberIds(owner)).toHaveLength(1);
  });
});
