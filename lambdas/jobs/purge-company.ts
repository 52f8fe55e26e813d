/**
 * The company purge job: SQS purge queue → this Lambda, one message per run of one deleted company's purge
 * (lambdas/core/accounts/purge.ts). The run stops starting pages a minute before the function's timeout and queues
 * what is left as a new message; a failure is reported back as a batch item failure, so SQS delivers the message again
 * (every step skips what is already gone) and, in the end, to the dead-letter queue.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ddbCompanyPurgeStore } from '../adapters/ddb/purge-store';
import { sqsPurgeQueue } from '../adapters/sqs/purge-queue';
import { runPurge } from '../core/accounts/purge';
import { parsePurgeMessage } from '../core/accounts/purge-message';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';

/** The function's timeout (infra: PURGE_COMPANY_TIMEOUT); the run's budget where no Lambda context tells (local mode). */
export const PURGE_RUN_MS = 5 * 60_000;

export async function handler(event: SQSEvent, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<SQSBatchResponse> {
  const d = depsFor('jobs/purge-company');
  const started = Date.now();
  const remainingMs = () => (context?.getRemainingTimeInMillis ? context.getRemainingTimeInMillis() : PURGE_RUN_MS - (Date.now() - started));
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const log = createLogger({ job: 'purge-company', messageId: record.messageId });
    const msg = parsePurgeMessage(record.body);
    if (!msg) {
      log.warn('purge message dropped: not a purge message');
      continue;
    }
    try {
      await runPurge(
        {
          purge: ddbCompanyPurgeStore,
          documents: d.documents,
          files: d.files,
          masterData: d.masterData,
          team: d.team,
          connections: d.connections,
          queue: sqsPurgeQueue,
          clock: d.clock,
          log,
        },
        msg,
        { remainingMs },
      );
    } catch (error) {
      log.error('company purge failed', { company_id: msg.company_id, step: msg.step, error: error instanceof Error ? error.message : String(error) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}
