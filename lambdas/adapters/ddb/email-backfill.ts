/**
 * Backfill of the company index of email records (docs/data-model.md, E8, E9): records received before the index
 * carry no `gsi1pk`, so the purge of their deleted company would not find them. A maintenance job (it scans the
 * table; `npm run search:backfill`, local mode at every start), never a request path. Idempotent and safe next to
 * live writes: a record gets its keys only while it has none and still exists.
 */
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';
import { keys } from './keys';
import { tableName, writeIf } from './table-ops';

export interface EmailIndexBackfillResult {
  /** Email records that got their company index keys. */
  indexed: number;
}

export async function backfillEmailCompanyIndex(opts: { log?: (message: string) => void } = {}): Promise<EmailIndexBackfillResult> {
  const result: EmailIndexBackfillResult = { indexed: 0 };
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#type = :email AND sk = :meta AND attribute_not_exists(gsi1pk)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':email': 'EMAIL', ':meta': 'META' },
        ProjectionExpression: 'pk, sk, email_id, company_id, created_at',
        ExclusiveStartKey: start,
        Limit: 1000,
      }),
    );
    for (const item of page.Items ?? []) {
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
    start = page.LastEvaluatedKey;
  } while (start);
  opts.log?.(`email records: ${result.indexed} added to their company's index`);
  return result;
}
