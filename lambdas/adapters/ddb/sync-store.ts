/** Master-data imports' state items (docs/data-model.md "Master-data imports", patterns S1–S5). */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { badRequest } from '../../../shared/errors';
import { SYNC_IMPORTS, type SyncImport } from '../../../shared/schemas/master-data-sync';
import type { SyncState, SyncStateStore } from '../../core/master-data/sync/ports';
import { ddb } from './client';
import { keys } from './keys';
import { isConditionFailure, stripKeys, tableName, writeIf } from './table-ops';

const PAGE = 100;

function stateOf(item: Record<string, unknown>, companyId: string, type: SyncImport): SyncState {
  const s = stripKeys<Partial<SyncState>>(item);
  return {
    company_id: companyId,
    type,
    enabled: s.enabled ?? false,
    mapping: s.mapping ?? null,
    run: s.run ?? null,
    position: s.position ?? null,
    last_error: s.last_error ?? null,
    connection: s.connection ?? null,
    lease_run_id: s.lease_run_id ?? null,
    lease_until: s.lease_until ?? null,
    updated_at: s.updated_at ?? '',
  };
}


export const ddbSyncStateStore: SyncStateStore = {
  // S1: the state of one import.
  async get(companyId, type) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.syncState(companyId, type), ConsistentRead: true }));
    return res.Item ? stateOf(res.Item, companyId, type) : undefined;
  },
  // S2: switch on (listed in gsi1 for the schedule) or off.
  async setEnabled(companyId, type, enabled, nowIso, connection) {
    const names: Record<string, string> = { '#e': 'enabled', '#u': 'updated_at', '#c': 'company_id', '#t': 'type', '#k': 'kind', '#p': 'position' };
    const values: Record<string, unknown> = { ':e': enabled, ':u': nowIso, ':c': companyId, ':t': type, ':k': 'MDSYNC' };
    let set = 'SET #e = :e, #u = :u, #c = :c, #t = :t, #k = :k';
    if (connection !== undefined) {
      names['#conn'] = 'connection';
      values[':conn'] = connection;
      set += ', #conn = :conn';
    }
    if (enabled) {
      const index = keys.syncEnabledIndex(type, companyId);
      values[':g1'] = index.gsi1pk;
      values[':g2'] = index.gsi1sk;
      set += ', gsi1pk = :g1, gsi1sk = :g2';
    }
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.syncState(companyId, type),
        // A switch (and the connection it tested) starts the next run from the beginning: no position survives it.
        UpdateExpression: enabled ? `${set} REMOVE #p` : `${set} REMOVE gsi1pk, gsi1sk, #p`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  },
  // S3: the SQL mapping.
  async putMapping(companyId, mapping, nowIso) {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.syncState(companyId, 'sql_import'),
        // A position was read with the old mapping (its tables, its key columns): the next run starts over.
        UpdateExpression: 'SET #m = :m, #u = :u, #c = :c, #t = :t REMOVE #p',
        ExpressionAttributeNames: { '#m': 'mapping', '#u': 'updated_at', '#c': 'company_id', '#t': 'type', '#p': 'position' },
        ExpressionAttributeValues: { ':m': mapping, ':u': nowIso, ':c': companyId, ':t': 'sql_import' },
      }),
    );
  },
  // S4: the lease (conditional update) and the run's progress under it.
  async acquire(companyId, type, runId, nowIso, untilIso) {
    try {
      const res = await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.syncState(companyId, type),
          UpdateExpression: 'SET lease_run_id = :r, lease_until = :until, #c = :c, #t = :t',
          ConditionExpression: 'attribute_not_exists(lease_until) OR lease_until < :now',
          ExpressionAttributeNames: { '#c': 'company_id', '#t': 'type' },
          ExpressionAttributeValues: { ':r': runId, ':until': untilIso, ':now': nowIso, ':c': companyId, ':t': type },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stateOf(res.Attributes ?? {}, companyId, type);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },
  async saveRun(companyId, type, runId, patch, release, nowIso) {
    return writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.syncState(companyId, type),
        UpdateExpression: `SET #run = :run, #pos = :pos, last_error = :err, updated_at = :u${release ? ' REMOVE lease_run_id, lease_until' : ''}`,
        ConditionExpression: 'lease_run_id = :r',
        ExpressionAttributeNames: { '#run': 'run', '#pos': 'position' },
        ExpressionAttributeValues: { ':run': patch.run, ':pos': patch.position, ':err': patch.last_error, ':u': nowIso, ':r': runId },
      }),
    );
  },
  // S5: switched-on imports of every company (the schedule).
  async listEnabled(cursor) {
    let start: Record<string, unknown> | undefined;
    if (cursor) {
      const [type, companyId] = cursor.split('#');
      if (!type || !companyId || !(SYNC_IMPORTS as readonly string[]).includes(type) || cursor.length > 300) throw badRequest('Invalid cursor');
      start = { ...keys.syncState(companyId, type), ...keys.syncEnabledIndex(type, companyId) };
    }
    const p = keys.syncEnabledPartition();
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: p.index,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': p.pk },
        Limit: PAGE,
        ExclusiveStartKey: start,
      }),
    );
    const items = (res.Items ?? []).map((i) => ({ company_id: i.company_id as string, type: i.type as SyncImport }));
    const last = items[items.length - 1];
    return { items, cursor: res.LastEvaluatedKey && last ? `${last.type}#${last.company_id}` : null };
  },
};
