import {
  BatchGetCommand,
  BatchWriteCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { env } from '../../runtime/env';
import { ddb } from './client';
import type { Key } from './keys';

export const tableName = () => env().TABLE_NAME;

const KEY_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'ttl']);

/** Strips key and index attributes before an item leaves the data layer. */
export function stripKeys<T>(item: Record<string, unknown>): T {
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) if (!KEY_ATTRIBUTES.has(name)) rest[name] = value;
  return rest as T;
}

/**
 * BatchGetItem in chunks of 100, retrying unprocessed keys. Order of the result is not the order of keys.
 * `consistent` reads the latest committed items (ConsistentRead).
 */
export async function batchGet(keyList: Key[], options: { consistent?: boolean } = {}): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < keyList.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = keyList.slice(i, i + 100);
    for (let attempt = 0; pending && pending.length > 0 && attempt < 8; attempt++) {
      const request = { Keys: pending, ...(options.consistent ? { ConsistentRead: true } : {}) };
      const res = await ddb().send(new BatchGetCommand({ RequestItems: { [tableName()]: request } }));
      out.push(...(res.Responses?.[tableName()] ?? []));
      pending = res.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[] | undefined;
      if (pending && pending.length > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  }
  return out;
}

export async function batchDelete(keyList: Key[]): Promise<void> {
  for (let i = 0; i < keyList.length; i += 25) {
    let pending = keyList.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt++) {
      const res = await ddb().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (res.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      if (pending.length > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  }
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
