import type { ListStatus, ReceiptStatus } from '../../../../../shared/status';
import type { Receipt } from '../api/types';

export interface RowRules {
  /** Row click opens the edit (or select-company) screen. */
  canOpen: boolean;
  /** The selection checkbox is enabled. */
  canSelect: boolean;
  canFlag: boolean;
  /** The full-picture preview (page images) may be opened. */
  canPreview: boolean;
  /** Shown greyed out (saving). */
  greyed: boolean;
  /** Try Again (restart) and Delete are offered on the row. */
  canRestart: boolean;
}

/** Documents still being recognised or converted: not opened, selected, flagged or previewed. */
export function isBusy(receipt: Pick<Receipt, 'status'>): boolean {
  return receipt.status === 'processing' || receipt.status === 'converting';
}

/**
 * What a row allows (product.md section 2, Document list): processing/converting rows cannot be opened,
 * selected, flagged or previewed; saving rows are greyed out and not clickable; rows with can_be_restarted
 * show Try Again and Delete. Archived documents are read-only (section 4): their flag is shown, not changed.
 */
export function rowRules(receipt: Pick<Receipt, 'status' | 'can_be_restarted'>): RowRules {
  const busy = isBusy(receipt);
  const saving = receipt.status === 'saving';
  return {
    canOpen: !busy && !saving,
    canSelect: !busy && !saving,
    canFlag: !busy && !saving && receipt.status !== 'archive',
    canPreview: !busy,
    greyed: saving,
    canRestart: receipt.can_be_restarted === true,
  };
}

/** The company id of documents that belong to no company yet (uploads of the all-companies view). */
export const NO_COMPANY = 'NONE';

export interface RowTarget {
  pathname: string;
  search: string;
  /** The list the edit screen walks: the inbox, or the status list the row was opened from. */
  state: { inbox: boolean; listStatus?: ReceiptStatus };
}

/**
 * Where a row click goes: /select-company/{id} for unassigned documents, /edit-receipt/{id} otherwise, with
 * ?company_id and the list in the navigation state (the edit screen walks the inbox, or the status list it came
 * from, whatever status it last knew the document in).
 */
export function rowTarget(receipt: Pick<Receipt, 'receipt_id' | 'company_id' | 'status'>, listStatus: ListStatus): RowTarget {
  const base = receipt.status === 'unassigned' ? '/select-company' : '/edit-receipt';
  return {
    pathname: `${base}/${encodeURIComponent(receipt.receipt_id)}`,
    search: `?${new URLSearchParams({ company_id: receipt.company_id || NO_COMPANY }).toString()}`,
    state: listStatus === 'inbox' ? { inbox: true } : { inbox: false, listStatus },
  };
}

/**
 * Choosing an item of another company first switches the active company (product.md section 4). Unassigned
 * documents belong to no company yet (company_id NONE): they never switch it.
 */
export function companyToActivate(
  receipt: Pick<Receipt, 'company_id'>,
  activeCompanyId: string | null | undefined,
  knownCompanyIds: ReadonlyArray<string>,
): string | null {
  const id = receipt.company_id;
  if (!id || id === activeCompanyId || !knownCompanyIds.includes(id)) return null;
  return id;
}

/**
 * The company a row of the all-companies view names: as the companies list has it now (a document keeps the name
 * of its upload; Settings may have renamed the company), 'Unassigned' for a document of no company.
 */
export function companyName(receipt: Pick<Receipt, 'company_id' | 'company_name'>, companies: ReadonlyArray<{ company_id: string; name: string }>): string {
  if (!receipt.company_id) return 'Unassigned';
  return companies.find((c) => c.company_id === receipt.company_id)?.name ?? (receipt.company_name || 'Unassigned');
}

/**
 * The document with its company's name and code as the companies list has them now (for an export's Company and
 * Company code fields, as companyName gives the row's); unchanged for a company the list does not hold.
 */
export function withCompanyAsNow<T extends Pick<Receipt, 'company_id' | 'company_name' | 'company_code'>>(
  receipt: T,
  companies: ReadonlyArray<{ company_id: string; name: string; code?: string | null }>,
): T {
  const company = receipt.company_id ? companies.find((c) => c.company_id === receipt.company_id) : undefined;
  return company ? { ...receipt, company_name: company.name, company_code: company.code ?? receipt.company_code } : receipt;
}

/** The ids of the selected rows that may still be selected (a row may have become busy through a live event). */
export function selectableIds(receipts: ReadonlyArray<Receipt>, selected: ReadonlySet<string>): string[] {
  return receipts.filter((r) => selected.has(r.receipt_id) && rowRules(r).canSelect).map((r) => r.receipt_id);
}

/** Archive toggle of the tools menu: all selected archived → Unarchive (back to review), otherwise Move to Archive. */
export function archiveAction(selected: ReadonlyArray<Pick<Receipt, 'status'>>): { label: string; action: 'archive' | 'unarchive' } {
  const allArchived = selected.length > 0 && selected.every((r) => r.status === 'archive');
  return allArchived ? { label: 'Unarchive', action: 'unarchive' } : { label: 'Move to Archive', action: 'archive' };
}

/** Archived documents are read-only: a selection holding one is not converted or flagged (the server refuses it). */
const holdsArchived = (selected: ReadonlyArray<Pick<Receipt, 'status'>>) => selected.some((r) => r.status === 'archive');

/** Convert entries of the tools menu: to Invoice when receipts are selected, to Receipt when invoices are. */
export function convertActions(selected: ReadonlyArray<Pick<Receipt, 'receipt_type' | 'status'>>): Array<{ label: string; to: 'receipt' | 'invoice' }> {
  const out: Array<{ label: string; to: 'receipt' | 'invoice' }> = [];
  if (holdsArchived(selected)) return out;
  if (selected.some((r) => r.receipt_type === 'invoice')) out.push({ label: 'Convert to Receipt', to: 'receipt' });
  if (selected.some((r) => r.receipt_type === 'receipt')) out.push({ label: 'Convert to Invoice', to: 'invoice' });
  return out;
}

/** Flag / Unflag entries: Flag when any selected is not flagged, Unflag when any is. */
export function flagActions(selected: ReadonlyArray<Pick<Receipt, 'flag' | 'status'>>): Array<{ label: 'Flag' | 'Unflag'; flag: boolean }> {
  const out: Array<{ label: 'Flag' | 'Unflag'; flag: boolean }> = [];
  if (holdsArchived(selected)) return out;
  if (selected.some((r) => !r.flag)) out.push({ label: 'Flag', flag: true });
  if (selected.some((r) => r.flag)) out.push({ label: 'Unflag', flag: false });
  return out;
}

/** A company with an export target switched on: confirming sends (REVIEW AND SEND, the list's Send). */
export function sendsToIntegrations(company: { ftp_export: boolean; nsoft_export: boolean; rivile_export: boolean } | null | undefined): boolean {
  return Boolean(company && (company.ftp_export || company.nsoft_export || company.rivile_export));
}

/** The selected documents that look like copies of earlier ones (the same file, or the same party, number and total). */
export function possibleCopies<T extends Pick<Receipt, 'duplicate_id' | 'same_document'>>(selected: ReadonlyArray<T>): T[] {
  return selected.filter((r) => Boolean(r.duplicate_id || r.same_document));
}
