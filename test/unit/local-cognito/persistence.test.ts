import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  GetUserCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_ID, PASSWORD, USER_POOL_ID, startHarness, uniqueEmail } from './helpers';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'local-cognito-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const signIn = (client: CognitoIdentityProviderClient, email: string, password = PASSWORD) =>
  client.send(
    new InitiateAuthCommand({
      ClientId: CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );

describe('persistence with dataDir', () => {
  it('keeps users, sessions and the signing key across a restart', async () => {
    const first = await startHarness({ dataDir });
    const port = Number(new URL(first.url).port);
    const email = uniqueEmail();
    await first.client.send(new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD }));
    await first.client.send(
      new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: first.cognito.lastCode(email) }),
    );
    const pending = uniqueEmail('pending');
    await first.client.send(new SignUpCommand({ ClientId: CLIENT_ID, Username: pending, Password: PASSWORD }));
    const pendingCode = first.cognito.lastCode(pending);
    const tokens = (await signIn(first.client, email)).AuthenticationResult!;
    const jwksBefore: unknown = await (await fetch(first.cognito.jwksUri)).json();
    await first.close();

    expect((await readdir(dataDir)).sort()).toEqual(['keys.json', 'users.json']);
    const stored = await readFile(path.join(dataDir, 'users.json'), 'utf8');
    expect(stored).not.toContain(PASSWORD); // only hashes
    expect(stored).not.toContain(tokens.RefreshToken!);

    const second = await startHarness({ dataDir, port });
    try {
      expect(await (await fetch(second.cognito.jwksUri)).json()).toEqual(jwksBefore);
      // tokens issued before the restart stay valid
      const user = await second.client.send(new GetUserCommand({ AccessToken: tokens.AccessToken }));
      expect(user.Username).toBe(email.toLowerCase());
      const refreshed = await second.client.send(
        new InitiateAuthCommand({
          ClientId: CLIENT_ID,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken! },
        }),
      );
      expect(refreshed.AuthenticationResult?.AccessToken).toBeTruthy();
      expect((await signIn(second.client, email)).AuthenticationResult?.AccessToken).toBeTruthy();
      // a pending sign-up's code survives too (lastCode falls back to the stored code)
      expect(second.cognito.lastCode(pending)).toBe(pendingCode);
      await second.client.send(
        new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: pending, ConfirmationCode: pendingCode }),
      );
      expect((await signIn(second.client, pending)).AuthenticationResult?.AccessToken).toBeTruthy();
    } finally {
      await second.close();
    }
  });

  it('survives SIGKILL in the middle of writes', async () => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/child-server.ts')], {
      cwd: repoRoot,
      env: { ...process.env, LOCAL_COGNITO_DATA_DIR: dataDir, LOCAL_COGNITO_POOL_ID: USER_POOL_ID, LOCAL_COGNITO_CLIENT_ID: CLIENT_ID },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /READY (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', () => reject(new Error(`child exited before READY: ${stderr}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    const client = new CognitoIdentityProviderClient({
      region: 'eu-west-1',
      endpoint: url,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    });
    const answered: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const email = uniqueEmail('killed').toLowerCase();
        await client.send(new SignUpCommand({ ClientId: CLIENT_ID, Username: email, Password: PASSWORD }));
        answered.push(email);
      }
      // fire more writes and kill the process while they are in flight
      const inFlight = Array.from({ length: 8 }, () =>
        client
          .send(new SignUpCommand({ ClientId: CLIENT_ID, Username: uniqueEmail('inflight'), Password: PASSWORD }))
          .catch(() => undefined),
      );
      await new Promise((resolve) => setTimeout(resolve, 40));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      await Promise.all(inFlight);
    } finally {
      client.destroy();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }

    // the state file is whole JSON (never torn) and holds every answered sign-up
    const state = JSON.parse(await readFile(path.join(dataDir, 'users.json'), 'utf8')) as {
      users: Array<{ username: string }>;
    };
    const names = state.users.map((u) => u.username);
    for (const email of answered) expect(names).toContain(email);

    const restarted = await startHarness({ dataDir, port });
    try {
      expect((await readdir(dataDir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      for (const email of answered) {
        const got = await restarted.client.send(new AdminGetUserCommand({ UserPoolId: USER_POOL_ID, Username: email }));
        expect(got.UserStatus).toBe('UNCONFIRMED');
      }
      const email = answered[0];
      await restarted.client.send(
        new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: restarted.cognito.lastCode(email) }),
      );
      expect((await signIn(restarted.client, email)).AuthenticationResult?.AccessToken).toBeTruthy();
    } finally {
      await restarted.close();
    }
  }, 30_000);
});
