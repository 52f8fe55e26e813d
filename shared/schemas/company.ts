import { z } from 'zod';
import { COMPANY_CODE_MAX, COMPANY_NAME_MAX, type PER_MEMBER_COMPANY_FIELDS } from '../constants';
import { MSG } from './messages';
import { requiredString } from './auth';
import { singleLine } from './text';

export const companyRoleSchema = z.enum(['admin', 'basic']);
export type CompanyRole = z.infer<typeof companyRoleSchema>;

export const statusCountsSchema = z.object({
  processing: z.number(),
  archive: z.number(),
  error: z.number(),
  review: z.number(),
  ready: z.number(),
  unassigned: z.number(),
  converting: z.number(),
  rejected: z.number(),
  saving: z.number(),
  failed: z.number(),
});
export type StatusCounts = z.infer<typeof statusCountsSchema>;

export const INTEGRATION_FLAGS = [
  'ftp_export',
  'nsoft_export',
  'sql_import',
  'google_drive_import',
  'dropbox_import',
  'rivile_export',
  'rivile_import',
  'display_imported_stakeholders',
  'display_imported_categories',
] as const;
export type IntegrationFlag = (typeof INTEGRATION_FLAGS)[number];

export const companySchema = z.object({
  company_id: z.string(),
  name: z.string(),
  code: z.string(),
  unique_name: z.string(),
  role: companyRoleSchema,
  email: z.string(),
  created_at: z.string(),
  user: z.object({ name: z.string(), surname: z.string(), email: z.string() }),
  used_documents: z.number(),
  available_documents: z.number(),
  used_documents_per_month: z.number(),
  duplicated_documents_per_month: z.number(),
  vat_account: z.string(),
  counts: z.object({ receipt: statusCountsSchema, invoice: statusCountsSchema }),
  ftp_export: z.boolean(),
  nsoft_export: z.boolean(),
  sql_import: z.boolean(),
  google_drive_import: z.boolean(),
  dropbox_import: z.boolean(),
  rivile_export: z.boolean(),
  rivile_import: z.boolean(),
  display_imported_stakeholders: z.boolean(),
  display_imported_categories: z.boolean(),
  google_selected_import_folder_name: z.string().nullable(),
  dropbox_selected_import_folder_name: z.string().nullable(),
  /** Email-in takes mail from these senders only (addresses, or domains with their subdomains); empty: from anyone. */
  email_in_senders: z.array(z.string()),
});
export type Company = z.infer<typeof companySchema>;

/** The payload of a `company` live event: the changed fields of the company as every member sees it. */
export type CompanyEvent = Pick<Company, 'company_id'> & Partial<Omit<Company, (typeof PER_MEMBER_COMPANY_FIELDS)[number]>>;

export const companiesResponseSchema = z.object({ items: z.array(companySchema) });

export const createCompanySchema = z.object({
  company_name: requiredString().pipe(z.string().max(COMPANY_NAME_MAX, `At most ${COMPANY_NAME_MAX} characters`)).check(singleLine()),
  code: requiredString().pipe(z.string().max(COMPANY_CODE_MAX, `At most ${COMPANY_CODE_MAX} characters`)).check(singleLine()),
});
export type CreateCompanyInput = z.infer<typeof createCompanySchema>;

/** company_id travels as a query parameter on every company-scoped call (rules.md section 7). */
export const companyIdQuerySchema = z.object({ company_id: z.string().min(1, MSG.required) });

/** How many senders a company's Email-in may be limited to. */
export const EMAIL_IN_SENDERS_MAX = 50;
export const EMAIL_IN_SENDER_INVALID = 'Enter an email address or a domain';
export const EMAIL_IN_SENDERS_TOO_MANY = `At most ${EMAIL_IN_SENDERS_MAX} senders`;
const EMAIL_IN_SENDER_LENGTH_MAX = 254;
/** A host name's labels and its top-level domain: letters, or an internationalised one's ASCII form (`xn--…`). */
const DOMAIN = String.raw`(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})`;
/** An address (`anna@supplier.lt`) or a domain (`supplier.lt`, also typed `@supplier.lt`), lower case. */
const EMAIL_IN_SENDER_RE = new RegExp(`^(?:[a-z0-9.!#$%&'*+/=?^_\`{|}~-]+@)?${DOMAIN}$`);

/** One allowed sender as typed: trimmed, lower case, a leading `@` of a domain dropped. */
export const emailInSenderSchema = z
  .string()
  .transform((s) => s.trim().toLowerCase().replace(/^@/, ''))
  .pipe(z.string().max(EMAIL_IN_SENDER_LENGTH_MAX, EMAIL_IN_SENDER_INVALID).regex(EMAIL_IN_SENDER_RE, EMAIL_IN_SENDER_INVALID));

/** PUT /company/email-in: the senders Email-in takes mail from (each once, in the order given; empty: anyone). */
export const updateEmailInSendersSchema = z
  .object({
    email_in_senders: z
      .array(emailInSenderSchema)
      .max(EMAIL_IN_SENDERS_MAX, EMAIL_IN_SENDERS_TOO_MANY)
      .transform((list) => [...new Set(list)]),
  })
  .strict();
export type UpdateEmailInSendersInput = z.infer<typeof updateEmailInSendersSchema>;
