/**
 * Master-data imports in the single table (docs/data-model.md, "master-data import", patterns I1–I5): the
 * import record and, per chunk with rejected rows, one item of them. A chunk's counts, the progress and its
 * rejected rows are written in one transaction conditioned on the progress, so a retried message neither
 * counts a chunk twice nor writes its rejected rows twice.
 */
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportRecord, ImportsStore } from '../../core/master-data/import/ports';
import type { RejectedRow } from '../../core/master-data/import/rows';
import { ddb } from './client';
import { keys } from './keys';
import { stripKeys, tableName } from './table-ops';

/** Import records and their rejected rows are kept this long. */
export const IMPORT_TTL_SECONDS = 30 * 24 * 3600;

const isConditionFailure = (error: unknown) => {
  const name = (error as { name?: string })?.name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
};

const ttlFrom = (iso: string) => Math.floor(new Date(iso).getTime() / 1000) + IMPORT_TTL_SECONDS;

export const ddbImportsStore: ImportsStore = {
  async create(record) {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.masterImport(record.import_id), entity: 'MD_IMPORT', ...record, ttl: ttlFrom(record.created_at) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async get(importId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.masterImport(importId), ConsistentRead: true }));
    if (!res.Item) return undefined;
    const { entity: _entity, ...record } = stripKeys<ImportRecord & { entity?: string }>(res.Item);
    return record;
  },

  async rejectedRows(importId) {
    const rows: RejectedRow[] = [];
    const { pk, skPrefix } = keys.masterImportRejectedOf(importId);
    let start: Record<string, unknown> | undefined;
    do {
      const res = await ddb().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of res.Items ?? []) {
        for (const r of (item.rows as RejectedRow[] | undefined) ?? []) rows.push({ row: Number(r.row), reason: String(r.reason) });
      }
      start = res.LastEvaluatedKey;
    } while (start);
    return rows;
  },

  async start(importId, etag, totalRows, nowIso) {
    try {
      const res = await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.masterImport(importId),
          UpdateExpression: 'SET #status = :processing, source_etag = :etag, total_rows = :total, updated_at = :now',
          ConditionExpression: '#status = :pending OR (#status = :processing AND source_etag = :etag)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':processing': 'processing', ':pending': 'pending', ':etag': etag, ':total': totalRows, ':now': nowIso },
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (!res.Attributes) return undefined;
      const { entity: _entity, ...record } = stripKeys<ImportRecord & { entity?: string }>(res.Attributes);
      return record;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },

  async commitChunk(importId, chunk, nowIso) {
    const update = {
      Update: {
        TableName: tableName(),
        Key: keys.masterImport(importId),
        UpdateExpression: 'SET next_row = :to, updated_at = :now ADD created :c, updated :u, unchanged :n, rejected_count :r',
        ConditionExpression: '#status = :processing AND next_row = :from',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':to': chunk.to,
          ':from': chunk.from,
          ':now': nowIso,
          ':c': chunk.created,
          ':u': chunk.updated,
          ':n': chunk.unchanged,
          ':r': chunk.rejected.length,
          ':processing': 'processing',
        },
      },
    };
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [update];
    if (chunk.rejected.length > 0) {
      items.push({
        Put: {
          TableName: tableName(),
          Item: { ...keys.masterImportRejected(importId, chunk.from), entity: 'MD_IMPORT_REJECTED', rows: chunk.rejected, ttl: ttlFrom(nowIso) },
        },
      });
    }
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async finish(importId, status, message, nowIso) {
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.masterImport(importId),
          UpdateExpression: 'SET #status = :status, message = :message, finished_at = :now, updated_at = :now',
          ConditionExpression: '#status IN (:pending, :processing)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': status, ':message': message, ':now': nowIso, ':pending': 'pending', ':processing': 'processing' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  },
};
