/** Google Drive and Dropbox imports in the single table (docs/data-model.md "Drive imports"). */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TTL_ATTRIBUTE } from '../../../shared/table';
import { DRIVE_FLAG, DRIVE_FOLDER_FIELD, type DriveService } from '../../../shared/schemas/drive';
import type { DriveImportRecord, DriveStore, OAuthStateRecord } from '../../core/drive-import/ports';
import { ddb } from './client';
import { keys } from './keys';
import { isConditionFailure, stripKeys, tableName, writeIf } from './table-ops';

export const ddbDriveStore: DriveStore = {
  async putState(record) {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.oauthState(record.state_hash), type: 'OAUTH_STATE', ...record, [TTL_ATTRIBUTE]: Math.ceil(Date.parse(record.expires_at) / 1000) + 3600 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },
  async takeState(stateHash) {
    try {
      const res = await ddb().send(
        new DeleteCommand({ TableName: tableName(), Key: keys.oauthState(stateHash), ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_OLD' }),
      );
      return res.Attributes ? stripKeys<OAuthStateRecord & { type?: string }>(res.Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },
  async getImport(companyId, service) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.driveImport(companyId, service), ConsistentRead: true }));
    return res.Item ? stripKeys<DriveImportRecord>(res.Item) : undefined;
  },
  async putImport(record) {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.driveImport(record.company_id, record.service),
          ...(record.folder_id ? keys.driveImportActiveIndex(record.company_id, record.service) : {}),
          type: 'DRIVE_IMPORT',
          ...record,
        },
      }),
    );
  },
  async deleteImport(companyId, service) {
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.driveImport(companyId, service) }));
  },
  async listActive(limit, next) {
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.driveImportActivePartition().gsi1pk },
        Limit: limit,
        ...(next ? { ExclusiveStartKey: JSON.parse(Buffer.from(next, 'base64url').toString('utf8')) } : {}),
      }),
    );
    return {
      items: (res.Items ?? []).map((i) => ({ company_id: String(i.company_id), service: i.service as DriveService })),
      next: res.LastEvaluatedKey ? Buffer.from(JSON.stringify(res.LastEvaluatedKey)).toString('base64url') : undefined,
    };
  },
  async takeLease(companyId, service, leaseId, now, until) {
    return writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.driveImport(companyId, service),
        UpdateExpression: 'SET lease_id = :id, lease_until = :until',
        ConditionExpression: 'attribute_exists(pk) AND attribute_exists(folder_id) AND folder_id <> :null AND (attribute_not_exists(lease_until) OR lease_until = :null OR lease_until <= :now)',
        ExpressionAttributeValues: { ':id': leaseId, ':until': until, ':now': now, ':null': null },
      }),
    );
  },
  async saveProgress(companyId, service, leaseId, cursor, imported, skipped) {
    return writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.driveImport(companyId, service),
        UpdateExpression: 'SET #c = :c ADD total_imported :n, skipped_total :k',
        ConditionExpression: 'lease_id = :id',
        ExpressionAttributeNames: { '#c': 'cursor' },
        ExpressionAttributeValues: { ':c': cursor, ':n': imported, ':k': skipped, ':id': leaseId },
      }),
    );
  },
  async finishRun(companyId, service, leaseId, outcome) {
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.driveImport(companyId, service),
          UpdateExpression: 'SET last_run_at = :at, last_imported = :n, last_error = :e, skipped_files = :s, lease_id = :null, lease_until = :null',
          ConditionExpression: 'lease_id = :id',
          ExpressionAttributeValues: { ':at': outcome.at, ':n': outcome.imported, ':e': outcome.error, ':s': outcome.skipped_files, ':id': leaseId, ':null': null },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  },
  async setCompanyDrive(companyId, service, enabled, folderName) {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.company(companyId),
        UpdateExpression: 'SET #i.#f = :v, #n = :n',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#i': 'integrations', '#f': DRIVE_FLAG[service], '#n': DRIVE_FOLDER_FIELD[service] },
        ExpressionAttributeValues: { ':v': enabled, ':n': folderName },
      }),
    );
  },
};
