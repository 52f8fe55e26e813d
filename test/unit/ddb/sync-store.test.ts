/** The master-data imports' state item (S1, S4): the lease never creates the item, progress follows the settings' version. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddbSyncStateStore } from '../../../lambdas/adapters/ddb/sync-store';
import { mockDocumentTable } from '../../support/ddb-mock';

const ddbMock = mockDocumentTable();
const refused = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
const key = { pk: 'COMPANY#c1', sk: 'MDSYNC#rivile_import' };

describe('ddb master-data import state', () => {
  it('takes the lease only on an existing item and answers its settings version', async () => {
    ddbMock.on(UpdateCommand).resolves({ Attributes: { ...key, enabled: true, settings_version: 3, lease_run_id: 'r1', lease_until: 'later' } });
    const state = await ddbSyncStateStore.acquire('c1', 'rivile_import', 'r1', 'now', 'later');
    expect(state).toMatchObject({ enabled: true, settings_version: 3, lease_run_id: 'r1' });
    const input = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toBe('attribute_exists(pk) AND (attribute_not_exists(lease_until) OR lease_until < :now)');
    expect(input.UpdateExpression).toBe('SET lease_run_id = :r, lease_until = :until');
  });

  it('tells a refused lease from a missing item: busy, or none (never switched on, or the company purged)', async () => {
    ddbMock.on(UpdateCommand).rejects(refused());
    ddbMock.on(GetCommand).resolvesOnce({ Item: { ...key, enabled: true, lease_run_id: 'other' } }).resolvesOnce({});
    expect(await ddbSyncStateStore.acquire('c1', 'rivile_import', 'r1', 'now', 'later')).toBe('busy');
    expect(await ddbSyncStateStore.acquire('c1', 'rivile_import', 'r1', 'now', 'later')).toBe('none');
  });

  it('saves progress only under the run\'s lease and the settings it started with', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({}).rejectsOnce(refused());
    const patch = { run: null, position: { step: 1, after: 'K9' }, last_error: null };
    expect(await ddbSyncStateStore.saveRun('c1', 'rivile_import', 'r1', 0, patch, false, 'now')).toBe(true);
    expect(await ddbSyncStateStore.saveRun('c1', 'rivile_import', 'r1', 2, patch, true, 'now')).toBe(false);
    const [first, second] = ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    // Items written before the version existed count as version 0.
    expect(first!.ConditionExpression).toBe('lease_run_id = :r AND (attribute_not_exists(#v) OR #v = :v)');
    expect(second!.ConditionExpression).toBe('lease_run_id = :r AND #v = :v');
    expect(second!.ExpressionAttributeValues).toMatchObject({ ':r': 'r1', ':v': 2 });
    expect(second!.UpdateExpression).toContain('REMOVE lease_run_id, lease_until');
  });

  it('counts every change of the settings and ends an overtaken run without its position', async () => {
    ddbMock.on(UpdateCommand).resolves({});
    await ddbSyncStateStore.setEnabled('c1', 'rivile_import', false, 'now');
    await ddbSyncStateStore.putMapping('c1', {} as never, 'now');
    await ddbSyncStateStore.abandonRun('c1', 'rivile_import', 'r1', { outcome: 'partial' } as never, 'now');
    const [off, mapping, abandon] = ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(off!.UpdateExpression).toContain('ADD #v :one');
    expect(off!.ExpressionAttributeNames).toMatchObject({ '#v': 'settings_version' });
    expect(mapping!.UpdateExpression).toContain('ADD #v :one');
    expect(abandon).toMatchObject({
      UpdateExpression: 'SET updated_at = :u, #run = :run REMOVE lease_run_id, lease_until, #pos',
      ConditionExpression: 'lease_run_id = :r',
      ExpressionAttributeValues: { ':u': 'now', ':r': 'r1', ':run': { outcome: 'partial' } },
    });
  });
});
