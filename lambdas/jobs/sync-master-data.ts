/**
 * The master-data imports' schedule (EventBridge rule in AWS, infra/constructs/master-data-sync.ts; a timer in local
 * mode): every switched-on SQL or Rivile import that is due runs, continuing partial runs, within the budget; what is
 * still partial at its end goes to the sync queue's continuing job.
 */
import { sqsSyncQueue } from '../adapters/sqs/sync-queue';
import { runSchedule } from '../core/master-data/sync/service';
import { syncDeps } from '../http/company/sync-deps';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';

/** The function's timeout is 5 minutes; runs stop between pages before it. */
export const SCHEDULE_BUDGET_MS = 4 * 60_000;

export async function handler(): Promise<{ ran: number }> {
  const log = createLogger({ job: 'sync-master-data' });
  return runSchedule({ ...syncDeps(depsFor('jobs/sync-master-data')), continuation: sqsSyncQueue, log }, SCHEDULE_BUDGET_MS);
}
