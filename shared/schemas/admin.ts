/** Platform admin (global admin) and company settings: request and response shapes (rules.md 5, 7 "Admin"). */
import { z } from 'zod';
import { COMPANY_CODE_MAX, COMPANY_NAME_MAX, COUNT_MAX_LENGTH, VAT_ACCOUNT_MAX } from '../constants';
import { requiredString } from './auth';
import { MSG } from './messages';
import { singleLine } from './text';

/** Company ids are ULIDs; anything longer than this is not an id. */
export const ADMIN_ID_MAX = 64;
/** The opaque `next` cursor of GET /admin/companies. */
export const ADMIN_CURSOR_MAX = 400;
export const ADMIN_COMPANIES_PAGE = 50;

export const adminCompanyPathSchema = z.object({
  id: z.string().trim().min(1, MSG.required).max(ADMIN_ID_MAX, 'Unknown company'),
});

export const adminCompaniesQuerySchema = z.object({
  next: z.string().max(ADMIN_CURSOR_MAX, 'Invalid cursor').optional(),
});

/**
 * The count form: digits only ('Not a number'), at most 5 characters. The form sends a string, other
 * callers may send a number; both become a number.
 */
export const availableDocumentsField = () =>
  z
    .union([z.string(), z.number()], { error: MSG.required })
    .transform((v) => String(v).trim())
    .pipe(
      z
        .string()
        .min(1, MSG.required)
        .max(COUNT_MAX_LENGTH, `At most ${COUNT_MAX_LENGTH} characters`)
        .regex(/^\d+$/, MSG.notANumber)
        .transform(Number),
    );

/**
 * The count form sends only what changed: the count when it was changed (a reset alone sends none; then `reset=1`
 * is required), with the quota its page showed as `expected_available_documents`. A quota changed since then is
 * answered 409 with the current one, and nothing is written.
 */
export const updateAvailableDocumentsSchema = z.object({
  available_documents: availableDocumentsField().optional(),
  expected_available_documents: z.number({ error: MSG.notANumber }).int(MSG.notANumber).min(0, MSG.notANumber).optional(),
});
export type UpdateAvailableDocumentsInput = z.input<typeof updateAvailableDocumentsSchema>;

/** `reset=1` also resets this month's usage of the company. */
export const updateAvailableDocumentsQuerySchema = z.object({
  reset: z.enum(['0', '1'], { error: 'reset must be 1 or 0' }).optional(),
});

export const updateVatAccountSchema = z.object({
  vat_account: z
    .string({ error: MSG.required })
    .trim()
    .max(VAT_ACCOUNT_MAX, `At most ${VAT_ACCOUNT_MAX} characters`)
    .check(singleLine()),
});
export type UpdateVatAccountInput = z.infer<typeof updateVatAccountSchema>;

/** PUT /company (Settings): the same rules as POST /company. */
export const updateCompanySchema = z.object({
  name: requiredString().pipe(z.string().max(COMPANY_NAME_MAX, `At most ${COMPANY_NAME_MAX} characters`)).check(singleLine()),
  code: requiredString().pipe(z.string().max(COMPANY_CODE_MAX, `At most ${COMPANY_CODE_MAX} characters`)).check(singleLine()),
});
export type UpdateCompanyInput = z.infer<typeof updateCompanySchema>;

export const adminStatisticsSchema = z.object({ customers: z.number(), documents: z.number() });
export type AdminStatistics = z.infer<typeof adminStatisticsSchema>;

/** One company as the platform admin sees it (a row of /admin, the page /admin/{company_id}). */
export const adminCompanySchema = z.object({
  company_id: z.string(),
  name: z.string(),
  code: z.string(),
  email: z.string(),
  created_at: z.string(),
  user: z.object({ name: z.string(), surname: z.string(), email: z.string() }),
  /** Documents of this month (the quota counts them). */
  used_documents: z.number(),
  available_documents: z.number(),
  vat_account: z.string(),
});
export type AdminCompany = z.infer<typeof adminCompanySchema>;

export const adminCompaniesResponseSchema = z.object({
  items: z.array(adminCompanySchema),
  next: z.string().nullable(),
});
export type AdminCompaniesResponse = z.infer<typeof adminCompaniesResponseSchema>;
