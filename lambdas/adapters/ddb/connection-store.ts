import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
  async subscribe(connectionId, userId, companyIds, { closesAt, subscribedUntil: expiresAt }) {
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
        Item: {
          ...keys.connection(connectionId),
          type: 'CONNECTION',
          connection_id: connectionId,
          user_id: userId,
          closes_at: closesAt,
          subscribed_until: expiresAt,
          ttl: closesAt,
        },
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
  async renew(connectionId, subscribedUntil) {
    // A11; each item that still exists gets the new end (a subscription deleted meanwhile, A13/A14, stays deleted).
    const items = await itemsOf(connectionId);
    for (const item of items) {
      const meta = item.sk === keys.connection(connectionId).sk;
      try {
        await ddb().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: meta ? 'SET subscribed_until = :until' : 'SET #ttl = :until',
            ConditionExpression: 'attribute_exists(pk)',
            ...(meta ? {} : { ExpressionAttributeNames: { '#ttl': 'ttl' } }),
            ExpressionAttributeValues: { ':until': subscribedUntil },
          }),
        );
      } catch (error) {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      }
    }
  },
  async connection(connectionId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.connection(connectionId), ConsistentRead: true }));
    if (!res.Item) return undefined;
    // A connection recorded before its subscriptions followed the token: its two hours.
    const ttl = Number(res.Item.ttl ?? 0);
    return {
      userId: String(res.Item.user_id),
      closesAt: Number(res.Item.closes_at ?? ttl),
      subscribedUntil: Number(res.Item.subscribed_until ?? ttl),
    };
  },
};
