import type { Company } from '../../../../../shared/schemas/company';

type Named = Pick<Company, 'company_id' | 'name'>;

/** The companies this tab heard deleted (`company-delete` events), told apart from those the user was removed from. */
const deletedCompanyIds = new Set<string>();

/** A `company-delete` event named this company: its notice says it was deleted. */
export function recordCompanyDeleted(companyId: string): void {
  deletedCompanyIds.add(companyId);
}

/**
 * What to tell a user whose active company left their list while they were signed in: it was deleted by a company
 * admin (the `company-delete` event, recorded in `deleted`) or they were removed from its team (`membership`). The
 * screens then move on to the first company left (the active-company store's reconcile), which without a word looks
 * like the documents changed company. `before` is the list as last read (null before the first read: a company
 * remembered from an earlier visit that is gone at sign-in is no news of this session); `allCompanies` is the view
 * after the change. Returns the notice, or null when the active company is still there or was not known.
 */
export function activeCompanyGoneNotice(
  before: ReadonlyArray<Named> | null,
  now: ReadonlyArray<Named>,
  activeId: string | null,
  allCompanies: boolean,
  deleted: ReadonlySet<string> = deletedCompanyIds,
): string | null {
  if (!before || !activeId || now.some((c) => c.company_id === activeId)) return null;
  const gone = before.find((c) => c.company_id === activeId);
  if (!gone) return null;
  const what = deleted.has(activeId) ? `${gone.name} was deleted.` : `You no longer have access to ${gone.name}.`;
  const next = now[0];
  return next && !allCompanies ? `${what} Showing ${next.name}.` : what;
}
