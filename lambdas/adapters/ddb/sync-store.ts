/** Master-data imports' state items (docs/data-model.md "Master-data imports", patterns S1–S5). */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { badRequest } from '../../../shared/errors';
import { SYNC_IMPORTS, type SyncImport } from '../../../shared/schemas/master-data-sync';
import type { SyncAcquired, SyncState, SyncStateStore } from '../../core/master-data/sync/ports';
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
    settings_version: s.settings_version ?? 0,
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
    const names: Record<string, string> = { '#e': 'enabled', '#u': 'updated_at', '#c': 'company_id', '#t': 'type', '#k': 'kind', '#p': 'position', '#v': 'settings_version' };
    const values: Record<string, unknown> = { ':e': enabled, ':u': nowIso, ':c': companyId, ':t': type, ':k': 'MDSYNC', ':one': 1 };
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
        UpdateExpression: enabled ? `${set} ADD #v :one REMOVE #p` : `${set} ADD #v :one REMOVE gsi1pk, gsi1sk, #p`,
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
        UpdateExpression: 'SET #m = :m, #u = :u, #c = :c, #t = :t ADD #v :one REMOVE #p',
        ExpressionAttributeNames: { '#m': 'mapping', '#u': 'updated_at', '#c': 'company_id', '#t': 'type', '#p': 'position', '#v': 'settings_version' },
        ExpressionAttributeValues: { ':m': mapping, ':u': nowIso, ':c': companyId, ':t': 'sql_import', ':one': 1 },
      }),
    );
  },
  // S4: the lease (conditional update, never creating the item) and the run's progress under it.
  async acquire(companyId, type, runId, nowIso, untilIso): Promise<SyncAcquired> {
    try {
      const res = await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.syncState(companyId, type),
          UpdateExpression: 'SET lease_run_id = :r, lease_until = :until',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lease_until) OR lease_until < :now)',
          ExpressionAttributeValues: { ':r': runId, ':until': untilIso, ':now': nowIso },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stateOf(res.Attributes ?? {}, companyId, type);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // S1: busy, or no state to run (a continuation for a purged company must not bring its item back).
      return (await ddbSyncStateStore.get(companyId, type)) ? 'busy' : 'none';
    }
  },
  async saveRun(companyId, type, runId, settingsVersion, patch, release, nowIso) {
    return writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.syncState(companyId, type),
        UpdateExpression: `SET #run = :run, #pos = :pos, last_error = :err, updated_at = :u${release ? ' REMOVE lease_run_id, lease_until' : ''}`,
        // Absent until the settings first change (items written before the version existed).
        ConditionExpression: `lease_run_id = :r AND ${settingsVersion === 0 ? '(attribute_not_exists(#v) OR #v = :v)' : '#v = :v'}`,
        ExpressionAttributeNames: { '#run': 'run', '#pos': 'position', '#v': 'settings_version' },
        ExpressionAttributeValues: { ':run': patch.run, ':pos': patch.position, ':err': patch.last_error, ':u': nowIso, ':r': runId, ':v': settingsVersion },
      }),
    );
  },
  async abandonRun(companyId, type, runId, run, nowIso) {
    await writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.syncState(companyId, type),
        UpdateExpression: `SET updated_at = :u${run ? ', #run = :run' : ''} REMOVE lease_run_id, lease_until${run ? ', #pos' : ''}`,
        ConditionExpression: 'lease_run_id = :r',
        ExpressionAttributeNames: run ? { '#run': 'run', '#pos': 'position' } : undefined,
        ExpressionAttributeValues: { ':u': nowIso, ':r': runId, ...(run ? { ':run': run } : {}) },
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
