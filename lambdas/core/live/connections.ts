import { forbidden } from '../../../shared/errors';
import type { AccountsStore } from '../ports';

export interface ConnectionStore {
  /** Records the connection and subscribes it to exactly the given companies. */
  subscribe(connectionId: string, userId: string, companyIds: string[], expiresAt: number): Promise<void>;
  remove(connectionId: string): Promise<void>;
  owner(connectionId: string): Promise<string | undefined>;
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
