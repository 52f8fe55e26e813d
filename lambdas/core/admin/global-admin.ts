import { GLOBAL_ADMIN_GROUP } from '../../../shared/constants';

/**
 * The groups of a verified token. API Gateway's JWT authorizer hands array claims over as one string
 * ("[global-admins other]"); the local adapter as JSON ('["global-admins"]'); a raw token as an array.
 */
export function groupsOfClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  if (typeof value !== 'string') return [];
  const text = value.trim();
  if (text.startsWith('[') && text.includes('"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.filter((g): g is string => typeof g === 'string');
    } catch {
      /* not JSON: the authorizer's own form below */
    }
  }
  return text
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

/**
 * A platform (global) admin is any of: the profile's `is_admin` flag, a member of the Cognito group
 * `global-admins`, or an email named in the deployment's global admin list.
 */
export function isGlobalAdmin(
  who: { profileIsAdmin?: boolean; email?: string; groups?: readonly string[] },
  globalAdminEmails: readonly string[],
): boolean {
  if (who.profileIsAdmin) return true;
  if (who.groups?.includes(GLOBAL_ADMIN_GROUP)) return true;
  const email = who.email?.trim().toLowerCase();
  return Boolean(email && globalAdminEmails.includes(email));
}

/** GET /user: `is_admin` is true for every way of being a platform admin, so the web shows the Admin menu. */
export function withGlobalAdminFlag<P extends { is_admin: boolean; email: string }>(
  profile: P,
  groups: readonly string[] | undefined,
  globalAdminEmails: readonly string[],
): P {
  return { ...profile, is_admin: isGlobalAdmin({ profileIsAdmin: profile.is_admin, email: profile.email, groups }, globalAdminEmails) };
}
