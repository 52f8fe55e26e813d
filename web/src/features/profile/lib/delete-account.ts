import { ACCOUNT_MSG, deleteAccountSchema, type DeleteAccountInput } from '../../../../../shared/schemas/user';
import { ApiError, messageOf } from '../../../lib/api-error';
import { zodValidator, type Validator } from '../../../lib/validation';

export type DeleteAccountValues = { email: string };

/** My Profile's "Delete account" section and pop-up. */
export const DELETE_ACCOUNT_TITLE = 'Delete account';
export const DELETE_ACCOUNT_EXPLANATION =
  'Deleting your account removes your sign-in, your profile, the companies where you are the only member (with their documents and master data) and your membership of other companies. Documents you added to other companies stay with those companies.';
export const DELETE_ACCOUNT_CONFIRM_LABEL = 'Type your email address to confirm';

/** The typed address is the account's: trimmed, case-insensitive (as the API compares them). */
export function confirmsAccountEmail(typed: string, accountEmail: string): boolean {
  const a = typed.trim().toLowerCase();
  return a !== '' && a === accountEmail.trim().toLowerCase();
}

/** deleteAccountSchema, then the typed address must be the account's (ACCOUNT_MSG.confirmEmail otherwise). */
export function deleteAccountValidator(accountEmail: string): Validator<DeleteAccountValues, DeleteAccountInput> {
  const schema = zodValidator(deleteAccountSchema);
  return (values) => {
    const r = schema(values);
    if (r.ok && !confirmsAccountEmail(r.data.email, accountEmail)) return { ok: false, errors: { email: ACCOUNT_MSG.confirmEmail } };
    return r;
  };
}

/**
 * Where a failed DELETE /user is told: a 422 about the typed address under the field; anything else (409: companies
 * with other members, documents without a company, an upload in progress; no connection; …) as the API's message in
 * the pop-up.
 */
export function deleteAccountFailure(err: unknown): { field: string } | { alert: string } {
  const field = err instanceof ApiError && err.status === 422 ? err.fieldErrors.email : undefined;
  if (field) return { field };
  return { alert: messageOf(err) };
}
