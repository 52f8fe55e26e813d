import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BatchWriteItemCommand,
  DescribeTableCommand,
  ListTablesCommand,
  PutItemCommand,
  QueryCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { startLocalDynamo, type LocalDynamo } from '../../../scripts/local/dynamo/index';
import { db as dynaliteDb, type TableDescription } from '../../../scripts/local/dynamo/dynalite-internals';
import { clientFor, createTable, getRaw, GSI, key, TABLE, tempDir } from './support';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVE_FIXTURE = fileURLToPath(new URL('./fixtures/serve.ts', import.meta.url));

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(dataDir: string): Promise<{ local: LocalDynamo; client: DynamoDBClient }> {
  const local = await startLocalDynamo({ dataDir });
  const { client } = clientFor(local.endpoint);
  let closed = false;
  const stop = async () => {
    if (closed) return;
    closed = true;
    client.destroy();
    await local.close();
  };
  cleanups.push(stop);
  return { local: { ...local, endpoint: local.endpoint, close: stop }, client };
}

/** the writes that must survive: plain, batched and transactional, touching the GSI */
async function writeFixtureData(client: DynamoDBClient): Promise<void> {
  await createTable(client);
  await client.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('doc', 'plain'), gsi1pk: { S: 'g' }, gsi1sk: { S: '1' } } }));
  await client.send(
    new BatchWriteItemCommand({
      RequestItems: { [TABLE]: [{ PutRequest: { Item: { ...key('doc', 'batched'), n: { N: '7' } } } }] },
    }),
  );
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        { Put: { TableName: TABLE, Item: { ...key('doc', 'tx'), gsi1pk: { S: 'g' }, gsi1sk: { S: '2' } } } },
        { Update: { TableName: TABLE, Key: key('doc', 'batched'), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
      ],
    }),
  );
}

async function assessFixtureData(client: DynamoDBClient): Promise<void> {
  const table = await client.send(new DescribeTableCommand({ TableName: TABLE }));
  expect(table.Table?.TableStatus).toBe('ACTIVE');
  expect(await getRaw(client, 'doc', 'plain')).toMatchObject({ gsi1sk: { S: '1' } });
  expect(await getRaw(client, 'doc', 'batched')).toMatchObject({ n: { N: '8' } });
  const viaGsi = await client.send(
    new QueryCommand({ TableName: TABLE, IndexName: GSI, KeyConditionExpression: 'gsi1pk = :g', ExpressionAttributeValues: { ':g': { S: 'g' } } }),
  );
  expect(viaGsi.Items?.map((i) => i.sk?.S)).toEqual(['plain', 'tx']);
  const viaTransactGet = await client.send(
    new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: TABLE, Key: key('doc', 'tx') } }] }),
  );
  expect(viaTransactGet.Responses?.[0]?.Item).toMatchObject(key('doc', 'tx'));
}

function spawnServer(dataDir: string): { child: ChildProcess; endpoint: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVE_FIXTURE, dataDir], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const endpoint = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => resolve((JSON.parse(line) as { endpoint: string }).endpoint));
    child.once('exit', (code) => reject(new Error(`server child exited (${code}) before serving: ${stderr}`)));
  });
  return { child, endpoint };
}

describe('persistence with dataDir', () => {
  it('keeps tables and items across close and restart', async () => {
    // Prepare
    const dir = tempDir('restart');
    cleanups.push(dir.remove);
    const first = await start(dir.dir);
    await writeFixtureData(first.client);

    // Act
    await first.local.close();
    const second = await start(dir.dir);

    // Assess
    await assessFixtureData(second.client);
  });

  it('keeps acknowledged writes when the serving process is killed with SIGKILL', async () => {
    // Prepare
    const dir = tempDir('sigkill');
    cleanups.push(dir.remove);
    const { child, endpoint } = spawnServer(dir.dir);
    cleanups.push(() => void (child.exitCode === null && child.kill('SIGKILL')));
    const { client: childClient } = clientFor(await endpoint);
    await writeFixtureData(childClient);
    childClient.destroy();

    // Act
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    const restarted = await start(dir.dir);

    // Assess
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
    await assessFixtureData(restarted.client);
    // and the data dir is fully usable again
    await restarted.client.send(
      new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: key('doc', 'after') } }] }),
    );
    expect(await getRaw(restarted.client, 'doc', 'after')).toEqual(key('doc', 'after'));
  }, 60_000);

  it('refuses a data dir that another running instance holds', async () => {
    // Prepare
    const dir = tempDir('locked');
    cleanups.push(dir.remove);
    await start(dir.dir);

    // Act / Assess
    await expect(startLocalDynamo({ dataDir: dir.dir })).rejects.toThrow(/cannot open data dir/);
  });

  // A kill inside dynalite's (0 ms) table-state timer leaves a transitional status on disk.
  const interrupted: Array<{ status: string; expectTable: boolean }> = [
    { status: 'CREATING', expectTable: true },
    { status: 'UPDATING', expectTable: true },
    { status: 'DELETING', expectTable: false },
  ];

  it.each(interrupted)('finishes a table left $status on start', async ({ status, expectTable }) => {
    // Prepare
    const dir = tempDir(status.toLowerCase());
    cleanups.push(dir.remove);
    const first = await start(dir.dir);
    await writeFixtureData(first.client);
    await first.local.close();
    await setTableStatus(dir.dir, status);

    // Act
    const { client } = await start(dir.dir);

    // Assess
    if (expectTable) {
      await assessFixtureData(client);
      return;
    }
    expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    // re-creating the table must not resurrect items or index entries of the deleted one
    await createTable(client);
    expect(await getRaw(client, 'doc', 'plain')).toBeUndefined();
    const viaGsi = await client.send(
      new QueryCommand({ TableName: TABLE, IndexName: GSI, KeyConditionExpression: 'gsi1pk = :g', ExpressionAttributeValues: { ':g': { S: 'g' } } }),
    );
    expect(viaGsi.Items).toEqual([]);
  });
});

/** Rewrites the stored table description the way dynalite does at the start of each transition. */
async function setTableStatus(dataDir: string, status: string): Promise<void> {
  const store = dynaliteDb.create({ path: dataDir });
  await store.db.open();
  const table = await new Promise<TableDescription>((resolve, reject) =>
    store.tableDb.get(TABLE, (err, value) => (err || !value ? reject(err ?? new Error('no table')) : resolve(value as unknown as TableDescription))),
  );
  table.TableStatus = status;
  if (status === 'DELETING') delete table.GlobalSecondaryIndexes; // as dynalite's deleteTable
  else for (const index of table.GlobalSecondaryIndexes ?? []) index.IndexStatus = status;
  await new Promise<void>((resolve, reject) => store.tableDb.put(TABLE, table, (err) => (err ? reject(err) : resolve())));
  await (store.db as unknown as { close(): Promise<void> }).close();
}
