import { z } from 'zod';
import { CUSTOM_MESSAGE_MAX, EMAIL_PREFIX_MAX, EMAIL_PREFIX_MIN, PERSON_NAME_MAX } from '../constants';
import { emailField, personNameField } from './auth';
import { companyRoleSchema } from './company';
import { MSG } from './messages';
import { multiLine } from './text';

/** Team and invitations (rules.md 5 "Users and invitations", 7 "Team and invitations"). */
export { PERSON_NAME_MAX };
export const EMAIL_MAX = 254;


/**
 * The part of a member's Email-in address before '@': 4 to 40 letters, digits or dots, neither starting nor ending
 * with a dot and without two dots in a row (an RFC 5322 local part; mail servers refuse '....@', '.ab@', 'a..b@').
 */
export const EMAIL_PREFIX_PATTERN = new RegExp(`^(?=.{${EMAIL_PREFIX_MIN},${EMAIL_PREFIX_MAX}}$)[A-Za-z0-9]+(?:\\.[A-Za-z0-9]+)*$`);
export const emailPrefixField = () =>
  z.string({ error: MSG.emailPrefix }).trim().regex(EMAIL_PREFIX_PATTERN, MSG.emailPrefix);

/** Invited role: admin or basic; anything else becomes basic (rules.md 5). */
export const invitedRoleField = () =>
  z
    .string({ error: MSG.required })
    .max(40)
    .transform((v) => (v.trim() === 'admin' ? 'admin' : 'basic') as 'admin' | 'basic');

export const inviteSchema = z.object({
  name: personNameField(),
  surname: personNameField(),
  email: emailField().pipe(z.string().max(EMAIL_MAX, MSG.invalidEmail)),
  role: invitedRoleField(),
  /** Optional text added to the invitation email. */
  message: z.string().max(CUSTOM_MESSAGE_MAX, MSG.customMessageMax).check(multiLine()).optional().default(''),
  /** The company id also travels in the query (company_id) like every company-scoped call; when given here it must match. */
  company_id: z.string().max(64).optional(),
});
export type InviteInput = z.input<typeof inviteSchema>;
export type Invite = z.output<typeof inviteSchema>;

/** PUT /company/users/{id}: only the changed fields among email_prefix, name, role, surname. */
export const updateCompanyUserSchema = z
  .object({
    email_prefix: emailPrefixField().optional(),
    name: personNameField().optional(),
    surname: personNameField().optional(),
    role: companyRoleSchema.optional(),
  })
  .strict();
export type UpdateCompanyUserInput = z.infer<typeof updateCompanyUserSchema>;

export const companyUserPathSchema = z.object({ id: z.string().min(1).max(128) });

/** 32 random bytes in base64url are 43 characters. */
export const invitationTokenPathSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid invitation') });

export const companyUserSchema = z.object({
  user_id: z.string(),
  company_id: z.string(),
  name: z.string(),
  surname: z.string(),
  role: companyRoleSchema,
  /** The member's Email-in address. */
  email: z.string(),
  email_prefix: z.string(),
  /** Account owner: the member who created the company. */
  is_owner: z.boolean(),
  can_be_deleted: z.boolean(),
  user: z.object({ created_at: z.string(), last_login: z.string().nullable(), email: z.string() }),
});
export type CompanyUser = z.infer<typeof companyUserSchema>;

export const invitationViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  company_id: z.string(),
  company_name: z.string(),
  name: z.string(),
  surname: z.string(),
  role: companyRoleSchema,
  expires_at: z.string(),
  new_account_required: z.boolean(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

/** A pending invitation as My Team lists it (GET /company/invitations): not accepted yet and not expired. */
export const pendingInvitationSchema = z.object({
  id: z.string(),
  company_id: z.string(),
  email: z.string(),
  name: z.string(),
  surname: z.string(),
  role: companyRoleSchema,
  /** The administrator's message mailed with it ('' for none): Send Again mails it again. */
  message: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  /** The administrator who sent it, as their profile names them (null when that profile is gone). */
  invited_by: z.object({ name: z.string(), surname: z.string() }).nullable(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;
export const pendingInvitationsResponseSchema = z.object({ items: z.array(pendingInvitationSchema) });

/** DELETE /company/invitations/{id}: the invitation id (SHA-256 of its token, hex). */
export const invitationIdPathSchema = z.object({ id: z.string().regex(/^[a-f0-9]{64}$/, 'Invalid invitation') });

/**
 * Handing a company over to another member (PUT /company/owner, My Team "Make Account Owner"): only the account owner
 * may, and only to an administrator member; the texts the API answers and the web shows.
 */
export const OWNER_MSG = {
  ownerOnly: 'Only the account owner can make another member the account owner',
  notAdmin: 'Make this member an administrator first',
  codeTaken: 'This member already owns a company with this code',
  confirm: 'The account owner cannot be removed from the company and stays an administrator. You stay an administrator of it.',
} as const;
export const ownerChangedMessage = (name: string) => `${name} is now the account owner.`;

export const transferOwnershipSchema = z.object({ user_id: z.string().trim().min(1).max(128) }).strict();
export type TransferOwnershipInput = z.infer<typeof transferOwnershipSchema>;
export interface TransferOwnershipResult {
  company_id: string;
  owner: { user_id: string; name: string; surname: string; email: string };
}
