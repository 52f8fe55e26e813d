import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalDynamo, type LocalDynamo } from '../../../scripts/local/dynamo/index';

let local: LocalDynamo;

beforeAll(async () => {
  local = await startLocalDynamo({});
});

afterAll(async () => {
  await local?.close();
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const signed = {
  'Content-Type': 'application/x-amz-json-1.0',
  Authorization: 'AWS4-HMAC-SHA256 Credential=local/20240101/eu-west-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x',
  'X-Amz-Date': '20240101T000000Z',
};

describe('HTTP wrapper around dynalite', () => {
  it('listens on 127.0.0.1 at the requested port', async () => {
    // Prepare
    const port = await freePort();

    // Act
    const fixed = await startLocalDynamo({ port });
    await fixed.close();

    // Assess
    expect(fixed.endpoint).toBe(`http://127.0.0.1:${port}`);
  });

  const requests: Array<{ name: string; init: RequestInit; status: number; body: RegExp }> = [
    { name: "dynalite's health check (GET)", init: { method: 'GET' }, status: 200, body: /^healthy: / },
    {
      name: 'an operation neither layer knows',
      init: { method: 'POST', headers: { ...signed, 'X-Amz-Target': 'DynamoDB_20120810.ExecuteStatement' }, body: '{}' },
      status: 400,
      body: /UnknownOperationException/,
    },
    {
      name: 'an unsigned TransactWriteItems',
      init: {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'DynamoDB_20120810.TransactWriteItems' },
        body: '{}',
      },
      status: 400,
      body: /MissingAuthenticationTokenException/,
    },
    {
      name: 'a TransactGetItems that is not JSON',
      init: { method: 'POST', headers: { ...signed, 'X-Amz-Target': 'DynamoDB_20120810.TransactGetItems' }, body: '{nope' },
      status: 400,
      body: /SerializationException/,
    },
    {
      name: 'a TransactWriteItems without TransactItems',
      init: { method: 'POST', headers: { ...signed, 'X-Amz-Target': 'DynamoDB_20120810.TransactWriteItems' }, body: '{}' },
      status: 400,
      body: /ValidationException.*Value null at 'transactItems' failed to satisfy constraint: Member must not be null/,
    },
  ];

  it.each(requests)('answers $name', async ({ init, status, body }) => {
    // Act
    const res = await fetch(local.endpoint, init);
    const text = await res.text();

    // Assess
    expect(res.status).toBe(status);
    expect(text).toMatch(body);
    expect(res.headers.get('x-amz-crc32')).toMatch(/^\d+$/);
  });
});
