import { z } from 'zod';
import { NAME_MIN, PERSON_NAME_MAX } from '../constants';
import { MSG } from './messages';
import { singleLine } from './text';

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
    name: z.string().trim().min(NAME_MIN, MSG.nameMin).max(PERSON_NAME_MAX, `At most ${PERSON_NAME_MAX} characters`).check(singleLine()),
    surname: z.string().trim().min(NAME_MIN, MSG.nameMin).max(PERSON_NAME_MAX, `At most ${PERSON_NAME_MAX} characters`).check(singleLine()),
    phone: z.string().trim().max(40).check(singleLine()),
    address: z.string().trim().max(200).check(singleLine()),
    city: z.string().trim().max(100).check(singleLine()),
    country: z.string().trim().max(100).check(singleLine()),
    post_code: z.string().trim().max(20).check(singleLine()),
  })
  .partial()
  .strict();
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;
