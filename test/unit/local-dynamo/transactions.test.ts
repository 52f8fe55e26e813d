import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConditionalCheckFailedException,
  DeleteTableCommand,
  DescribeTableCommand,
  PutItemCommand,
  QueryCommand,
  TransactGetItemsCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { TransactGetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalDynamo, type LocalDynamo } from '../../../scripts/local/dynamo/index';
import { clientFor, createTable, getRaw, GSI, key, rejectionOf, TABLE } from './support';

let local: LocalDynamo;
let client: DynamoDBClient;
let doc: DynamoDBDocumentClient;

beforeAll(async () => {
  local = await startLocalDynamo({});
  ({ client, doc } = clientFor(local.endpoint));
  await createTable(client);
});

afterAll(async () => {
  client?.destroy();
  await local?.close();
});

/** a partition key of its own for every test, so tests share the table without interfering */
const partition = () => `p-${randomUUID()}`;

async function put(pk: string, sk: string, attrs: Record<string, unknown> = {}): Promise<void> {
  await doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: { pk, sk, ...attrs } } }] }));
}

async function queryGsi(gsi1pk: string): Promise<Array<Record<string, unknown>>> {
  const out = await client.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: GSI,
      KeyConditionExpression: 'gsi1pk = :g',
      ExpressionAttributeValues: { ':g': { S: gsi1pk } },
    }),
  );
  return (out.Items ?? []).map((item) => ({ pk: item.pk?.S, sk: item.sk?.S, gsi1sk: item.gsi1sk?.S }));
}

