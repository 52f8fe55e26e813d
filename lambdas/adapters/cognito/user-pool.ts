/**
 * The user pool's users (Cognito; local mode's stand-in, scripts/local/cognito, answers the same calls at
 * AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER). The pool's region is the one its id names (`eu-west-1_…`).
 */
import { AdminDeleteUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { IdentityDirectory } from '../../core/ports';
import { env } from '../../runtime/env';

let client: CognitoIdentityProviderClient | undefined;
let clientRegion: string | undefined;

function cognito(region: string): CognitoIdentityProviderClient {
  if (!client || clientRegion !== region) {
    client?.destroy();
    client = new CognitoIdentityProviderClient({ region });
    clientRegion = region;
  }
  return client;
}

/** Local mode and tests change the endpoint between runs. */
export function resetCognitoClient(): void {
  client?.destroy();
  client = undefined;
  clientRegion = undefined;
}

export const cognitoUserPool: IdentityDirectory = {
  async deleteUser(userId) {
    const poolId = env().USER_POOL_ID;
    if (!poolId) throw new Error('USER_POOL_ID is not set');
    const region = poolId.split('_')[0] || 'eu-west-1';
    try {
      // The pool signs in by email (an alias): a user's username is their subject.
      await cognito(region).send(new AdminDeleteUserCommand({ UserPoolId: poolId, Username: userId }));
    } catch (error) {
      if ((error as { name?: string }).name === 'UserNotFoundException') return;
      throw error;
    }
  },
};
