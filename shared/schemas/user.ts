import { z } from 'zod';
import { personNameField } from './auth';
import { singleLine } from './text';
import { atMostCharacters } from './messages';

export const profileSchema = z.object({
  id: z.string(),
  name: z.string(),
  surname: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  country: z.string(),
  post_code: z.string(),
  global_email: z.string(),
  is_admin: z.boolean(),
  created_at: z.string(),
  last_login: z.string().nullable(),
  total_amount: z.number(),
  total_receipts: z.number(),
  waiting_for_approval: z.number(),
  total_unassigned_invoices: z.number(),
  total_unassigned_receipts: z.number(),
});
export type Profile = z.infer<typeof profileSchema>;

/** Profile update: only changed fields are sent; email changes go through the identity provider. */
export const updateProfileSchema = z
  .object({
    // as at sign-up and in the invite form: empty is 'Required field' (rules.md 4), one letter too short
    name: personNameField(),
    surname: personNameField(),
    phone: z.string().trim().max(40, atMostCharacters(40)).check(singleLine()),
    address: z.string().trim().max(200, atMostCharacters(200)).check(singleLine()),
    city: z.string().trim().max(100, atMostCharacters(100)).check(singleLine()),
    country: z.string().trim().max(100, atMostCharacters(100)).check(singleLine()),
    post_code: z.string().trim().max(20, atMostCharacters(20)).check(singleLine()),
  })
  .partial()
  .strict();
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

/**
 * Deleting one's own account (DELETE /user, My Profile "Delete account"): the texts the API answers and the web
 * shows, and the confirmation the request carries — the account's email address typed again.
 */
export const ACCOUNT_MSG = {
  confirmEmail: 'Type the email address of your account to confirm',
  deleted: 'Your account was deleted.',
  uploadInProgress: 'An upload of yours is still in progress. Try again in a few minutes.',
} as const;

/** Why the account cannot be deleted yet: companies the caller owns that have other members. */
export function ownsSharedCompaniesMessage(names: readonly string[]): string {
  const list = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return names.length === 1
    ? `You own ${list}, which has other members. Make one of them the account owner or remove them in My Team, or delete the company first.`
    : `You own ${list}, which have other members. Make one of them the account owner or remove them in My Team, or delete these companies first.`;
}

/** Why the account cannot be deleted yet: documents without a company (the all-companies view's uploads). */
export function unassignedDocumentsMessage(count: number): string {
  return `You have ${count === 1 ? '1 document' : `${count} documents`} without a company. Assign ${count === 1 ? 'it' : 'them'} to a company or delete ${count === 1 ? 'it' : 'them'} first.`;
}

export const deleteAccountSchema = z
  .object({ email: z.string().trim().min(1, ACCOUNT_MSG.confirmEmail).max(320, ACCOUNT_MSG.confirmEmail) })
  .strict();
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
export interface DeleteAccountResult {
  deleted: true;
  /** Companies deleted with the account (those it alone was a member of). */
  companies_deleted: string[];
  /** Companies the account left (its documents there stay with the company). */
  companies_left: string[];
}
