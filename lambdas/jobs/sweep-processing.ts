/**
 * The sweeper (EventBridge schedule; a timer in local mode): documents of any company, and unassigned documents of
 * the all-companies view (their uploader's own scope), in processing for longer than STUCK_PROCESSING_AFTER_MS end
 * `failed` and can be restarted (lambdas/core/documents/stuck.ts).
 */
import type { Clock } from '../core/ports';
import { STUCK_PROCESSING_AFTER_MS } from '../../shared/processing-limits';
import { sweepStuckDocuments, type StuckDeps, type SweepDeps } from '../core/documents/stuck';
import { depsFor, type Deps } from '../runtime/deps';
import { createLogger } from '../runtime/logger';

/** What the sweeper reads and writes through: the companies list (A7), their members (A5) and the documents store. */
export function sweeperDeps(d: Deps, log: StuckDeps['log'], clock: Clock = d.clock): SweepDeps {
  return {
    documents: d.documents,
    live: d.live,
    clock,
    ids: d.ids,
    log,
    listCompanies: (limit, next) => d.admin.listCompanies(limit, next),
    listMembers: (companyId) => d.store.listMembersOfCompany(companyId),
  };
}

export async function handler(): Promise<{ failed: string[] }> {
  const log = createLogger({ job: 'sweep-processing' });
  const failed = await sweepStuckDocuments(sweeperDeps(depsFor('jobs/sweep-processing'), log), STUCK_PROCESSING_AFTER_MS);
  if (failed.length) log.warn('stuck documents failed', { count: failed.length });
  return { failed };
}
