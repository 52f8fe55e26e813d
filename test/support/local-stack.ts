import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { accessTokenOf, registerUser, uploadThroughApi, type UploadRequest } from '../../scripts/local/seed';
import type { LocalJobQueue } from '../../scripts/local/jobs';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../scripts/local/stack';

export interface TestUser {
  email: string;
  password: string;
  name: string;
  surname: string;
  company: string;
  company_code: string;
}

let counter = 0;
export function newUser(prefix = 'user'): TestUser {
  counter += 1;
  const id = `${prefix}${counter}${Date.now().toString(36)}`;
  return {
    email: `${id}@example.com`,
    password: 'Passw0rdOk',
    name: 'Test',
    surname: `User ${counter}`,
    company: `${prefix} company ${counter}`,
    company_code: `${100000 + counter}`,
  };
}

export interface TestStack {
  stack: LocalStack;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startTestStack(extra: Partial<LocalStackOptions> = {}): Promise<TestStack> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'receipts-it-'));
  const stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined, ...extra });
  return {
    stack,
    dataDir,
    async stop() {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function signIn(stack: LocalStack, user: Pick<TestUser, 'email' | 'password'>): Promise<string> {
  return accessTokenOf(stack, user);
}

/** Registers, confirms (trigger creates the first company) and signs in. */
export async function registeredUser(stack: LocalStack, prefix = 'user') {
  const user = newUser(prefix);
  await registerUser(stack, user);
  const token = await signIn(stack, user);
  const api = apiClient(stack.apiUrl, token);
  const companies = (await api.get('/companies')).body as { items: { company_id: string }[] };
  return { user, token, api, companyId: companies.items[0]!.company_id };
}

export interface ApiResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

export function apiClient(apiUrl: string, token?: string) {
  const call = async (method: string, pathAndQuery: string, body?: unknown, raw?: string): Promise<ApiResponse> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${apiUrl}${pathAndQuery}`, {
      method,
      headers,
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    apiUrl,
    token,
    get: (p: string) => call('GET', p),
    post: (p: string, body?: unknown) => call('POST', p, body),
    put: (p: string, body?: unknown) => call('PUT', p, body),
    delete: (p: string) => call('DELETE', p),
    raw: (method: string, p: string, raw: string) => call(method, p, undefined, raw),
  };
}

/** A WebSocket client that collects received messages. */
export async function openLiveChannel(wsUrl: string, token: string, companyId: string) {
  const ws = new WebSocket(`${wsUrl}?token=${encodeURIComponent(token)}&company_id=${encodeURIComponent(companyId)}`);
  const messages: { event: string; payload: unknown }[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
  });
  return {
    messages,
    send: (message: unknown) => ws.send(JSON.stringify(message)),
    async waitFor(event: string, timeoutMs = 3000) {
      const start = Date.now();
      while (Date.now() - start < timeoutMs) {
        const found = messages.find((m) => m.event === event);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no ${event} event within ${timeoutMs} ms; got ${JSON.stringify(messages)}`);
    },
    close: () => ws.close(),
  };
}

// ---------------------------------------------------------------- documents

/** Makes a user a member of a company directly in the table (the invitation flow is not part of these tests). */
export async function addMembership(userId: string, companyId: string, role: 'admin' | 'basic') {
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const { ddb } = await import('../../lambdas/adapters/ddb/client');
  const { keys } = await import('../../lambdas/adapters/ddb/keys');
  await ddb().send(
    new PutCommand({
      TableName: process.env.TABLE_NAME,
      Item: {
        ...keys.membership(userId, companyId),
        ...keys.memberOfCompanyIndex(companyId, userId),
        type: 'MEMBERSHIP',
        user_id: userId,
        company_id: companyId,
        role,
        joined_at: new Date().toISOString(),
      },
    }),
  );
}

/** Sets a company's monthly quota directly (the admin route belongs to another part). */
export async function setAvailableDocuments(companyId: string, available: number) {
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { ddb } = await import('../../lambdas/adapters/ddb/client');
  const { keys } = await import('../../lambdas/adapters/ddb/keys');
  await ddb().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.company(companyId),
      UpdateExpression: 'SET available_documents = :a',
      ExpressionAttributeValues: { ':a': available },
    }),
  );
}

/** Every item of the local table: a test-only Scan (no request path scans), to check what is stored. */
export async function wholeTable(): Promise<Record<string, unknown>[]> {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const { ddb } = await import('../../lambdas/adapters/ddb/client');
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(new ScanCommand({ TableName: process.env.TABLE_NAME, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The user id (Cognito sub) of an access token. */
export function subOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).sub as string;
}

export type UploadParams = UploadRequest;

/** GET /upload/document, then PUT of the bytes to the presigned URL, as the web app does. */
export async function uploadDocument(api: ReturnType<typeof apiClient>, params: UploadParams, bytes: Uint8Array) {
  const res = await uploadThroughApi(api.apiUrl, api.token ?? '', params, bytes);
  const request = { status: res.status, body: res.body };
  if (res.status !== 200) return { request, put: undefined };
  return { request, put: res.put, upload: res.upload! };
}

/**
 * Holds the bucket notifications sent to `queue` (a notification late in transit) until the returned release hands
 * them on: the document stays in processing for as long as a test needs, then its job runs as usual.
 */
export function holdDeliveries(queue: LocalJobQueue): () => void {
  const deliver = queue.deliver;
  const held: Parameters<LocalJobQueue['deliver']>[0][] = [];
  queue.deliver = (record) => void held.push(record);
  return () => {
    queue.deliver = deliver;
    for (const record of held.splice(0)) deliver.call(queue, record);
  };
}
