/**
 * The sweeper (EventBridge schedule; a timer in local mode): documents of any company in processing for
 * longer than STUCK_PROCESSING_AFTER_MS end `failed` and can be restarted (lambdas/core/documents/stuck.ts).
 */
import { STUCK_PROCESSING_AFTER_MS } from '../../shared/processing-limits';
import { sweepStuckDocuments } from '../core/documents/stuck';
import { depsFor } from '../runtime/deps';
import { createLogger } from '../runtime/logger';

export async function handler(): Promise<{ failed: string[] }> {
  const log = createLogger({ job: 'sweep-processing' });
  const d = depsFor('jobs/sweep-processing');
  const failed = await sweepStuckDocuments(
    {
      documents: d.documents,
      live: d.live,
      clock: d.clock,
      ids: d.ids,
      log,
      listCompanies: (limit, next) => d.admin.listCompanies(limit, next),
    },
    STUCK_PROCESSING_AFTER_MS,
  );
  if (failed.length) log.warn('stuck documents failed', { count: failed.length });
  return { failed };
}
