/**
 * Backfill of the company index of email records (docs/data-model.md, E8, E9): records received before the index
 * carry no `gsi1pk`, so the purge of their deleted company would not find them. A maintenance job (it scans the
 * table; `npm run search:backfill`, local mode at every start), never a request path. Idempotent and safe next to
 * live writes: a record gets its keys only while it has none and still exists.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import { scanPages, tableName, writeIf } from './table-ops';

export interface EmailIndexBackfillResult {
  /** Email records that got their company index keys. */
  indexed: number;
}

export async function backfillEmailCompanyIndex(opts: { log?: (message: string) => void } = {}): Promise<EmailIndexBackfillResult> {
  const result: EmailIndexBackfillResult = { indexed: 0 };
  for await (const items of scanPages({
    FilterExpression: '#type = :email AND sk = :meta AND attribute_not_exists(gsi1pk)',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':email': 'EMAIL', ':meta': 'META' },
    ProjectionExpression: 'pk, sk, email_id, company_id, created_at',
  })) {
    for (const item of items) {
      if (typeof item.company_id !== 'string' || typeof item.email_id !== 'string') continue;
      const index = keys.emailOfCompany(item.company_id, String(item.created_at ?? ''), item.email_id);
      const written = await writeIf(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: String(item.pk), sk: String(item.sk) },
          UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi1pk)',
          ExpressionAttributeValues: { ':pk': index.gsi1pk, ':sk': index.gsi1sk },
        }),
      );
      if (written) result.indexed += 1;
    }
  }
  opts.log?.(`email records: ${result.indexed} added to their company's index`);
  return result;
}
