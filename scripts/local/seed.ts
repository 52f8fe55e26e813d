import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  SignUpCommand,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { COGNITO_ATTRIBUTES } from '../../shared/schemas/auth';
import type { LocalStack } from './stack';
import { LOCAL_CLIENT_ID } from './stack';

export const DEMO_USER = {
  email: 'demo@receipts.local',
  password: 'Demo12345',
  name: 'Demo',
  surname: 'User',
  company: 'Demo Company UAB',
  company_code: '300000001',
};

/**
 * Registers a user through the local Cognito exactly as the web app does (sign-up, then the
 * printed confirmation code), so the post-confirmation trigger creates profile and company.
 * Returns false when the user already exists.
 */
export async function registerUser(stack: LocalStack, user: typeof DEMO_USER): Promise<boolean> {
  const client = new CognitoIdentityProviderClient({
    endpoint: stack.cognitoEndpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(
      new SignUpCommand({
        ClientId: LOCAL_CLIENT_ID,
        Username: user.email,
        Password: user.password,
        UserAttributes: [
          { Name: 'email', Value: user.email },
          { Name: COGNITO_ATTRIBUTES.name, Value: user.name },
          { Name: COGNITO_ATTRIBUTES.surname, Value: user.surname },
          { Name: COGNITO_ATTRIBUTES.company, Value: user.company },
          { Name: COGNITO_ATTRIBUTES.companyCode, Value: user.company_code },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof UsernameExistsException) return false;
    throw error;
  } 
  const code = stack.cognito.lastCode(user.email);
  if (!code) throw new Error(`no confirmation code was issued for ${user.email}`);
  await client.send(new ConfirmSignUpCommand({ ClientId: LOCAL_CLIENT_ID, Username: user.email, ConfirmationCode: code }));
  client.destroy();
  return true;
}

export async function seedDemo(stack: LocalStack): Promise<{ created: boolean }> {
  const created = await registerUser(stack, DEMO_USER);
  return { created };
}