describe('TransactWriteItems', () => {
  it('applies Put, Update (SET/ADD/REMOVE) and Delete together, including index maintenance', async () => {
    // Prepare
    const pk = partition();
    await put(pk, 'counter', { n: 5, gone: 'soon', gsi1pk: `${pk}-g`, gsi1sk: 'counter' });
    await put(pk, 'old', { gsi1pk: `${pk}-g`, gsi1sk: 'old' });

    // Act
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName: TABLE, Item: { ...key(pk, 'new'), gsi1pk: { S: `${pk}-g` }, gsi1sk: { S: 'new' } } } },
          {
            Update: {
              TableName: TABLE,
              Key: key(pk, 'counter'),
              UpdateExpression: 'SET #label = :label ADD n :inc, tags :tags REMOVE gone',
              ExpressionAttributeNames: { '#label': 'label' },
              ExpressionAttributeValues: { ':label': { S: 'hello' }, ':inc': { N: '3' }, ':tags': { SS: ['a'] } },
            },
          },
          { Delete: { TableName: TABLE, Key: key(pk, 'old') } },
        ],
      }),
    );

    // Assess
    expect(await getRaw(client, pk, 'new')).toMatchObject({ gsi1sk: { S: 'new' } });
    expect(await getRaw(client, pk, 'counter')).toEqual({
      ...key(pk, 'counter'),
      n: { N: '8' },
      label: { S: 'hello' },
      tags: { SS: ['a'] },
      gsi1pk: { S: `${pk}-g` },
      gsi1sk: { S: 'counter' },
    });
    expect(await getRaw(client, pk, 'old')).toBeUndefined();
    expect(await queryGsi(`${pk}-g`)).toEqual([
      { pk, sk: 'counter', gsi1sk: 'counter' },
      { pk, sk: 'new', gsi1sk: 'new' },
    ]);
  });

  it('works through the DocumentClient (lib-dynamodb) marshalling', async () => {
    // Prepare
    const pk = partition();

    // Act
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: TABLE, Item: { pk, sk: 'a', nested: { list: [1, 'two'], flag: true } } } },
          {
            Update: {
              TableName: TABLE,
              Key: { pk, sk: 'b' },
              UpdateExpression: 'SET amountTotal = if_not_exists(amountTotal, :zero) + :amount',
              ExpressionAttributeValues: { ':zero': 0, ':amount': 12.5 },
            },
          },
        ],
      }),
    );
    const read = await doc.send(
      new TransactGetCommand({
        TransactItems: [{ Get: { TableName: TABLE, Key: { pk, sk: 'a' } } }, { Get: { TableName: TABLE, Key: { pk, sk: 'b' } } }],
      }),
    );

    // Assess
    expect(read.Responses?.map((r) => r.Item)).toEqual([
      { pk, sk: 'a', nested: { list: [1, 'two'], flag: true } },
      { pk, sk: 'b', amountTotal: 12.5 },
    ]);
  });

  it('creates an item only once with an Update conditioned on attribute_not_exists', async () => {
    // Prepare
    const pk = partition();
    const createOnce = (value: string) =>
      client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Update: {
                TableName: TABLE,
                Key: key(pk, 'once'),
                UpdateExpression: 'SET v = :v',
                ConditionExpression: 'attribute_not_exists(pk)',
                ExpressionAttributeValues: { ':v': { S: value } },
              },
            },
          ],
        }),
      );

    // Act
    await createOnce('first');
    const second = await rejectionOf<TransactionCanceledException>(createOnce('second'));

    // Assess
    expect(second).toBeInstanceOf(TransactionCanceledException);
    expect(second.CancellationReasons).toEqual([
      { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
    ]);
    expect(await getRaw(client, pk, 'once')).toMatchObject({ v: { S: 'first' } });
  });

  // Each case: the state before, a transaction in which one operation fails, the expected reasons.
  const cancellations: Array<{
    name: string;
    ops: (pk: string) => TransactWriteItem[];
    reasons: Array<Record<string, unknown>>;
  }> = [
    {
      name: 'a failing ConditionCheck',
      ops: (pk) => [
        { Put: { TableName: TABLE, Item: { ...key(pk, 'fresh'), gsi1pk: { S: `${pk}-g` }, gsi1sk: { S: 'x' } } } },
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: key(pk, 'existing'),
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': { N: '2' } },
          },
        },
        { Delete: { TableName: TABLE, Key: key(pk, 'other') } },
      ],
      reasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }, { Code: 'None' }],
    },
    {
      name: 'a Put on an existing item with attribute_not_exists',
      ops: (pk) => [
        { Delete: { TableName: TABLE, Key: key(pk, 'other') } },
        { Put: { TableName: TABLE, Item: { ...key(pk, 'existing'), version: { N: '9' } }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
      reasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }],
    },
    {
      name: 'a failing Update condition with ReturnValuesOnConditionCheckFailure=ALL_OLD',
      ops: (pk) => [
        {
          Update: {
            TableName: TABLE,
            Key: key(pk, 'existing'),
            UpdateExpression: 'SET version = :next',
            ConditionExpression: 'version = :expected',
            ExpressionAttributeValues: { ':next': { N: '6' }, ':expected': { N: '5' } },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        { Delete: { TableName: TABLE, Key: key(pk, 'other') } },
      ],
      reasons: [
        {
          Code: 'ConditionalCheckFailed',
          Message: 'The conditional request failed',
          Item: { pk: { S: '<pk>' }, sk: { S: 'existing' }, version: { N: '1' } },
        },
        { Code: 'None' },
      ],
    },
    {
      name: 'two failing conditions (both reported)',
      ops: (pk) => [
        { ConditionCheck: { TableName: TABLE, Key: key(pk, 'missing'), ConditionExpression: 'attribute_exists(pk)' } },
        { Delete: { TableName: TABLE, Key: key(pk, 'other'), ConditionExpression: 'attribute_not_exists(sk)' } },
      ],
      reasons: [
        { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
        { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
      ],
    },
    {
      name: 'an Update whose expression cannot be applied (ADD to a string)',
      ops: (pk) => [
        { Put: { TableName: TABLE, Item: key(pk, 'fresh') } },
        { Update: { TableName: TABLE, Key: key(pk, 'other'), UpdateExpression: 'ADD word :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
      ],
      reasons: [
        { Code: 'None' },
        { Code: 'ValidationError', Message: 'An operand in the update expression has an incorrect data type' },
      ],
    },
  ];

  it.each(cancellations)('cancels everything on $name, with CancellationReasons', async ({ ops, reasons }) => {
    // Prepare
    const pk = partition();
    await put(pk, 'existing', { version: 1 });
    await put(pk, 'other', { word: 'kept' });
    const before = [await getRaw(client, pk, 'existing'), await getRaw(client, pk, 'other')];

    // Act
    const canceled = await rejectionOf<TransactionCanceledException>(
      client.send(new TransactWriteItemsCommand({ TransactItems: ops(pk) })),
    );

    // Assess
    expect(canceled).toBeInstanceOf(TransactionCanceledException);
    expect(canceled.name).toBe('TransactionCanceledException');
    expect(canceled.$metadata.httpStatusCode).toBe(400);
    expect(canceled.message).toContain(`[${reasons.map((r) => r.Code).join(', ')}]`);
    expect(canceled.CancellationReasons).toEqual(
      JSON.parse(JSON.stringify(reasons).replaceAll('<pk>', pk)) as typeof reasons,
    );
    // nothing written
    expect([await getRaw(client, pk, 'existing'), await getRaw(client, pk, 'other')]).toEqual(before);
    expect(await getRaw(client, pk, 'fresh')).toBeUndefined();
    expect(await queryGsi(`${pk}-g`)).toEqual([]);
  });

  const invalidRequests: Array<{ name: string; ops: (pk: string) => TransactWriteItem[]; error: string; message: RegExp }> = [
    {
      name: 'two operations on the same item',
      ops: (pk) => [
        { Put: { TableName: TABLE, Item: key(pk, 'same') } },
        { Update: { TableName: TABLE, Key: key(pk, 'same'), UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': { S: 'a' } } } },
      ],
      error: 'ValidationException',
      message: /multiple operations on one item/,
    },
    {
      name: 'more than 100 items',
      ops: (pk) => Array.from({ length: 101 }, (_, i) => ({ Put: { TableName: TABLE, Item: key(pk, `i${i}`) } })),
      error: 'ValidationException',
      message: /at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100/,
    },
    {
      name: 'two operations in one element',
      ops: (pk) => [{ Put: { TableName: TABLE, Item: key(pk, 'x') }, Delete: { TableName: TABLE, Key: key(pk, 'x') } }],
      error: 'ValidationException',
      message: /can only contain one of/,
    },
    {
      name: 'a key not matching the schema',
      ops: (pk) => [{ Delete: { TableName: TABLE, Key: { pk: { S: pk } } } }],
      error: 'ValidationException',
      message: /The provided key element does not match the schema/,
    },
    {
      name: 'an Update changing a key attribute',
      ops: (pk) => [{ Update: { TableName: TABLE, Key: key(pk, 'x'), UpdateExpression: 'SET sk = :s', ExpressionAttributeValues: { ':s': { S: 'y' } } } }],
      error: 'ValidationException',
      message: /Cannot update attribute sk. This attribute is part of the key/,
    },
    {
      name: 'a syntax error in a condition',
      ops: (pk) => [{ ConditionCheck: { TableName: TABLE, Key: key(pk, 'x'), ConditionExpression: 'attribute_exists(' } }],
      error: 'ValidationException',
      message: /Invalid ConditionExpression: Syntax error/,
    },
    {
      name: 'an unused expression attribute value',
      ops: (pk) => [{ Put: { TableName: TABLE, Item: key(pk, 'x'), ConditionExpression: 'attribute_not_exists(pk)', ExpressionAttributeValues: { ':unused': { S: 'u' } } } }],
      error: 'ValidationException',
      message: /unused in expressions: keys: \{:unused\}/,
    },
    {
      name: 'an unknown table',
      ops: (pk) => [{ Put: { TableName: 'no-such-table', Item: key(pk, 'x') } }],
      error: 'ResourceNotFoundException',
      message: /Requested resource not found/,
    },
  ];

  it.each(invalidRequests)('rejects $name with $error and writes nothing', async ({ ops, error, message }) => {
    // Prepare
    const pk = partition();

    // Act
    const err = await rejectionOf(client.send(new TransactWriteItemsCommand({ TransactItems: ops(pk) })));

    // Assess
    expect(err.name).toBe(error);
    expect(err.message).toMatch(message);
    const scan = await client.send(
      new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: pk } } }),
    );
    expect(scan.Count).toBe(0);
  });

  it('applies a request only once per ClientRequestToken', async () => {
    // Prepare
    const pk = partition();
    const request = (amount: string) => ({
      ClientRequestToken: `token-${pk}`.slice(0, 36),
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: key(pk, 'idem'),
            UpdateExpression: 'ADD n :n',
            ExpressionAttributeValues: { ':n': { N: amount } },
          },
        },
      ],
    });

    // Act
    await client.send(new TransactWriteItemsCommand(request('1')));
    await client.send(new TransactWriteItemsCommand(request('1')));
    const mismatch = await rejectionOf(client.send(new TransactWriteItemsCommand(request('2'))));

    // Assess
    expect(await getRaw(client, pk, 'idem')).toMatchObject({ n: { N: '1' } });
    expect(mismatch.name).toBe('IdempotentParameterMismatchException');
  });

  it('reports consumed capacity when asked', async () => {
    // Prepare
    const pk = partition();

    // Act
    const out = await client.send(
      new TransactWriteItemsCommand({
        ReturnConsumedCapacity: 'TOTAL',
        TransactItems: [{ Put: { TableName: TABLE, Item: key(pk, 'a') } }, { Put: { TableName: TABLE, Item: key(pk, 'b') } }],
      }),
    );

    // Assess
    expect(out.ConsumedCapacity).toEqual([
      { TableName: TABLE, CapacityUnits: 4, ReadCapacityUnits: 0, WriteCapacityUnits: 4 },
    ]);
  });
});

