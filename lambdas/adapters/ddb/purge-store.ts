/**
 * The purge of a deleted company on the single table (docs/data-model.md, access patterns A16–A23): pages of the
 * company's partitions and indexes, each read by its key and deleted. Every delete is idempotent; conditions keep it
 * to the company's own items.
 */
import { DeleteCommand, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CompanyPurgeStore, PurgeEmail } from '../../core/ports';
import { ddb } from './client';
import { keys } from './keys';
import { batchWrite, queryAll, tableName, writeIf } from './table-ops';

type Item = Record<string, unknown>;

const encodeCursor = (key: Item | undefined): string | null => (key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : null);

function decodeCursor(cursor: string | null): Item | undefined {
  if (!cursor) return undefined;
  const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a purge cursor');
  return value as Item;
}

/** One page of a query (by its key only), then a delete of each item it found by its table key. */
async function deletePage(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>, cursor: string | null, limit: number) {
  const res = await ddb().send(new QueryCommand({ ...input, TableName: tableName(), Limit: limit, ExclusiveStartKey: decodeCursor(cursor) }));
  const items = res.Items ?? [];
  await batchWrite(items.map((i) => ({ DeleteRequest: { Key: { pk: String(i.pk), sk: String(i.sk) } } })));
  return { items, next: encodeCursor(res.LastEvaluatedKey) };
}


/** Deletes one item if the condition holds; false when it did not (absent, or another company's). */
async function deleteIf(key: { pk: string; sk: string }, condition: string, values: Item): Promise<boolean> {
  return writeIf(new DeleteCommand({ TableName: tableName(), Key: key, ConditionExpression: condition, ExpressionAttributeValues: values }));
}

/** A page of one gsi1 partition deleted (the company's pending uploads, its invitations). */
function deleteGsi1Page(gsi1pk: string, cursor: string | null, limit: number) {
  return deletePage({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': gsi1pk } }, cursor, limit);
}

function purgeEmailOf(item: Item): PurgeEmail {
  return {
    email_id: String(item.email_id),
    company_id: String(item.company_id),
    raw_key: String(item.raw_key ?? ''),
    message_id: typeof item.message_id === 'string' ? item.message_id : null,
    content_hash: String(item.content_hash ?? ''),
    ...(Array.isArray(item.to_companies) ? { to_companies: item.to_companies.map(String) } : {}),
  };
}

export const ddbCompanyPurgeStore: CompanyPurgeStore = {
  async companyExists(companyId) {
    // A24: the company's META item, consistent.
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.company(companyId), ConsistentRead: true, ProjectionExpression: 'pk' }));
    return res.Item !== undefined;
  },

  async deletePendingUploads(companyId, cursor, limit) {
    // A16: the company's pending uploads (gsi1, only while pending).
    const page = await deleteGsi1Page(keys.pendingUploadsOfCompany(companyId).gsi1pk, cursor, limit);
    const expiries = page.items.map((i) => String(i.expires_at ?? '')).filter(Boolean).sort();
    return { deleted: page.items.length, next: page.next, latest_expiry: expiries.at(-1) ?? null };
  },

  async deleteUpload(uploadId, companyId) {
    // A19: a consumed upload a document names, only the company's own.
    await deleteIf(keys.upload(uploadId), 'company_id = :c', { ':c': companyId });
  },

  async deleteDocumentItems(receiptId) {
    // A18: what is left of the document's partition (history entries, export markers); bounded per document.
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.documentItems(receiptId).pk },
      ProjectionExpression: 'pk, sk',
    });
    await batchWrite(items.map((i) => ({ DeleteRequest: { Key: { pk: String(i.pk), sk: String(i.sk) } } })));
  },

  async deleteEmail(emailId, companyId) {
    // A19: the email record a document came with, only the company's own.
    return deleteIf(keys.email(emailId), 'company_id = :c', { ':c': companyId });
  },

  async getEmail(emailId) {
    // E3's read, for the purge: whose record it is and its raw message.
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.email(emailId), ConsistentRead: true }));
    return res.Item ? purgeEmailOf(res.Item) : undefined;
  },

  async companyEmails(companyId, cursor, limit) {
    // E8: the company's email records, a page (deleted one by one by the purge after their raw messages).
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.emailsOfCompany(companyId).gsi1pk },
        Limit: limit,
        ExclusiveStartKey: decodeCursor(cursor),
      }),
    );
    return { items: (res.Items ?? []).map(purgeEmailOf), next: encodeCursor(res.LastEvaluatedKey) };
  },

  async deleteInvitations(companyId, cursor, limit) {
    // A21 (T2's index): every invitation of the company, used, expired or pending.
    const page = await deleteGsi1Page(keys.invitationsOfCompany(companyId).gsi1pk, cursor, limit);
    return { deleted: page.items.length, next: page.next };
  },

  async deleteCompanyItems(companyId, cursor, limit) {
    // A23: the company's own partition, whatever its sort keys.
    const page = await deletePage(
      {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.companyItems(companyId).pk },
        ProjectionExpression: 'pk, sk',
      },
      cursor,
      limit,
    );
    return { deleted: page.items.length, next: page.next };
  },
};
