/**
 * The sweeper (EventBridge schedule; a timer in local mode): documents of any company, and unassigned documents of
 * the all-companies view (their uploader's own scope), in processing for longer than STUCK_PROCESSING_AFTER_MS end
 * `failed` and can be restarted (lambdas/core/documents/stuck.ts); and what deleted documents left because a removal
 * failed during their delete is removed (lambdas/core/documents/leftovers.ts). Both parts run whatever the other met.
 */
import type { Clock } from '../core/ports';
import { STUCK_PROCESSING_AFTER_MS } from '../../shared/processing-limits';
import { sweepLeftovers } from '../core/documents/leftovers';
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

export async function handler(): Promise<{ failed: string[]; leftovers: { cleared: number; left: number } }> {
  const log = createLogger({ job: 'sweep-processing' });
  const d = depsFor('jobs/sweep-processing');
  const [stuck, leftovers] = await Promise.allSettled([
    sweepStuckDocuments(sweeperDeps(d, log), STUCK_PROCESSING_AFTER_MS),
    sweepLeftovers({ documents: d.documents, files: d.files, layouts: d.layouts, clock: d.clock, log }),
  ]);
  if (stuck.status === 'rejected') throw stuck.reason;
  if (leftovers.status === 'rejected') throw leftovers.reason;
  if (stuck.value.length) log.warn('stuck documents failed', { count: stuck.value.length });
  if (leftovers.value.cleared || leftovers.value.left) log.info('leftovers of deleted documents swept', leftovers.value);
  return { failed: stuck.value, leftovers: leftovers.value };
}
