import { COMPANY_CODE_MAX, COMPANY_NAME_MAX, PERSON_NAME_MAX } from '../../../shared/constants';
import { notFound } from '../../../shared/errors';
import type { Profile, UpdateProfileInput } from '../../../shared/schemas/user';
import { RECEIPT_TYPES } from '../../../shared/schemas/receipts';
import type { DocumentsStore } from '../documents/ports';
import type { ScopeTally } from '../documents/sums';
import { companyScope, userScope, type ReceiptType, type ScopeKey } from '../documents/types';
import type { AccountsStore, Clock, IdGenerator } from '../ports';
import { newCompanyRecord } from './companies';
import type { ProfileRecord } from './types';

export interface RegistrationAttributes {
  userId: string;
  email: string;
  name: string;
  surname: string;
  company: string;
  company_code: string;
  invitation_id?: string;
}

/**
 * Runs once a sign-up is confirmed (Cognito PostConfirmation trigger in AWS, the local
 * Cognito stand-in's hook locally): creates the profile, the first company with the user
 * as admin, and the company's email-in address. Safe to run twice for the same user.
 */
export async function provisionConfirmedUser(
  deps: { store: AccountsStore; ids: IdGenerator; clock: Clock; globalAdminEmails: string[] },
  attrs: RegistrationAttributes,
): Promise<{ created: boolean; profile: ProfileRecord }> {
  const existing = await deps.store.getProfile(attrs.userId);
  if (existing) return { created: false, profile: existing };
  const email = attrs.email.trim().toLowerCase();
  const profile: ProfileRecord = {
    id: attrs.userId,
    email,
    // The identity provider's attributes are not bounded as the sign-up form is: the same limits here
    name: attrs.name.trim().slice(0, PERSON_NAME_MAX),
    surname: attrs.surname.trim().slice(0, PERSON_NAME_MAX),
    phone: '',
    address: '',
    city: '',
    country: '',
    post_code: '',
    is_admin: deps.globalAdminEmails.includes(email),
    created_at: deps.clock.now().toISOString(),
    last_login: null,
  };
  const companyName = (attrs.company.trim() || `${profile.name} ${profile.surname}`.trim()).slice(0, COMPANY_NAME_MAX);
  const companyCode = (attrs.company_code.trim() || '-').slice(0, COMPANY_CODE_MAX);
  const company = newCompanyRecord({ name: companyName, code: companyCode }, profile, deps.ids, deps.clock);
  const created = await deps.store.provisionUser(profile, company);
  if (!created) {
    const again = await deps.store.getProfile(attrs.userId);
    if (again) return { created: false, profile: again };
  }
  return { created, profile };
}

/** The figures of the profile (docs/decisions.md "Profile figures"). */
export type ProfileTotals = Pick<Profile, 'total_amount' | 'total_receipts' | 'waiting_for_approval' | 'total_unassigned_invoices' | 'total_unassigned_receipts'>;

/**
 * The profile's figures from the counts items of the caller's companies and of their own unassigned documents (`own`):
 * total_receipts counts every document of both types the user has (all their companies and their uploads still
 * without a company, the documents of the all-companies view), total_amount sums those documents' totals,
 * waiting_for_approval counts those in review, and the unassigned figures those of `own` in status unassigned.
 */
export function profileTotals(tallies: Map<ScopeKey, Record<ReceiptType, ScopeTally>>, own: ScopeKey): ProfileTotals {
  let documents = 0;
  let cents = 0;
  let waiting = 0;
  for (const byType of tallies.values()) {
    for (const type of RECEIPT_TYPES) {
      const { counts, total_cents } = byType[type];
      documents += Object.values(counts).reduce((a, b) => a + b, 0);
      waiting += counts.review;
      cents += total_cents;
    }
  }
  const mine = tallies.get(own);
  return {
    total_amount: cents / 100,
    total_receipts: documents,
    waiting_for_approval: waiting,
    total_unassigned_invoices: mine?.invoice.counts.unassigned ?? 0,
    total_unassigned_receipts: mine?.receipt.counts.unassigned ?? 0,
  };
}

export async function getOwnProfile(
  deps: { store: AccountsStore; documents: Pick<DocumentsStore, 'tallies'> },
  userId: string,
): Promise<Profile> {
  const profile = await deps.store.getProfile(userId);
  if (!profile) throw notFound('Profile not found');
  const memberships = await deps.store.listMembershipsOfUser(userId);
  const own = userScope(userId);
  const tallies = await deps.documents.tallies([...memberships.map((m) => companyScope(m.company_id)), own]);
  return toProfileView(profile, profileTotals(tallies, own));
}

/** The last login of a member (My Team): GET /user opens every session of the web app; recorded at most this often. */
export const LAST_LOGIN_EVERY_MS = 15 * 60 * 1000;

/** GET /user: the caller's profile, noting the session's start as their last login when the last note is older. */
export async function openOwnProfile(
  deps: { store: AccountsStore; documents: Pick<DocumentsStore, 'tallies'>; clock: Clock },
  userId: string,
): Promise<Profile> {
  const profile = await getOwnProfile(deps, userId);
  const now = deps.clock.now();
  if (profile.last_login && now.getTime() - Date.parse(profile.last_login) < LAST_LOGIN_EVERY_MS) return profile;
  const lastLogin = now.toISOString();
  await deps.store.updateProfile(userId, { last_login: lastLogin });
  return { ...profile, last_login: lastLogin };
}

export function toProfileView(profile: ProfileRecord, totals: ProfileTotals): Profile {
  return {
    id: profile.id,
    name: profile.name,
    surname: profile.surname,
    email: profile.email,
    phone: profile.phone,
    address: profile.address,
    city: profile.city,
    country: profile.country,
    post_code: profile.post_code,
    global_email: profile.email,
    is_admin: profile.is_admin,
    created_at: profile.created_at,
    last_login: profile.last_login,
    ...totals,
  };
}

export async function updateOwnProfile(
  deps: { store: AccountsStore; documents: Pick<DocumentsStore, 'tallies'> },
  userId: string,
  changes: UpdateProfileInput,
): Promise<Profile> {
  const existing = await deps.store.getProfile(userId);
  if (!existing) throw notFound('Profile not found');
  if (Object.keys(changes).length > 0) {
    const updated = await deps.store.updateProfile(userId, changes);
    if (updated.name !== existing.name || updated.surname !== existing.surname) await renameOwnedCompanies(deps.store, updated);
  }
  return getOwnProfile(deps, userId);
}

/**
 * A company keeps a copy of its owner's name (the platform admin's list and the companies list show it); a rename
 * in My Profile reaches every company the user owns.
 */
async function renameOwnedCompanies(store: AccountsStore, profile: ProfileRecord): Promise<void> {
  const memberships = await store.listMembershipsOfUser(profile.id);
  const companies = await store.getCompanies(memberships.map((m) => m.company_id));
  const owned = companies.filter((c) => c.owner.user_id === profile.id);
  await Promise.all(owned.map((c) => store.renameCompanyOwner(c.company_id, profile.id, { name: profile.name, surname: profile.surname })));
}
