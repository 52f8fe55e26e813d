/**
 * Deploy proof: one pass through the product as a user makes it, against any running stack.
 *
 *   npm run smoke -- <base-url> [--email you@example.com --password '…'] [--timeout-s 300]
 *
 * <base-url> is the site (local mode: http://127.0.0.1:3000; AWS: the SiteUrl output). Everything else comes from
 * <base-url>/config.json, the runtime config the SPA reads: API URL, Cognito user pool, client id, region (and the
 * Cognito endpoint in local mode). Steps, each timed: config → account (sign-up with the e-mailed code, or sign-in)
 * → company → upload a receipt through the presigned URL → wait until it is recognised (To Review, or Ready when the
recogniser read every required field confidently — Textract on AWS may) → list → edit a field (POST
 * /receipt/{id} with version) → export CSV → delete. Exit status 0 when every step passed, 1 otherwise.
 *
 * Account: with --email and --password the user signs in (a user that does not exist yet is signed up). Without
 * them a new user smoke-<time>@example.com is signed up, which needs the confirmation code: local mode delivers it
 * to its mail catcher (<base-url>/_mail/messages.json), where the script reads it; on AWS the code is asked for on
 * the terminal (or pass an existing, confirmed user).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  NotAuthorizedException,
  SignUpCommand,
  UserNotFoundException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';

const SAMPLE = path.join(import.meta.dirname, 'local', 'demo', 'shop-receipt.jpg');

interface SiteConfig {
  apiUrl: string;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  userPoolEndpoint?: string | null;
}

export interface SmokeOptions {
  baseUrl: string;
  email?: string;
  password?: string;
  timeoutMs: number;
  /** Progress lines (default console.log). */
  print?: (line: string) => void;
  /** Asks for the confirmation code where no mail catcher answers (default: the terminal, when there is one). */
  askCode?: (email: string) => Promise<string>;
}

export interface SmokeStep {
  name: string;
  ms: number;
  detail: string;
}

class SmokeError extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
}

function networkMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return [error instanceof Error ? error.message : String(error), cause?.code ?? cause?.message].filter(Boolean).join(': ');
}

function describe(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return (text ?? '').slice(0, 400);
}

