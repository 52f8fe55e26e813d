/** Integrations in the single table (docs/data-model.md "Integrations"). */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportMarker, IntegrationStore, StoredCredentials } from '../../core/integrations/ports';
import { ddb } from './client';
import { keys } from './keys';
import { stripKeys, tableName, writeIf } from './table-ops';

export const ddbIntegrationStore: IntegrationStore = {
  async getCredentials(companyId, type) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.integrationCredentials(companyId, type) }));
    return res.Item ? stripKeys<StoredCredentials>(res.Item) : undefined;
  },
  async putCredentials(record) {
    await ddb().send(
      new PutCommand({ TableName: tableName(), Item: { ...keys.integrationCredentials(record.company_id, record.type), kind: 'INTEGRATION', ...record } }),
    );
  },
  async deleteCredentials(companyId, type) {
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.integrationCredentials(companyId, type) }));
  },
  async setFlag(companyId, flag, enabled) {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.company(companyId),
        UpdateExpression: 'SET #i.#f = :v',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#i': 'integrations', '#f': flag },
        ExpressionAttributeValues: { ':v': enabled },
      }),
    );
  },
  async getExportMarker(receiptId, target) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.exportMarker(receiptId, target) }));
    return res.Item ? stripKeys<ExportMarker>(res.Item) : undefined;
  },
  async putExportMarker(marker) {
    return writeIf(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.exportMarker(marker.receipt_id, marker.target), type: 'EXPORT', ...marker },
        ConditionExpression: 'attribute_not_exists(pk) OR content_key <> :ck',
        ExpressionAttributeValues: { ':ck': marker.content_key },
      }),
    );
  },
};
