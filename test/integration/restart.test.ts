import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, describe, expect, it } from 'vitest';
import { COGNITO_ATTRIBUTES } from '../../shared/schemas/auth';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLIENT_ID = 'local-web-client';

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/**
 * Starts `npm start`'s script as its own process and waits for the printed URL and the lines under it (the data
 * folder, the demo account): the pipe may hand them over in more than one piece.
 */
async function startProduct(dataDir: string): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/local/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOCAL_DATA_DIR: dataDir, SKIP_WEB_BUILD: '1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d.toString()));
  child.stderr!.on('data', (d) => (out += d.toString()));
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    const m = /running at (http:\/\/[\d.:]+)/.exec(out);
    if (m && /Demo account: /.test(out)) return { child, url: m[1]!, output: () => out };
    if (child.exitCode !== null) throw new Error(`exited early: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`no URL within 60 s: ${out}`);
}

function cognito(url: string) {
  return new CognitoIdentityProviderClient({
    endpoint: `${url}/cognito`,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function companiesOf(url: string, email: string, password: string) {
  const auth = await cognito(url).send(
    new InitiateAuthCommand({ ClientId: CLIENT_ID, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  const res = await fetch(`${url}/api/companies`, { headers: { authorization: `Bearer ${auth.AuthenticationResult!.AccessToken}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { items: { company_id: string; name: string }[] };
}

describe('npm start', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'receipts-restart-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs up, confirms with the printed code, signs in, and keeps the data after SIGKILL', async () => {
    // Prepare: a fresh product process
    const first = await startProduct(dataDir);
    children.push(first.child);
    expect(first.output()).toMatch(/Demo account: demo@receipts\.local/);
    const email = `restart${Date.now()}@example.com`;
    const password = 'Restart123';

    // Act: the whole sign-up path over HTTP
    await cognito(first.url).send(
      new SignUpCommand({
        ClientId: CLIENT_ID,
        Username: email,
        Password: password,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: COGNITO_ATTRIBUTES.name, Value: 'Rita' },
          { Name: COGNITO_ATTRIBUTES.surname, Value: 'Restart' },
          { Name: COGNITO_ATTRIBUTES.company, Value: 'Restart UAB' },
          { Name: COGNITO_ATTRIBUTES.companyCode, Value: '111222333' },
        ],
      }),
    );
    let code: string | undefined;
    for (let i = 0; i < 50 && !code; i++) {
      code = new RegExp(`code for ${email.replace(/[.]/g, '\\.')}: (\\d+)`).exec(first.output())?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    expect(code).toMatch(/^\d{6}$/);
    await cognito(first.url).send(new ConfirmSignUpCommand({ ClientId: CLIENT_ID, Username: email, ConfirmationCode: code! }));
    const before = await companiesOf(first.url, email, password);
    expect(before.items.map((c) => c.name)).toEqual(['Restart UAB']);

    // Act: kill hard, start again on the same data folder
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const second = await startProduct(dataDir);
    children.push(second.child);

    // Assess
    const after = await companiesOf(second.url, email, password);
    expect(after.items).toEqual(before.items);
    expect(second.output()).not.toMatch(/demo data created/);
    second.child.kill('SIGTERM');
  });
});
