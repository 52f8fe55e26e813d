import { AdminDeleteUserCommand, CognitoIdentityProviderClient, UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cognitoUserPool, resetCognitoClient } from '../../../lambdas/adapters/cognito/user-pool';
import { resetEnvCache } from '../../../lambdas/runtime/env';

const cognitoMock = mockClient(CognitoIdentityProviderClient);

beforeEach(() => {
  process.env.TABLE_NAME = 'unit-table';
  process.env.USER_POOL_ID = 'eu-west-1_Pool1';
  resetEnvCache();
  resetCognitoClient();
  cognitoMock.reset();
});
afterEach(() => {
  delete process.env.USER_POOL_ID;
  resetEnvCache();
  cognitoMock.reset();
});

describe('the user pool adapter', () => {
  it('deletes a user of the configured pool by their subject, in the pool’s region', async () => {
    cognitoMock.on(AdminDeleteUserCommand).resolves({});
    await cognitoUserPool.deleteUser('sub-1');
    const call = cognitoMock.commandCalls(AdminDeleteUserCommand)[0]!;
    expect(call.args[0].input).toEqual({ UserPoolId: 'eu-west-1_Pool1', Username: 'sub-1' });
    expect(await call.thisValue.config.region()).toBe('eu-west-1');
  });

  it('takes a user already gone as done (a retried deletion), and passes other failures on', async () => {
    cognitoMock.on(AdminDeleteUserCommand).rejectsOnce(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} })).rejectsOnce(new Error('throttled'));
    await expect(cognitoUserPool.deleteUser('sub-1')).resolves.toBeUndefined();
    await expect(cognitoUserPool.deleteUser('sub-1')).rejects.toThrow('throttled');
  });

  it('needs the pool id', async () => {
    delete process.env.USER_POOL_ID;
    resetEnvCache();
    await expect(cognitoUserPool.deleteUser('sub-1')).rejects.toThrow('USER_POOL_ID is not set');
  });
});
