import {
  BatchGetCommand,
  BatchWriteCommand,
  QueryCommand,
  ScanCommand,
  type DeleteCommand,
  type PutCommand,
  type QueryCommandInput,
  type ScanCommandInput,
  type UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { env } from '../../runtime/env';
import { ddb } from './client';
import type { Key } from './keys';

export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Key } };

/** A single write refused by its ConditionExpression (nothing was written). */
export const isConditionFailure = (error: unknown): boolean => (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException';

/** A write conditioned on its ConditionExpression: true when written, false when the condition refused it. */
export async function writeIf(command: PutCommand | UpdateCommand | DeleteCommand): Promise<boolean> {
  try {
    await ddb().send(command as PutCommand);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export const tableName = () => env().TABLE_NAME;

const KEY_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'ttl']);

/** Strips key and index attributes before an item leaves the data layer. */
export function stripKeys<T>(item: Record<string, unknown>): T {
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) if (!KEY_ATTRIBUTES.has(name)) rest[name] = value;
  return rest as T;
}

/** Sends of one batch before what DynamoDB left unprocessed (throttling) is an error: never a silent partial answer. */
const BATCH_ATTEMPTS = 8;
const backOff = (attempt: number) => new Promise((r) => setTimeout(r, 20 * 2 ** attempt));

/**
 * BatchGetItem in chunks of 100, retrying unprocessed keys. Order of the result is not the order of keys.
 * `consistent` reads the latest committed items (ConsistentRead). Keys still unprocessed after the retries throw:
 * a missing item would read as "not found" (an export's 404, a purge that skips what it did not see).
 */
export async function batchGet(keyList: Key[], options: { consistent?: boolean } = {}): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < keyList.length; i += 100) {
    let pending: Record<string, unknown>[] = keyList.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === BATCH_ATTEMPTS) throw new Error(`${pending.length} reads were not processed`);
      if (attempt > 0) await backOff(attempt - 1);
      const request = { Keys: pending, ...(options.consistent ? { ConsistentRead: true } : {}) };
      const res = await ddb().send(new BatchGetCommand({ RequestItems: { [tableName()]: request } }));
      out.push(...(res.Responses?.[tableName()] ?? []));
      pending = (res.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return out;
}

/** BatchWriteItem in chunks of 25, retrying unprocessed items; items still unprocessed after the retries throw. */
export async function batchWrite(requests: WriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    let pending = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === BATCH_ATTEMPTS) throw new Error(`${pending.length} writes were not processed`);
      if (attempt > 0) await backOff(attempt - 1);
      const res = await ddb().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (res.UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
    }
  }
}

export async function batchDelete(keyList: Key[]): Promise<void> {
  await batchWrite(keyList.map((Key) => ({ DeleteRequest: { Key } })));
}

/** Follows LastEvaluatedKey until done; only for bounded partitions (a user's companies, a company's members). */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * A maintenance Scan of the table, page by page (at most 1,000 items a page) until its end: for backfills only, never
 * on a request path (docs/data-model.md).
 */
export async function* scanPages(input: Omit<ScanCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>): AsyncGenerator<Record<string, unknown>[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(new ScanCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start, Limit: 1000 }));
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}
