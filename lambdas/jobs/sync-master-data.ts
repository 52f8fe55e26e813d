/**
 * The master-data imports' schedule (EventBridge rule in AWS, infra/constructs/master-data-sync.ts; a timer in local
 * mode): every switched-on SQL or Rivile import that is due runs, continuing partial runs, within the budget.
 */
import { runSchedule } from '../core/master-data/sync/service';
import { syncDeps } from '../http/company/sync-deps';
import { depsFor } from '../runtime/deps';

/** The function's timeout is 5 minutes; runs stop between pages before it. */
export const SCHEDULE_BUDGET_MS = 4 * 60_000;

export async function handler(): Promise<{ ran: number }> {
  return runSchedule(syncDeps(depsFor('jobs/sync-master-data')), SCHEDULE_BUDGET_MS);
}
