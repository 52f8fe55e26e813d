import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QueryCommand,
  TransactGetItemsCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  ConditionalCheckFailedException,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { startLocalDynamo, type LocalDynamo } from '../../../scripts/local/dynamo/index';
import { clientFor, createTable, getRaw, key, TABLE } from './support';

let local: LocalDynamo;
let client: DynamoDBClient;

beforeAll(async () => {
  local = await startLocalDynamo({});
  ({ client } = clientFor(local.endpoint));
  await createTable(client);
});

afterAll(async () => {
  client?.destroy();
  await local?.close();
});

/** Optimistic increment: bump `version` from `expected`, and record a ledger entry for that version. */
function transactionalIncrement(pk: string, expected: number, worker: string) {
  return client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: key(pk, 'counter'),
            UpdateExpression: 'SET version = :next ADD hits :one',
            ConditionExpression: 'version = :expected',
            ExpressionAttributeValues: { ':next': { N: String(expected + 1) }, ':one': { N: '1' }, ':expected': { N: String(expected) } },
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: { ...key(pk, `ledger#${String(expected + 1).padStart(4, '0')}`), worker: { S: worker } },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
}

/** The same optimistic increment through dynalite's own UpdateItem (its own per-item lock). */
function plainIncrement(pk: string, expected: number) {
  return client.send(
    new UpdateItemCommand({
      TableName: TABLE,
      Key: key(pk, 'counter'),
      UpdateExpression: 'SET version = :next ADD hits :one',
      ConditionExpression: 'version = :expected',
      ExpressionAttributeValues: { ':next': { N: String(expected + 1) }, ':one': { N: '1' }, ':expected': { N: String(expected) } },
    }),
  );
}

async function readVersion(pk: string): Promise<{ version: number; hits: number }> {
  const item = await getRaw(client, pk, 'counter');
  return { version: Number(item?.version?.N), hits: Number(item?.hits?.N ?? 0) };
}

async function initCounter(pk: string): Promise<void> {
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [{ Put: { TableName: TABLE, Item: { ...key(pk, 'counter'), version: { N: '0' } } } }],
    }),
  );
}

describe('concurrent conditional writes', () => {
  it('lets exactly one of many concurrent writers win each version', async () => {
    // Prepare
    const pk = `race-${randomUUID()}`;
    await initCounter(pk);
    const rounds = 4;
    const transactionalContenders = 6;
    const plainContenders = 2;
    const winners: string[] = [];

    for (let round = 0; round < rounds; round++) {
      // Act: every contender saw version `round` and tries to move it on, all at the same time
      const attempts = [
        ...Array.from({ length: transactionalContenders }, (_, i) => ({
          name: `tx${i}`,
          run: () => transactionalIncrement(pk, round, `tx${i}`),
        })),
        ...Array.from({ length: plainContenders }, (_, i) => ({ name: `plain${i}`, run: () => plainIncrement(pk, round) })),
      ];
      const settled = await Promise.allSettled(attempts.map((a) => a.run()));

      // Assess (per round)
      const won = attempts.filter((_, i) => settled[i]?.status === 'fulfilled').map((a) => a.name);
      expect(won).toHaveLength(1);
      winners.push(won[0] as string);
      for (const result of settled) {
        if (result.status === 'fulfilled') continue;
        const err = result.reason as Error;
        if (err instanceof TransactionCanceledException) {
          // the counter's version moved on; the ledger entry exists only if a transaction won
          const ledgerReason = won[0]?.startsWith('tx') ? 'ConditionalCheckFailed' : 'None';
          expect(err.CancellationReasons?.map((r) => r.Code)).toEqual(['ConditionalCheckFailed', ledgerReason]);
        } else {
          expect(err).toBeInstanceOf(ConditionalCheckFailedException);
        }
      }
    }

    // Assess (overall)
    expect(await readVersion(pk)).toEqual({ version: rounds, hits: rounds });
    const ledger = await client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :l)',
        ExpressionAttributeValues: { ':pk': { S: pk }, ':l': { S: 'ledger#' } },
        ConsistentRead: true,
      }),
    );
    // a ledger entry exactly for the rounds a transaction (not a plain update) won, by that winner
    const expectedLedger = winners
      .map((w, round) => ({ sk: `ledger#${String(round + 1).padStart(4, '0')}`, worker: w }))
      .filter((e) => e.worker.startsWith('tx'));
    expect(ledger.Items?.map((i) => ({ sk: i.sk?.S, worker: i.worker?.S }))).toEqual(expectedLedger);
  });

  it('counts every increment exactly once when workers retry after losing', async () => {
    // Prepare
    const pk = `count-${randomUUID()}`;
    await initCounter(pk);
    const workers = 4;
    const incrementsPerWorker = 6;

    // Act
    await Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        for (let done = 0; done < incrementsPerWorker; ) {
          const { version } = await readVersion(pk);
          try {
            await transactionalIncrement(pk, version, `w${w}`);
            done++;
          } catch (err) {
            // lost the race for this version: read again and retry
            if (!(err instanceof TransactionCanceledException)) throw err;
          }
        }
      }),
    );

    // Assess
    const total = workers * incrementsPerWorker;
    expect(await readVersion(pk)).toEqual({ version: total, hits: total });
    const ledger = await client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :l)',
        ExpressionAttributeValues: { ':pk': { S: pk }, ':l': { S: 'ledger#' } },
        ConsistentRead: true,
      }),
    );
    expect(ledger.Items?.map((i) => i.sk?.S)).toEqual(
      Array.from({ length: total }, (_, i) => `ledger#${String(i + 1).padStart(4, '0')}`),
    );
    const perWorker = new Map<string, number>();
    for (const item of ledger.Items ?? []) perWorker.set(item.worker?.S ?? '', (perWorker.get(item.worker?.S ?? '') ?? 0) + 1);
    expect([...perWorker.values()]).toEqual(Array.from({ length: workers }, () => incrementsPerWorker));
  });

  it('never lets TransactGetItems observe half of a concurrent TransactWriteItems', async () => {
    // Prepare
    const pk = `pair-${randomUUID()}`;
    const writes = 30;
    const writePair = (n: number) =>
      client.send(
        new TransactWriteItemsCommand({
          TransactItems: ['a', 'b'].map((sk) => ({
            Update: {
              TableName: TABLE,
              Key: key(pk, sk),
              UpdateExpression: 'SET n = :n',
              ExpressionAttributeValues: { ':n': { N: String(n) } },
            },
          })),
        }),
      );
    await writePair(0);
    const observed: Array<[string | undefined, string | undefined]> = [];

    // Act
    let writing = true;
    const writer = (async () => {
      for (let n = 1; n <= writes; n++) await writePair(n);
      writing = false;
    })();
    const readers = Array.from({ length: 2 }, async () => {
      while (writing) {
        const out = await client.send(
          new TransactGetItemsCommand({
            TransactItems: ['a', 'b'].map((sk) => ({ Get: { TableName: TABLE, Key: key(pk, sk) } })),
          }),
        );
        observed.push([out.Responses?.[0]?.Item?.n?.N, out.Responses?.[1]?.Item?.n?.N]);
      }
    });
    await Promise.all([writer, ...readers]);

    // Assess
    expect(observed.length).toBeGreaterThan(0);
    expect(observed.filter(([a, b]) => a !== b)).toEqual([]);
    expect((await getRaw(client, pk, 'a'))?.n?.N).toBe(String(writes));
  });
});
