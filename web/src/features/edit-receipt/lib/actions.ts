/**
 * The status actions of the edit screen (product.md section 4): REJECT (hidden when rejected), MOVE TO REVIEW
 * (only when ready), Review, REVIEW AND SEND or CONFIRM, and the Archive toggle. They are enabled only when the
 * form is valid and the company's code differs from the supplier's/customer's code. Archived documents are
 * read-only: no action buttons. While processing the bar only says Processing.
 */
export type EditAction = 'reject' | 'moveToReview' | 'review' | 'confirm' | 'archive';

export interface ActionButton {
  action: EditAction;
  label: string;
  enabled: boolean;
  primary?: boolean;
  /** Why a disabled button is disabled (its tooltip). */
  why?: string;
}

export interface ActionState {
  mode: 'processing' | 'read-only' | 'actions';
  buttons: ActionButton[];
  /** The note shown when the codes match. */
  codeNote: boolean;
}

export const COMPANY_CODE_NOTE = 'Company code matches customer/supplier code';
/** The tooltip of an action disabled by a field's message. */
export const FIELD_ERRORS_NOTE = 'Correct the fields with a message first';
/** An edit action refused in the browser: a typed value could not be saved first, so nothing was confirmed. */
export const UNSAVED_CHANGES = 'Your changes could not be saved, so the document was left as it is. Please try again.';

const BUSY = ['processing', 'converting', 'saving'];

export function sameCode(companyCode: string | null | undefined, stakeholderCode: string | null | undefined): boolean {
  const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, '').toUpperCase();
  return norm(companyCode) !== '' && norm(companyCode) === norm(stakeholderCode);
}

/**
 * `sends`: the company exports to an accounting integration, so confirming also sends the document
 * (REVIEW AND SEND); otherwise CONFIRM.
 */
export function actionState(input: { status: string; valid: boolean; companyCode: string; stakeholderCode: string; sends: boolean }): ActionState {
  if (BUSY.includes(input.status)) return { mode: 'processing', buttons: [], codeNote: false };
  if (input.status === 'archive') return { mode: 'read-only', buttons: [], codeNote: false };
  const codeNote = sameCode(input.companyCode, input.stakeholderCode);
  const enabled = input.valid && !codeNote;
  const why = enabled ? {} : { why: codeNote ? COMPANY_CODE_NOTE : FIELD_ERRORS_NOTE };
  const buttons: ActionButton[] = [];
  if (input.status !== 'rejected') buttons.push({ action: 'reject', label: 'REJECT', enabled, ...why });
  if (input.status === 'ready') buttons.push({ action: 'moveToReview', label: 'MOVE TO REVIEW', enabled, ...why });
  buttons.push({ action: 'review', label: 'Review', enabled, ...why });
  buttons.push({ action: 'confirm', label: input.sends ? 'REVIEW AND SEND' : 'CONFIRM', enabled, primary: true, ...why });
  buttons.push({ action: 'archive', label: 'Archive', enabled, ...why });
  return { mode: 'actions', buttons, codeNote };
}

/** Rotation in 90° steps; after 360 it goes back to 90 (rules.md 9). */
export function nextRotation(current: number): number {
  return current >= 360 ? 90 : current + 90;
}
