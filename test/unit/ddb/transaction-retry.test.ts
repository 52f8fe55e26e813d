/**
 * Transaction conflicts as real DynamoDB answers them: the local stand-in cancels transactions with a
 * `TransactionConflict` reason (on demand, and when they overlap), and the document client's middleware
 * sends them again with jittered backoff; failed conditions are never retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startLocalDynamo, type LocalDynamo } from '../../../scripts/local/dynamo/index';
import { conflictSimulationFromEnv } from '../../../scripts/local/dynamo/transactions';
import { backoffDelay, isTransactionConflict, retryTransactionConflicts } from '../../../lambdas/adapters/ddb/transaction-retry';
import { clientFor, createTable, TABLE } from '../local-dynamo/support';

let local: LocalDynamo;
let plain: { client: DynamoDBClient; doc: DynamoDBDocumentClient };
let retrying: { client: DynamoDBClient; doc: DynamoDBDocumentClient };
const waits: number[] = [];

beforeAll(async () => {
  local = await startLocalDynamo({});
  plain = clientFor(local.endpoint);
  retrying = clientFor(local.endpoint);
  retryTransactionConflicts(retrying.client, {
    sleep: async (ms) => {
      waits.push(ms);
      await new Promise((r) => setTimeout(r, ms));
    },
  });
  await createTable(plain.client);
});

afterAll(async () => {
  plain?.client.destroy();
  retrying?.client.destroy();
  await local?.close();
});

const increment = (doc: DynamoDBDocumentClient, pk: string, condition?: string) =>
  doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: { pk, sk: 'counter' },
            UpdateExpression: 'ADD hits :one',
            ExpressionAttributeValues: { ':one': 1, ...(condition ? { ':max': 0 } : {}) },
            ...(condition ? { ConditionExpression: condition } : {}),
          },
        },
        { Put: { TableName: TABLE, Item: { pk, sk: `entry#${Math.random()}` } } },
      ],
    }),
  );

const hits = async (pk: string) => ((await plain.doc.send(new GetCommand({ TableName: TABLE, Key: { pk, sk: 'counter' } }))).Item?.hits as number | undefined) ?? 0;

describe('local DynamoDB: TransactionConflict on demand', () => {
  it('answers TransactionCanceledException with a TransactionConflict reason, as DynamoDB does, and writes nothing', async () => {
    local.conflicts.injectConflicts(1);
    const error = await increment(plain.doc, 'c1').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TransactionCanceledException' });
    const reasons = (error as { CancellationReasons: { Code: string }[] }).CancellationReasons;
    expect(reasons.map((r) => r.Code)).toEqual(['TransactionConflict', 'None']);
    expect(isTransactionConflict(error)).toBe(true);
    expect(await hits('c1')).toBe(0);
    // the next one goes through
    await increment(plain.doc, 'c1');
    expect(await hits('c1')).toBe(1);
  });

  it('cancels a transaction that overlaps an unfinished one in overlap mode', async () => {
    local.conflicts.simulation.overlap = true;
    try {
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => increment(plain.doc, 'c2')));
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      // Without retries, overlapping writers lose: each loser is a TransactionConflict, never a lost update.
      for (const f of failed) expect(isTransactionConflict(f.reason)).toBe(true);
      expect(await hits('c2')).toBe(results.length - failed.length);
    } finally {
      local.conflicts.simulation.overlap = false;
    }
  });
});

describe('document client: conflicts retried with jittered backoff', () => {
  it('sends a cancelled transaction again until it goes through', async () => {
    const before = local.conflicts.conflictsAnswered;
    waits.length = 0;
    local.conflicts.injectConflicts(3);
    await increment(retrying.doc, 'r1');
    expect(local.conflicts.conflictsAnswered - before).toBe(3);
    expect(waits).toHaveLength(3);
    expect(await hits('r1')).toBe(1);
  });

  it('all of many parallel writers succeed when every overlap is a conflict', async () => {
    local.conflicts.simulation.overlap = true;
    try {
      await Promise.all(Array.from({ length: 6 }, () => increment(retrying.doc, 'r2')));
      expect(await hits('r2')).toBe(6);
    } finally {
      local.conflicts.simulation.overlap = false;
    }
  });

  it('never retries a failed condition (the version check stays a conflict for the caller)', async () => {
    waits.length = 0;
    const error = await increment(retrying.doc, 'r3', 'hits < :max').catch((e: unknown) => e);
    expect((error as { CancellationReasons: { Code: string }[] }).CancellationReasons[0]!.Code).toBe('ConditionalCheckFailed');
    expect(isTransactionConflict(error)).toBe(false);
    expect(waits).toHaveLength(0);
  });

  it('gives up after its attempts with the conflict', async () => {
    const limited = clientFor(local.endpoint);
    retryTransactionConflicts(limited.client, { maxAttempts: 2, sleep: async () => undefined });
    local.conflicts.injectConflicts(2);
    const error = await increment(limited.doc, 'r4').catch((e: unknown) => e);
    limited.client.destroy();
    expect(isTransactionConflict(error)).toBe(true);
  });
});

describe('backoff', () => {
  it('is full jitter: uniform below base·2^(n-1), capped', () => {
    const opts = { baseDelayMs: 20, maxDelayMs: 1000, random: () => 0.999 };
    expect([1, 2, 3, 7, 12].map((n) => backoffDelay(n, opts))).toEqual([19, 39, 79, 999, 999]);
    expect(backoffDelay(5, { ...opts, random: () => 0 })).toBe(0);
  });

  it('reads LOCAL_DYNAMO_TRANSACTION_CONFLICTS', () => {
    expect(conflictSimulationFromEnv('overlap,0.25')).toEqual({ overlap: true, rate: 0.25 });
    expect(conflictSimulationFromEnv(undefined)).toEqual({});
    expect(() => conflictSimulationFromEnv('often')).toThrow(/neither overlap nor a rate/);
  });
});