describe('TransactGetItems', () => {
  it('returns items in request order, {} for missing ones, with projections', async () => {
    // Prepare
    const pk = partition();
    await put(pk, 'a', { x: 1, y: 'why' });
    await put(pk, 'b', { x: 2, y: 'zed' });

    // Act
    const out = await client.send(
      new TransactGetItemsCommand({
        TransactItems: [
          { Get: { TableName: TABLE, Key: key(pk, 'b') } },
          { Get: { TableName: TABLE, Key: key(pk, 'missing') } },
          { Get: { TableName: TABLE, Key: key(pk, 'a'), ProjectionExpression: '#y', ExpressionAttributeNames: { '#y': 'y' } } },
        ],
      }),
    );

    // Assess
    expect(out.Responses).toEqual([
      { Item: { ...key(pk, 'b'), x: { N: '2' }, y: { S: 'zed' } } },
      {},
      { Item: { y: { S: 'why' } } },
    ]);
  });

  it('rejects two reads of the same item with ValidationException', async () => {
    // Prepare
    const pk = partition();

    // Act
    const err = await rejectionOf(
      client.send(
        new TransactGetItemsCommand({
          TransactItems: [{ Get: { TableName: TABLE, Key: key(pk, 'a') } }, { Get: { TableName: TABLE, Key: key(pk, 'a') } }],
        }),
      ),
    );

    // Assess
    expect(err.name).toBe('ValidationException');
    expect(err.message).toMatch(/multiple operations on one item/);
  });
});

