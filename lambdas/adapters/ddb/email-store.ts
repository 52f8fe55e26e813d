/** Email-in in the single table: address claims (E1), email records (E2–E4) and notice counts (E7), docs/data-model.md. */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EmailStore } from '../../core/email-in/ports';
import { EMAIL_SUMMARY_ATTRIBUTES, type EmailInClaim, type EmailRecord, type EmailSummary } from '../../core/email-in/types';
import { TTL_ATTRIBUTE } from '../../../shared/table';
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

  async listOfCompany(companyId, page) {
    // E10: the company's records on gsi1, newest first. The position is the index's sort key of the last record;
    // the partition is always the caller's company, so a position from elsewhere reads nothing of another company.
    const after = page.after ? emailPosition(companyId, page.after) : undefined;
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.emailsOfCompany(companyId).gsi1pk },
        ScanIndexForward: false,
        // Not the text: the answer stays small (the 1 MB limit counts whole items, so a page may still end short).
        ProjectionExpression: [...EMAIL_SUMMARY_ATTRIBUTES, 'gsi1sk'].map((_, i) => `#a${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries([...EMAIL_SUMMARY_ATTRIBUTES, 'gsi1sk'].map((name, i) => [`#a${i}`, name])),
        // One more than the page: DynamoDB answers a LastEvaluatedKey at the limit even when nothing follows.
        Limit: page.limit + 1,
        ...(after ? { ExclusiveStartKey: after } : {}),
      }),
    );
    const found = res.Items ?? [];
    const items = found.slice(0, page.limit);
    const last = items.at(-1);
    // Fewer than the page with a LastEvaluatedKey: the read stopped at 1 MB, and more follows.
    const more = found.length > page.limit || res.LastEvaluatedKey !== undefined;
    return {
      items: items.map((i) => stripKeys<EmailSummary>(i)),
      next: more && last && typeof last.gsi1sk === 'string' ? last.gsi1sk : null,
    };
  },

  async create(record) {
    return writeIf(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.email(record.email_id), ...keys.emailOfCompany(record.company_id, record.created_at, record.email_id), type: 'EMAIL', ...record },
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

  async countNotice(address, hour, max, expiresAt) {
    return writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.emailInNotices(address, hour),
        // Counted by the table: of notices sent at once, only `max` get through (no read-then-write).
        UpdateExpression: 'ADD sent :one SET #type = :type, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(sent) OR sent < :max',
        ExpressionAttributeNames: { '#type': 'type', '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':one': 1, ':max': max, ':type': 'EMAIL_NOTICES', ':ttl': expiresAt },
      }),
    );
  },

  async putEnvelope(messageId, recipients, expiresAt) {
    // E11: written once by the rule's action; a redelivery of the rule writes the same.
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.receivedEnvelope(messageId), type: 'EMAIL_ENVELOPE', recipients, [TTL_ATTRIBUTE]: expiresAt },
      }),
    );
  },

  async envelope(messageId) {
    // E12: the rule's action wrote it before SES stored the message, so it is there when the job runs.
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.receivedEnvelope(messageId), ConsistentRead: true }));
    const recipients = res.Item?.recipients;
    return Array.isArray(recipients) ? recipients.filter((r): r is string => typeof r === 'string') : undefined;
  },
};

/** The index key of a record at `position` (`<created_at>#<email id>`) of the company's list, to read on after it. */
function emailPosition(companyId: string, position: string): Record<string, string> {
  const cut = position.lastIndexOf('#');
  const emailId = position.slice(cut + 1);
  const createdAt = position.slice(0, cut);
  return { ...keys.email(emailId), ...keys.emailOfCompany(companyId, createdAt, emailId) };
}
