import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { COGNITO_ATTRIBUTES } from '../../shared/schemas/auth';
import type { LocalStack } from './stack';
import { LOCAL_CLIENT_ID } from './stack';

/** The demo company's second member: invited by the demo admin, a Basic user. */
export const DEMO_COLLEAGUE = {
  email: 'colleague@receipts.local',
  password: 'Demo12345',
  name: 'Rasa',
  surname: 'Colleague',
};

/**
 * Invites the demo colleague through the real path (POST /invitation, the mail caught locally, sign-up with
 * the invitation id, the printed confirmation code), so My Team shows two members.
 */
export async function seedDemoColleague(stack: LocalStack, adminToken: string, companyId: string): Promise<void> {
  const before = stack.mail.messages().length;
  const res = await fetch(`${stack.apiUrl}/invitation?company_id=${encodeURIComponent(companyId)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: DEMO_COLLEAGUE.name, surname: DEMO_COLLEAGUE.surname, email: DEMO_COLLEAGUE.email, role: 'basic' }),
  });
  if (res.status !== 201) throw new Error(`demo invitation failed (${res.status}): ${await res.text()}`);
  const invitation = (await res.json()) as { id: string };
  const mail = await stack.mail.waitFor(DEMO_COLLEAGUE.email, { after: before });
  if (!mail.links.some((l) => l.includes('/signup/invite?token='))) throw new Error('the demo invitation mail has no link');

  const client = new CognitoIdentityProviderClient({
    endpoint: stack.cognitoEndpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await client.send(
    new SignUpCommand({
      ClientId: LOCAL_CLIENT_ID,
      Username: DEMO_COLLEAGUE.email,
      Password: DEMO_COLLEAGUE.password,
      UserAttributes: [
        { Name: 'email', Value: DEMO_COLLEAGUE.email },
        { Name: COGNITO_ATTRIBUTES.invitationId, Value: invitation.id },
      ],
    }),
  );
  const code = stack.cognito.lastCode(DEMO_COLLEAGUE.email);
  if (!code) throw new Error(`no confirmation code was issued for ${DEMO_COLLEAGUE.email}`);
  await client.send(new ConfirmSignUpCommand({ ClientId: LOCAL_CLIENT_ID, Username: DEMO_COLLEAGUE.email, ConfirmationCode: code }));
  client.destroy();
}

/** An invitation of the demo company nobody has accepted yet: My Team lists it under the members. */
export const DEMO_INVITEE = { email: 'accountant@receipts.local', name: 'Jonas', surname: 'Accountant', role: 'admin' };

export async function seedPendingInvitation(stack: LocalStack, adminToken: string, companyId: string): Promise<void> {
  const res = await fetch(`${stack.apiUrl}/invitation?company_id=${encodeURIComponent(companyId)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...DEMO_INVITEE, message: 'Our books are here from now on.' }),
  });
  if (res.status !== 201) throw new Error(`demo invitation failed (${res.status}): ${await res.text()}`);
}
