import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { expect } from 'vitest';
import {
  createLocalCognito,
  type CodeKind,
  type LocalCognito,
  type LocalCognitoOptions,
} from '../../../scripts/local/cognito/index';

export const USER_POOL_ID = 'eu-west-1_LocalPool1';
export const CLIENT_ID = 'local-client-id';
export const PASSWORD = 'Passw0rdOne';

export interface Harness {
  cognito: LocalCognito;
  url: string;
  client: CognitoIdentityProviderClient;
  codes: Array<{ email: string; kind: CodeKind; code: string }>;
  hookEvents: PostConfirmationTriggerEvent[];
  /** Targets (operation names) of every request the server received, in order. */
  operations: string[];
  /** Shift the stand-in's clock. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export interface HarnessOptions extends Partial<Omit<LocalCognitoOptions, 'onCode' | 'now'>> {
  /** Listen on this port (restart tests reuse the port so the issuer stays the same). */
  port?: number;
}

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { port: wantedPort = 0, ...cognitoOptions } = options;
  const ref: { cognito?: LocalCognito } = {};
  const operations: string[] = [];
  const server = createServer((req, res) => {
    const target = req.headers['x-amz-target'];
    if (typeof target === 'string') operations.push(target.replace('AWSCognitoIdentityProviderService.', ''));
    if (!ref.cognito) {
      res.writeHead(503).end();
      return;
    }
    ref.cognito.handle(req, res);
  });
  const port = await listen(server, wantedPort);
  const url = `http://127.0.0.1:${port}`;
  const codes: Harness['codes'] = [];
  const hookEvents: PostConfirmationTriggerEvent[] = [];
  let offset = 0;
  const cognito = await createLocalCognito({
    userPoolId: USER_POOL_ID,
    clientId: CLIENT_ID,
    issuerBaseUrl: url,
    iamCredentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    postConfirmation: (event) => {
      hookEvents.push(structuredClone(event));
      return Promise.resolve(event);
    },
    ...cognitoOptions,
    onCode: (info) => codes.push(info),
    now: () => Date.now() + offset,
  });
  const client = new CognitoIdentityProviderClient({
    region: 'eu-west-1',
    endpoint: url,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  ref.cognito = cognito;
  return {
    cognito,
    url,
    client,
    codes,
    hookEvents,
    operations,
    advance(ms) {
      offset += ms;
    },
    async close() {
      client.destroy();
      await cognito.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Attribute list ({Name, Value}[]) as a plain object. */
export function attrMap(list: Array<{ Name?: string; Value?: string }> | undefined): Record<string, string> {
  return Object.fromEntries((list ?? []).map((a): [string, string] => [a.Name ?? '', a.Value ?? '']));
}

/** Asserts that a promise rejects with the Cognito error `name` (as the SDK / Amplify surface it). */
export async function expectCognitoError(promise: Promise<unknown>, name: string, message?: string | RegExp) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err, `expected ${name}`).toBeInstanceOf(Error);
  expect(err?.name).toBe(name);
  if (message !== undefined) {
    if (typeof message === 'string') expect(err?.message).toBe(message);
    else expect(err?.message).toMatch(message);
  }
  return err as Error;
}

let counter = 0;
/** A unique e-mail address per call (mixed case on purpose: look-ups are case-insensitive). */
export function uniqueEmail(prefix = 'User'): string {
  counter += 1;
  return `${prefix}.${process.pid}.${counter}@Example.com`;
}
