/** Email-in in the single table: address claims (E1) and email records (E2–E4), docs/data-model.md. */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EmailStore } from '../../core/email-in/ports';
import type { EmailInClaim, EmailRecord } from '../../core/email-in/types';
import { ddb } from './client';
import { keys } from './keys';
import { stripKeys, tableName, writeIf } from './table-ops';

export const ddbEmailStore: EmailStore = {
  async claim(address) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.emailIn(address) }));
    if (!res.Item || typeof res.Item.company_id !== 'string') return undefined;
    return {
      address: String(res.Item.address ?? address),
      company_id: res.Item.company_id,
      user_id: typeof res.Item.user_id === 'string' && res.Item.user_id ? res.Item.user_id : null,
    } satisfies EmailInClaim;
  },

  async get(emailId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.email(emailId), ConsistentRead: true }));
    return res.Item ? stripKeys<EmailRecord>(res.Item) : undefined;
  },

  async create(record) {
    return writeIf(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.email(record.email_id), type: 'EMAIL', ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async finish(emailId, files) {
    return writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.email(emailId),
        UpdateExpression: 'SET #state = :done, files = :files',
        // Only the run that moves it from receiving finishes it (two deliveries at once: one notice).
        ConditionExpression: '#state = :receiving',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':done': 'done', ':files': files, ':receiving': 'receiving' },
      }),
    );
  },
};
