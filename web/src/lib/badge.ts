import { BADGE_CAP } from '../../../shared/constants';
import type { Company, StatusCounts } from '../../../shared/schemas/company';
import { LIST_STATUSES, STATUS_TITLES, type ListStatus } from '../../../shared/status';

/** Side-menu entries under Receipts, in menu order; inbox means no status filter. */
export const MENU_STATUSES = LIST_STATUSES;
export type MenuStatus = ListStatus;

export const MENU_STATUS_LABELS: Record<MenuStatus, string> = {
  inbox: 'Inbox',
  processing: STATUS_TITLES.processing,
  review: STATUS_TITLES.review,
  ready: STATUS_TITLES.ready,
  archive: STATUS_TITLES.archive,
  unassigned: STATUS_TITLES.unassigned,
  rejected: STATUS_TITLES.rejected,
  saving: STATUS_TITLES.saving,
  failed: STATUS_TITLES.failed,
};

export interface BadgeText {
  /** What the badge shows: the number, or `999+` above the cap. */
  text: string;
  /** Tooltip: always the full total. */
  title: string;
}

export function formatBadge(total: number, cap: number = BADGE_CAP): BadgeText {
  const n = Number.isFinite(total) && total > 0 ? Math.floor(total) : 0;
  return { text: n > cap ? `${cap}+` : String(n), title: String(n) };
}

type Counts = Company['counts'];

function countOf(counts: Partial<StatusCounts> | undefined, key: string): number {
  const v = (counts as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function sumAll(counts: Partial<StatusCounts> | undefined): number {
  if (!counts) return 0;
  let total = 0;
  for (const v of Object.values(counts as Record<string, unknown>)) if (typeof v === 'number' && Number.isFinite(v)) total += v;
  return total;
}

/**
 * Menu totals for a set of companies' counts (one company, or all of them in the all-companies view).
 * Each status sums receipts and invoices; the inbox is every document except unassigned ones.
 */
export function menuCounts(countsList: ReadonlyArray<Counts | undefined>): Record<MenuStatus, number> {
  const out = Object.fromEntries(MENU_STATUSES.map((s) => [s, 0])) as Record<MenuStatus, number>;
  for (const counts of countsList) {
    const receipt = counts?.receipt;
    const invoice = counts?.invoice;
    for (const status of MENU_STATUSES) {
      if (status === 'inbox') {
        out.inbox +=
          sumAll(receipt) - countOf(receipt, 'unassigned') + sumAll(invoice) - countOf(invoice, 'unassigned');
      } else {
        out[status] += countOf(receipt, status) + countOf(invoice, status);
      }
    }
  }
  return out;
}
