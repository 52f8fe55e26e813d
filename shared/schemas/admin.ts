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

/** Months the platform admin can look back over: the current one and the eleven before it. */
export const ADMIN_USAGE_MONTHS = 12;
export const MONTH_FORMAT_MESSAGE = 'Month must be YYYY-MM';
export const MONTH_IN_FUTURE_MESSAGE = 'The month has not started yet';

/** A month of the business calendar, `YYYY-MM`. */
export const monthSchema = z.string().trim().regex(/^\d{4}-(0[1-9]|1[0-2])$/, MONTH_FORMAT_MESSAGE);

/** `month`: the usage shown is that month's (default: the current one). */
export const adminCompaniesQuerySchema = z.object({
  next: z.string().max(ADMIN_CURSOR_MAX, 'Invalid cursor').optional(),
  month: monthSchema.optional(),
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
  /** Documents of this month (the quota counts them), or of the month asked for (GET /admin/companies?month). */
  used_documents: z.number(),
  /**
   * The monthly quota: the company's as it is now; with a past month asked for, the quota that month was counted
   * against (recorded on its usage item), else the current one.
   */
  available_documents: z.number(),
  vat_account: z.string(),
});
export type AdminCompany = z.infer<typeof adminCompanySchema>;

export const adminCompaniesResponseSchema = z.object({
  items: z.array(adminCompanySchema),
  next: z.string().nullable(),
});
export type AdminCompaniesResponse = z.infer<typeof adminCompaniesResponseSchema>;

/**
 * One month of a company's usage: the documents it created, how many of them were copies of a file it had, and the
 * quota they were counted against (the current month: the company's quota now; a past month: the quota recorded for
 * it, else the current one).
 */
export const adminMonthUsageSchema = z.object({
  month: z.string(),
  used_documents: z.number(),
  duplicated_documents: z.number(),
  available_documents: z.number(),
});
export type AdminMonthUsage = z.infer<typeof adminMonthUsageSchema>;

/** GET /admin/companies/{id}/usage: the current month and those before it (up to ADMIN_USAGE_MONTHS, none before the company), newest first. */
export const adminCompanyUsageResponseSchema = z.object({
  items: z.array(adminMonthUsageSchema),
});
export type AdminCompanyUsageResponse = z.infer<typeof adminCompanyUsageResponseSchema>;
