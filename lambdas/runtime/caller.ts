import { AppError, forbidden } from '../../shared/errors';
import type { AuthLevel } from '../../shared/routes';
import type { CompanyRole } from '../../shared/schemas';
import { groupsOfClaim, isGlobalAdmin } from '../core/admin/global-admin';
import type { AccountsStore } from '../core/ports';

export interface Caller {
  userId: string;
  email: string;
  /** The company the call is about (query company_id), when the caller is a member of it. */
  companyId?: string;
  role?: CompanyRole;
  isGlobalAdmin: boolean;
  /** Cognito groups of the token (`cognito:groups`); `global-admins` makes a platform admin. */
  groups?: string[];
}

export interface Claims {
  sub?: string;
  username?: string;
  email?: string;
  [key: string]: unknown;
}

/**
 * Resolves who calls and checks the route's auth level. A company_id the caller is not a
 * member of is answered 403 without saying whether the company exists.
 */
export async function resolveCaller(
  store: AccountsStore,
  auth: AuthLevel,
  claims: Claims | undefined,
  companyId: string | undefined,
  globalAdminEmails: string[],
): Promise<Caller | undefined> {
  if (auth === 'public') return undefined;
  const userId = claims?.sub;
  if (!userId || typeof userId !== 'string') throw new AppError('Unauthorized', 'Not signed in');
  const caller: Caller = {
    userId,
    email: String(claims?.email ?? claims?.username ?? ''),
    groups: groupsOfClaim(claims?.['cognito:groups']),
    isGlobalAdmin: false,
  };
  caller.isGlobalAdmin = isGlobalAdmin({ groups: caller.groups }, []);
  if (companyId && companyId !== 'NONE') {
    const membership = await store.getMembership(userId, companyId);
    if (!membership) throw forbidden('You are not a member of this company');
    caller.companyId = companyId;
    caller.role = membership.role;
  }
  if (auth === 'company-admin') {
    if (!caller.companyId) throw forbidden('A company is required');
    if (caller.role !== 'admin') throw forbidden('Only a company administrator can do this');
  }
  if (auth === 'global-admin') {
    const profile = await store.getProfile(userId);
    caller.email = profile?.email ?? caller.email;
    caller.isGlobalAdmin = isGlobalAdmin({ profileIsAdmin: profile?.is_admin, email: caller.email, groups: caller.groups }, globalAdminEmails);
    if (!caller.isGlobalAdmin) throw forbidden('Only a platform administrator can do this');
  }
  return caller;
}
