import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ConnectionStore } from '../../core/live/connections';
import { ddb } from './client';
import { keys } from './keys';
import { batchDelete, queryAll, tableName } from './table-ops';

async function itemsOf(connectionId: string) {
  return queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.connectionItems(connectionId).pk },
    ProjectionExpression: 'pk, sk',
  });
}

export const ddbConnectionStore: ConnectionStore = {
  async subscribe(connectionId, userId, companyIds, expiresAt) {
    const existing = await itemsOf(connectionId);
    const keep = new Set(companyIds.map((id) => keys.connectionSubscription(connectionId, id).sk));
    await batchDelete(
      existing
        .filter((i) => String(i.sk).startsWith('SUB#') && !keep.has(String(i.sk)))
        .map((i) => ({ pk: String(i.pk), sk: String(i.sk) })),
    );
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.connection(connectionId), type: 'CONNECTION', connection_id: connectionId, user_id: userId, ttl: expiresAt },
      }),
    );
    // Every connection also follows its user's own channel (documents not yet in a company).
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.connectionUserSubscription(connectionId),
          ...keys.connectionOfUserIndex(userId, connectionId),
          type: 'CONNECTION_USER',
          connection_id: connectionId,
          user_id: userId,
          ttl: expiresAt,
        },
      }),
    );
    for (const companyId of companyIds) {
      await ddb().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keys.connectionSubscription(connectionId, companyId),
            ...keys.connectionOfCompanyIndex(companyId, connectionId),
            type: 'CONNECTION_SUB',
            connection_id: connectionId,
            company_id: companyId,
            user_id: userId,
            ttl: expiresAt,
          },
        }),
      );
    }
  },
  async remove(connectionId) {
    const items = await itemsOf(connectionId);
    await batchDelete(items.map((i) => ({ pk: String(i.pk), sk: String(i.sk) })));
  },
  async unsubscribeUser(userId, companyId) {
    // A13: the user's connections (A12's partition, expired ones too), then each one's subscription to the company;
    // deleting a subscription a connection does not have is a no-op.
    const connections = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.connectionOfUserIndex(userId, '').gsi1pk },
      ProjectionExpression: 'connection_id',
    });
    const connectionIds = [...new Set(connections.map((c) => String(c.connection_id)))];
    await batchDelete(connectionIds.map((id) => keys.connectionSubscription(id, companyId)));
  },
  async unsubscribeCompany(companyId) {
    // A14: every subscription to the company (A10's partition, expired ones too).
    const subscriptions = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.connectionOfCompanyIndex(companyId, '').gsi1pk },
      ProjectionExpression: 'pk, sk',
    });
    await batchDelete(subscriptions.map((i) => ({ pk: String(i.pk), sk: String(i.sk) })));
  },
  async owner(connectionId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.connection(connectionId) }));
    return res.Item ? String(res.Item.user_id) : undefined;
  },
};
