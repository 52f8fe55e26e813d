import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export const TABLE = 'local-dynamo-test';
export const GSI = 'gsi1';

export function clientFor(endpoint: string): { client: DynamoDBClient; doc: DynamoDBDocumentClient } {
  const client = new DynamoDBClient({
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  return { client, doc: DynamoDBDocumentClient.from(client) };
}

/** pk/sk strings, plus a GSI on gsi1pk/gsi1sk projecting all attributes. */
export async function createTable(client: DynamoDBClient, tableName = TABLE): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'gsi1pk', AttributeType: 'S' },
        { AttributeName: 'gsi1sk', AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: GSI,
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
}

export function key(pk: string, sk: string): Record<string, AttributeValue> {
  return { pk: { S: pk }, sk: { S: sk } };
}

export async function getRaw(
  client: DynamoDBClient,
  pk: string,
  sk: string,
  tableName = TABLE,
): Promise<Record<string, AttributeValue> | undefined> {
  const out = await client.send(new GetItemCommand({ TableName: tableName, Key: key(pk, sk), ConsistentRead: true }));
  return out.Item;
}

export function tempDir(label: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `local-dynamo-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Captures the rejection of a promise (fails if it resolves), for assertions on its fields. */
export async function rejectionOf<E extends Error = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (err) {
    return err as E;
  }
  throw new Error('expected the operation to fail, but it succeeded');
}