describe('operations passed to dynalite', () => {
  it('answers CreateTable/DeleteTable only once the table is usable / gone', async () => {
    // Prepare
    const tableName = `tmp-${randomUUID()}`;

    // Act
    await createTable(client, tableName);
    const putRightAway = client.send(new PutItemCommand({ TableName: tableName, Item: key('a', 'b') }));
    await putRightAway;
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    await client.send(new DeleteTableCommand({ TableName: tableName }));
    await createTable(client, tableName);

    // Assess
    expect(described.Table?.TableStatus).toBe('ACTIVE');
    expect(described.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexStatus)).toEqual(['ACTIVE']);
    expect(await getRaw(client, 'a', 'b', tableName)).toBeUndefined();
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  });

  it('Query on the GSI follows plain puts, transactional updates of the index key and deletes', async () => {
    // Prepare
    const pk = partition();
    const g = `${pk}-g`;
    await client.send(new PutItemCommand({ TableName: TABLE, Item: { ...key(pk, '1'), gsi1pk: { S: g }, gsi1sk: { S: 'b' } } }));
    await put(pk, '2', { gsi1pk: g, gsi1sk: 'a' });
    await put(pk, '3', { gsi1pk: g, gsi1sk: 'c' });

    // Act
    const initial = await queryGsi(g);
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Update: { TableName: TABLE, Key: key(pk, '1'), UpdateExpression: 'SET gsi1sk = :z', ExpressionAttributeValues: { ':z': { S: 'z' } } } },
          { Delete: { TableName: TABLE, Key: key(pk, '3') } },
        ],
      }),
    );
    const after = await queryGsi(g);

    // Assess
    expect(initial.map((i) => i.sk)).toEqual(['2', '1', '3']);
    expect(after).toEqual([
      { pk, sk: '2', gsi1sk: 'a' },
      { pk, sk: '1', gsi1sk: 'z' },
    ]);
  });

  it('UpdateItem accepts ReturnValuesOnConditionCheckFailure (dynalite ignores it: no Item on failure)', async () => {
    // Prepare
    const pk = partition();
    await put(pk, 'v', { version: 1 });

    // Act
    const err = await rejectionOf<ConditionalCheckFailedException>(
      client.send(
        new UpdateItemCommand({
          TableName: TABLE,
          Key: key(pk, 'v'),
          UpdateExpression: 'SET version = :two',
          ConditionExpression: 'version = :zero',
          ExpressionAttributeValues: { ':two': { N: '2' }, ':zero': { N: '0' } },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );

    // Assess
    expect(err).toBeInstanceOf(ConditionalCheckFailedException);
    expect(err.Item).toBeUndefined();
    expect(await getRaw(client, pk, 'v')).toMatchObject({ version: { N: '1' } });
  });
});
