/**
 * The purge of a deleted company (docs/decisions.md "Company deletion: the purge job"): one queue message names the
 * company and where the purge stands. DELETE /company queues the first one; the purge job (lambdas/jobs/purge-company.ts)
 * hands what is left over to a new message when its time runs low.
 */

/** What is removed, in this order (lambdas/core/accounts/purge.ts). */
export const PURGE_STEPS = [
  // Pending uploads first: a file that arrives later finds no upload and makes no document.
  'uploads',
  'documents',
  // Email records left after the documents (mail whose documents were deleted before, or that made none).
  'emails',
  'suppliers',
  'customers',
  'categories',
  'items',
  'invitations',
  'members',
  // The COMPANY#<id> partition last of the table: counts, usage, holds, schemas, templates, layouts, anything else.
  'company',
  'files',
] as const;
export type PurgeStep = (typeof PURGE_STEPS)[number];

export interface PurgeMessage {
  company_id: string;
  step: PurgeStep;
  /** Where the step continues (an opaque page cursor of the step's store), null at its start. */
  cursor: string | null;
  /** Documents still in processing that this pass of the documents step left for the next pass. */
  deferred: number;
  /** The latest reservation end of the pending uploads removed: their files may arrive until then (the files step waits). */
  files_after: string | null;
  /** When the company was deleted (for the logs). */
  requested_at: string;
}

export function firstPurgeMessage(companyId: string, now: Date): PurgeMessage {
  return { company_id: companyId, step: PURGE_STEPS[0], cursor: null, deferred: 0, files_after: null, requested_at: now.toISOString() };
}

const isStep = (value: unknown): value is PurgeStep => typeof value === 'string' && (PURGE_STEPS as readonly string[]).includes(value);

/** A queue message body as a purge message; undefined when it is not one. */
export function parsePurgeMessage(body: string): PurgeMessage | undefined {
  try {
    const m = JSON.parse(body) as Partial<PurgeMessage>;
    if (typeof m.company_id !== 'string' || m.company_id === '' || !isStep(m.step)) return undefined;
    return {
      company_id: m.company_id,
      step: m.step,
      cursor: typeof m.cursor === 'string' && m.cursor !== '' ? m.cursor : null,
      deferred: Math.max(0, Number(m.deferred) || 0),
      files_after: typeof m.files_after === 'string' ? m.files_after : null,
      requested_at: String(m.requested_at ?? ''),
    };
  } catch {
    return undefined;
  }
}
