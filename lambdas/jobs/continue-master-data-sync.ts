/**
 * The continuing job of the master-data imports: SQS sync queue → this Lambda, one message per import whose run
 * stopped for now ("sync now" past its 20 s; a turn of this job past its budget). It continues the run from its saved
 * position and hands on what it leaves (lambdas/core/master-data/sync/service.ts `continueSync`). A run's own failure
 * is recorded on the import (the Integration screen shows it) and the message is done; only a failure to record
 * anything comes back as a batch item failure, so SQS delivers the message again and, in the end, to the DLQ.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sqsSyncQueue } from '../adapters/sqs/sync-queue';
import { continueSync, parseContinueMessage } from '../core/master-data/sync/service';
import { syncDeps } from '../http/company/sync-deps';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';
import { SCHEDULE_BUDGET_MS } from './sync-master-data';

/** What the run leaves of the function's time (its last writes, the hand-over); the budget where no context tells (local mode). */
const RESERVE_MS = 60_000;

export async function handler(event: SQSEvent, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<SQSBatchResponse> {
  const d = depsFor('jobs/continue-master-data-sync');
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const log = createLogger({ job: 'continue-master-data-sync', messageId: record.messageId });
    const message = parseContinueMessage(record.body);
    if (!message) {
      log.warn('sync message dropped: not a continue message');
      continue;
    }
    const budgetMs = context?.getRemainingTimeInMillis ? Math.max(1_000, context.getRemainingTimeInMillis() - RESERVE_MS) : SCHEDULE_BUDGET_MS;
    try {
      const result = await continueSync({ ...syncDeps(d), continuation: sqsSyncQueue, log }, message, budgetMs);
      log.info('sync continued', { company_id: message.company_id, type: message.type, status: result.status, ...(result.status === 'ran' ? { outcome: result.run.outcome, pages: result.pages } : {}) });
    } catch (error) {
      log.error('sync continuation failed', { company_id: message.company_id, type: message.type, error: error instanceof Error ? error.message : String(error) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}
