import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
import { DEMO_USER, uploadThroughApi } from '../../scripts/local/seed';
import { datasetPath } from '../support/datasets';

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

async function tokenOf(url: string, email: string, password: string): Promise<string> {
  const auth = await cognito(url).send(
    new InitiateAuthCommand({ ClientId: CLIENT_ID, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  return auth.AuthenticationResult!.AccessToken!;
}

/** The exit code of a process, or a failure when it has not ended after `guardMs` (a hang guard, not a timing). */
function exitOf(child: ChildProcess, guardMs: number): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`still running ${guardMs / 1000} s after SIGTERM`)), guardMs);
    child.once('exit', (code) => {
      clearTimeout(guard);
      resolve(code);
    });
  });
}

describe('npm start', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'receipts-restart-'));
  const busyDir = mkdtempSync(path.join(tmpdir(), 'receipts-stop-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(busyDir, { recursive: true, force: true });
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

  it('stops on SIGTERM while documents are being read, with exit code 0; they are read at the next start', async () => {
    const first = await startProduct(busyDir);
    children.push(first.child);
    const token = await tokenOf(first.url, DEMO_USER.email, DEMO_USER.password);
    const api = `${first.url}/api`;
    const companyId = ((await (await fetch(`${api}/companies`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { company_id: string }[] }).items[0]!.company_id;
    const names = ['000', '005', '010', '015', '020', '025', '030', '035'].map((n) => `stop-${n}.jpg`);
    for (const name of names) {
      const bytes = readFileSync(datasetPath('sroie-dev', 'images', name.slice(5)));
      expect((await uploadThroughApi(api, token, { company_id: companyId, original_file_name: name }, bytes)).status).toBe(200);
    }
    const mine = async (url: string, bearer: string) => {
      const res = await fetch(`${url}/api/receipts?company_id=${companyId}`, { headers: { authorization: `Bearer ${bearer}` } });
      const items = ((await res.json()) as { items: { original_file_name: string; status: string; error: { message: string } | null }[] }).items;
      return items.filter((d) => names.includes(d.original_file_name));
    };
    // Stop once the first of them is read: the recogniser is then reading the next ones.
    let before = await mine(first.url, token);
    for (let i = 0; i < 600 && !(before.length === names.length && before.some((d) => d.status !== 'processing')); i++) {
      await new Promise((r) => setTimeout(r, 100));
      before = await mine(first.url, token);
    }
    expect(before.filter((d) => d.status === 'processing').length).toBeGreaterThan(0);

    first.child.kill('SIGTERM');
    expect(await exitOf(first.child, 15_000)).toBe(0);
    expect(first.output()).not.toMatch(/still stopping|terminate called/);
    // The documents being read were not waited for: their messages are still in the queue folder.
    expect(readdirSync(path.join(busyDir, 'queue')).filter((f) => f.endsWith('.json')).length).toBeGreaterThan(0);

    const second = await startProduct(busyDir);
    children.push(second.child);
    const again = await tokenOf(second.url, DEMO_USER.email, DEMO_USER.password);
    let after = await mine(second.url, again);
    for (let i = 0; i < 600 && after.some((d) => d.status === 'processing'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      after = await mine(second.url, again);
    }
    expect(after).toHaveLength(names.length);
    for (const d of after) expect([d.original_file_name, d.status]).toEqual([d.original_file_name, expect.stringMatching(/^(ready|review)$/)]);
    second.child.kill('SIGTERM');
    expect(await exitOf(second.child, 15_000)).toBe(0);
  }, 240_000);
});
