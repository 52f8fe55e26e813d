import { forbidden } from '../../../shared/errors';
import type { AccountsStore } from '../ports';

export interface ConnectionStore {
  /** Records the connection and subscribes it to exactly the given companies. */
  subscribe(connectionId: string, userId: string, companyIds: string[], expiresAt: number): Promise<void>;
  remove(connectionId: string): Promise<void>;
  owner(connectionId: string): Promise<string | undefined>;
  /** Ends the subscriptions of every connection of one user to one company (a removed member; A13). */
  unsubscribeUser(userId: string, companyId: string): Promise<void>;
  /** Ends every connection's subscription to a company (a deleted company; A14). */
  unsubscribeCompany(companyId: string): Promise<void>;
}

/** One connection's subscription to a company, as the publisher reads it (A10). */
export interface CompanySubscription {
  connection_id: string;
  /** The connection's user. */
  user_id: string;
}

/**
 * The connections a company's event goes to: those of users who are still members. Removing a member ends their
 * subscriptions (A13); this also skips one that outlived it — a company switch that checked the membership just
 * before the removal and wrote its subscription just after, or a connection the index did not show yet.
 */
export function connectionsOfMembers(subscriptions: CompanySubscription[], members: ReadonlySet<string>): string[] {
  return subscriptions.filter((s) => members.has(s.user_id)).map((s) => s.connection_id);
}

/** API Gateway closes WebSocket connections after two hours; the records expire with them. */
export const CONNECTION_TTL_SECONDS = 2 * 60 * 60;

/**
 * Which companies a live connection follows: one company the user is a member of, or
 * ALL of the user's companies (the all-companies view). Anything else is refused.
 */
export async function companiesToFollow(store: AccountsStore, userId: string, companyId: string): Promise<string[]> {
  if (companyId === 'ALL' || companyId === 'NONE') {
    return (await store.listMembershipsOfUser(userId)).map((m) => m.company_id);
  }
  const membership = await store.getMembership(userId, companyId);
  if (!membership) throw forbidden('You are not a member of this company');
  return [companyId];
}