/** The API with a Cognito access token, as the SPA calls it (web/src/lib/api-client.ts). */
function apiOf(apiUrl: string, token: string) {
  const call = async <T>(method: string, route: string, query: Record<string, string>, body?: unknown, expected = [200]): Promise<T> => {
    const url = `${apiUrl.replace(/\/+$/, '')}${route}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
    const init = {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    };
    // A GET is repeated after a network error (a connection closed under it); a write is not.
    let res: Response | undefined;
    for (let attempt = 1; !res; attempt += 1) {
      try {
        res = await fetch(url, init);
      } catch (error) {
        if (method !== 'GET' || attempt >= 3) throw new SmokeError(`${method} ${route}: ${networkMessage(error)}`);
        await sleep(1000);
      }
    }
    const parsed = await readJson(res);
    if (!expected.includes(res.status)) throw new SmokeError(`${method} ${route} answered ${res.status}: ${describe(parsed)}`);
    return parsed as T;
  };
  return {
    get: <T>(route: string, query: Record<string, string> = {}, expected?: number[]) => call<T>('GET', route, query, undefined, expected),
    post: <T>(route: string, query: Record<string, string>, body: unknown, expected?: number[]) => call<T>('POST', route, query, body, expected),
    del: <T>(route: string, query: Record<string, string>, expected?: number[]) => call<T>('DELETE', route, query, undefined, expected),
  };
}

async function loadSiteConfig(baseUrl: string): Promise<SiteConfig> {
  const res = await fetch(`${baseUrl}/config.json`, { cache: 'no-store' });
  if (!res.ok) throw new SmokeError(`${baseUrl}/config.json answered ${res.status}`);
  const config = (await readJson(res)) as Partial<SiteConfig>;
  for (const key of ['apiUrl', 'region', 'userPoolId', 'userPoolClientId'] as const) {
    if (typeof config?.[key] !== 'string' || !config[key]) throw new SmokeError(`config.json has no ${key}`);
  }
  return config as SiteConfig;
}

/** The newest confirmation code mailed to `email` by local mode's mail catcher; undefined where there is none. */
async function codeFromMailCatcher(baseUrl: string, email: string, timeoutMs: number): Promise<string | undefined> {
  const start = Date.now();
  for (;;) {
    const res = await fetch(`${baseUrl}/_mail/messages.json`, { cache: 'no-store' }).catch((error: unknown) => {
      if (Date.now() - start > timeoutMs) throw new SmokeError(`${baseUrl}/_mail: ${networkMessage(error)}`);
      return undefined;
    });
    if (!res) {
      await sleep(1000);
      continue;
    }
    // A deployed site answers its SPA (or 403/404) here: there is no mail catcher to read.
    if (!res.ok || !(res.headers.get('content-type') ?? '').includes('application/json')) return undefined;
    const { items } = (await res.json()) as { items: { to: string[]; subject: string; text: string }[] };
    const mail = items.find((m) => m.to.includes(email.toLowerCase()) && /verification code/i.test(`${m.subject} ${m.text}`));
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    if (Date.now() - start > timeoutMs) throw new SmokeError(`no confirmation code for ${email} in ${baseUrl}/_mail within ${timeoutMs} ms`);
    await sleep(250);
  }
}

async function askOnTerminal(email: string): Promise<string> {
  if (!process.stdin.isTTY) {
    throw new SmokeError(`the confirmation code for ${email} is e-mailed; run in a terminal to type it, or pass --email/--password of a confirmed user`);
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(`Confirmation code sent to ${email}: `)).trim();
  } finally {
    rl.close();
  }
}

interface ContentNode {
  id: string;
  schema_id: string | null;
  content?: { value: string } | null;
  children?: ContentNode[];
}

function findDatapoint(nodes: ContentNode[], schemaId: string): ContentNode | undefined {
  for (const node of nodes) {
    if (node.schema_id === schemaId && node.content !== undefined) return node;
    const found = findDatapoint(node.children ?? [], schemaId);
    if (found) return found;
  }
  return undefined;
}

interface Summary {
  receipt_id: string;
  status: string;
  version: number;
  upload_id: string | null;
  document_number: string;
  error: { message: string } | null;
}

export async function runSmoke(options: SmokeOptions): Promise<SmokeStep[]> {
  const print = options.print ?? ((line: string) => console.log(line));
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const steps: SmokeStep[] = [];
  const step = async <T>(name: string, run: () => Promise<[T, string]>): Promise<T> => {
    const started = performance.now();
    try {
      const [value, detail] = await run();
      const ms = performance.now() - started;
      steps.push({ name, ms, detail });
      print(`  ✓ ${name.padEnd(22)} ${`${(ms / 1000).toFixed(2)} s`.padStart(9)}  ${detail}`);
      return value;
    } catch (error) {
      const ms = performance.now() - started;
      print(`  ✗ ${name.padEnd(22)} ${`${(ms / 1000).toFixed(2)} s`.padStart(9)}  ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  };

  print(`Smoke test of ${baseUrl}`);
  const config = await step('config', async () => {
    const c = await loadSiteConfig(baseUrl);
    return [c, `API ${c.apiUrl}, pool ${c.userPoolId}${c.userPoolEndpoint ? ' (local Cognito)' : ''}`];
  });
  const cognito = new CognitoIdentityProviderClient({
    region: config.region,
    // Sign-up, confirmation and USER_PASSWORD_AUTH are Cognito's public operations: no AWS credentials are used.
    ...(config.userPoolEndpoint ? { endpoint: config.userPoolEndpoint } : {}),
  });

  const signIn = async (email: string, password: string) => {
    const res = await cognito.send(
      new InitiateAuthCommand({ ClientId: config.userPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
    );
    const token = res.AuthenticationResult?.AccessToken;
    if (!token) throw new SmokeError(`sign-in of ${email} asked for ${res.ChallengeName ?? 'another step'}`);
    return token;
  };
  const signUp = async (email: string, password: string) => {
    await cognito.send(
      new SignUpCommand({
        ClientId: config.userPoolClientId,
        Username: email,
        Password: password,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'custom:name', Value: 'Smoke' },
          { Name: 'custom:surname', Value: 'Test' },
          { Name: 'custom:company', Value: 'Smoke Test UAB' },
          { Name: 'custom:company_code', Value: '300000000' },
        ],
      }),
    );
    const code = (await codeFromMailCatcher(baseUrl, email, 30_000)) ?? (await (options.askCode ?? askOnTerminal)(email));
    await cognito.send(new ConfirmSignUpCommand({ ClientId: config.userPoolClientId, Username: email, ConfirmationCode: code }));
  };

  const token = await step('account', async () => {
    if (options.email && options.password) {
      try {
        return [await signIn(options.email, options.password), `signed in as ${options.email}`];
      } catch (error) {
        // Cognito (and the local stand-in) answers NotAuthorized for an unknown user too: try a sign-up, and
        // report the sign-in's error when the user exists (a wrong password).
        if (!(error instanceof UserNotFoundException) && !(error instanceof NotAuthorizedException)) throw error;
        try {
          await signUp(options.email, options.password);
        } catch (signUpError) {
          if (signUpError instanceof UsernameExistsException) throw error;
          throw signUpError;
        }
      }
      return [await signIn(options.email, options.password), `signed up and confirmed ${options.email}`];
    }
    const email = `smoke-${Date.now().toString(36)}@example.com`;
    const password = `Smoke-${Math.random().toString(36).slice(2, 10)}A1`;
    await signUp(email, password);
    return [await signIn(email, password), `signed up and confirmed ${email}`];
  });
  cognito.destroy();
  const api = apiOf(config.apiUrl, token);

  const companyId = await step('company', async () => {
    // The sign-up's post-confirmation trigger creates the first company; an existing user's first company is used.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { items } = await api.get<{ items: { company_id: string; name: string; role: string }[] }>('/companies');
      const company = items[0];
      if (company) return [company.company_id, `${company.name} (${company.role})`];
      if (Date.now() > deadline) throw new SmokeError('the user has no company');
      await sleep(500);
    }
  });
  const q = { company_id: companyId };

  const bytes = readFileSync(SAMPLE);
  const fileName = `smoke-${Date.now().toString(36)}.jpg`;
  const uploadId = await step('upload', async () => {
    const upload = await api.get<{ uploadURL: string; upload_id: string; headers: Record<string, string> }>('/upload/document', {
      ...q,
      original_file_name: fileName,
      content_type: 'image/jpeg',
      size: String(bytes.length),
      receipt_type: 'receipt',
      type: 'single',
    });
    const put = await fetch(upload.uploadURL, { method: 'PUT', headers: upload.headers, body: new Uint8Array(bytes) });
    if (!put.ok) throw new SmokeError(`PUT to the presigned URL answered ${put.status}: ${(await put.text()).slice(0, 300)}`);
    return [upload.upload_id, `${fileName} (${bytes.length} bytes) through the presigned URL`];
  });

  // Recognised: To Review, or Ready when every required field was read confidently (the ready rule).
  const recognised = ['review', 'ready'];
  const statusName = (status: string) => (status === 'ready' ? 'Ready' : 'To Review');
  const toReview = await step('recognised', async () => {
    const deadline = Date.now() + options.timeoutMs;
    let last = 'not listed yet';
    for (;;) {
      const list = await api.get<{ items: Summary[] }>('/receipts', { ...q, receipt_status: 'inbox', search_value: fileName });
      const doc = list.items.find((d) => d.upload_id === uploadId);
      if (doc) last = doc.status;
      if (doc && recognised.includes(doc.status)) return [doc, `${doc.receipt_id} is ${statusName(doc.status)}`];
      if (doc && ['error', 'failed', 'rejected'].includes(doc.status)) throw new SmokeError(`the document ended ${doc.status}: ${doc.error?.message ?? ''}`);
      if (Date.now() > deadline) throw new SmokeError(`not To Review or Ready within ${options.timeoutMs / 1000} s (last: ${last})`);
      await sleep(1000);
    }
  });
  const id = toReview.receipt_id;

  await step('list', async () => {
    const status = toReview.status;
    const list = await api.get<{ items: Summary[] }>('/receipts', { ...q, receipt_status: status });
    if (!list.items.some((d) => d.receipt_id === id)) throw new SmokeError(`${id} is not in the ${statusName(status)} list`);
    return [undefined, `${list.items.length} document(s) ${statusName(status)}, ${id} among them`];
  });

  const documentNumber = `SMOKE-${Date.now().toString(36).toUpperCase()}`;
  await step('edit', async () => {
    const receipt = await api.get<{ version: number; content: ContentNode[] }>(`/receipts/${id}`, q);
    const field = findDatapoint(receipt.content, 'document_id');
    if (!field) throw new SmokeError('the document has no document number field');
    const edited = await api.post<{ receipt: Summary }>(`/receipt/${id}`, q, { version: receipt.version, items: [{ id: field.id, value: documentNumber }] });
    if (edited.receipt.document_number !== documentNumber) throw new SmokeError(`document number is ${edited.receipt.document_number}, not ${documentNumber}`);
    return [undefined, `document number ${documentNumber}, version ${receipt.version} → ${edited.receipt.version}`];
  });

  await step('export csv', async () => {
    const file = await api.get<{ mime: string; base64: string; name: string }>(`/receipts/${id}/export`, {
      ...q,
      type: 'csv',
      // The default columns and the document number (any datapoint can be added by its id).
      fields: 'date,supplier,total,currency,status,document_id:Document number',
    });
    const csv = Buffer.from(file.base64, 'base64').toString('utf8');
    if (file.mime !== 'text/csv') throw new SmokeError(`export answered ${file.mime}`);
    if (!csv.includes(documentNumber)) throw new SmokeError(`the CSV does not contain ${documentNumber}`);
    return [undefined, `${file.name}, ${csv.trim().split(/\r?\n/).length} line(s), with ${documentNumber}`];
  });

  await step('delete', async () => {
    await api.del(`/receipt/${id}`, q);
    await api.get(`/receipts/${id}`, q, [404]);
    return [undefined, `${id} deleted (GET answers 404)`];
  });

  const total = steps.reduce((sum, s) => sum + s.ms, 0);
  print(`Smoke test passed: ${steps.length} steps in ${(total / 1000).toFixed(1)} s`);
  return steps;
}

function parseArgs(argv: string[]): SmokeOptions {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string?];
      flags.set(name, inline ?? argv[++i] ?? '');
    } else {
      positional.push(arg);
    }
  }
  const baseUrl = positional[0];
  if (!baseUrl || !/^https?:\/\//.test(baseUrl)) {
    console.error('usage: npm run smoke -- <base-url> [--email you@example.com --password …] [--timeout-s 300]');
    process.exit(2);
  }
  const email = flags.get('email') ?? process.env.SMOKE_EMAIL;
  const password = flags.get('password') ?? process.env.SMOKE_PASSWORD;
  if (Boolean(email) !== Boolean(password)) {
    console.error('--email and --password go together');
    process.exit(2);
  }
  return { baseUrl, email, password, timeoutMs: Number(flags.get('timeout-s') ?? 300) * 1000 };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runSmoke(parseArgs(process.argv.slice(2)))
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      console.error(`Smoke test FAILED: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
