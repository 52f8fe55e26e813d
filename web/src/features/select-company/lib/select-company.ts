import { MSG } from '../../../../../shared/schemas/messages';

/** The Company dropdown is required: a company id from the list (rules.md 5, select-company form). */
export function companyChoiceError(choice: string, companyIds: ReadonlyArray<string>): string | undefined {
  if (!choice) return MSG.required;
  if (!companyIds.includes(choice)) return MSG.required;
  return undefined;
}

/** The new id from POST /receipts/{id}/company (`{ receipt_id }`, the document, or a bare id). */
export function newReceiptId(answer: unknown): string | null {
  if (typeof answer === 'string' && answer.trim()) return answer.trim();
  if (typeof answer !== 'object' || answer === null) return null;
  const direct = (answer as { receipt_id?: unknown }).receipt_id;
  if (typeof direct === 'string' && direct) return direct;
  const nested = (answer as { receipt?: { receipt_id?: unknown } }).receipt?.receipt_id;
  return typeof nested === 'string' && nested ? nested : null;
}

/** Where Back (and Delete) goes: the list the user came from. */
export function backPath(state: unknown): string {
  return editStateAfterMove(state) ? '/receipts/inbox' : '/receipts/unassigned';
}

/**
 * What the edit screen opened after the move is given of the list the user came from: the inbox (which holds the
 * document once it is read), else nothing — the Unassigned list and its search no longer hold it, so the edit screen
 * walks the list of the status its reading ends in.
 */
export function editStateAfterMove(state: unknown): { inbox: true } | undefined {
  const inbox = typeof state === 'object' && state !== null && (state as { inbox?: unknown }).inbox === true;
  return inbox ? { inbox: true } : undefined;
}

export function editReceiptPath(receiptId: string, companyId: string): string {
  return `/edit-receipt/${encodeURIComponent(receiptId)}?${new URLSearchParams({ company_id: companyId }).toString()}`;
}
