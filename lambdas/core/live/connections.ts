import { WS_PING_MS } from '../../../shared/constants';
import { forbidden } from '../../../shared/errors';
import type { AccountsStore } from '../ports';

/** When a connection ends and until when its subscriptions get events (epoch seconds). */
export interface ConnectionTimes {
  /** API Gateway's end of the connection (two hours after $connect). */
  closesAt: number;
  /** The subscriptions' end: the access token's expiry and a grace (subscribedUntil); renewed by a fresher token. */
  subscribedUntil: number;
}

export interface ConnectionRecord extends ConnectionTimes {
  userId: string;
}

export interface ConnectionStore {
  /** Records the connection and subscribes it to exactly the given companies, until `times.subscribedUntil`. */
  subscribe(connectionId: string, userId: string, companyIds: string[], times: ConnectionTimes): Promise<void>;
  /** Moves the end of the connection's subscriptions that still exist (a removed member's are not made again). */
  renew(connectionId: string, subscribedUntil: number): Promise<void>;
  remove(connectionId: string): Promise<void>;
  connection(connectionId: string): Promise<ConnectionRecord | undefined>;
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
 * How long after its access token expires a connection's subscriptions still get events: one ping interval (the
 * screen sends its refreshed token after a ping) and three minutes (a hidden tab's timers run up to a minute late).
 */
export const TOKEN_GRACE_SECONDS = WS_PING_MS / 1000 + 180;

/**
 * Until when a connection gets events: no longer than its access token (and the grace) — a user signed out
 * everywhere (a lost laptop, a changed password) gets no fresh token, so an open tab stops receiving within the
 * token's hour instead of API Gateway's two hours — and never past the connection's own end.
 */
export function subscribedUntil(closesAt: number, tokenExp: number): number {
  return Math.min(closesAt, tokenExp + TOKEN_GRACE_SECONDS);
}

/** The times of a connection opened now with a token expiring at `tokenExp` (epoch seconds). */
export function connectionTimes(nowSeconds: number, tokenExp: number): ConnectionTimes {
  const closesAt = nowSeconds + CONNECTION_TTL_SECONDS;
  return { closesAt, subscribedUntil: subscribedUntil(closesAt, tokenExp) };
}

/**
 * A fresher access token sent on an open connection ({event:'token'}): the subscriptions get events until it expires
 * (and the grace). The token must be the connection's user's. `lapsed`: the subscriptions had ended already (events
 * were missed, and DynamoDB may have removed them): the screen connects again rather than trusting this socket.
 */
export async function renewConnection(
  store: Pick<ConnectionStore, 'connection' | 'renew'>,
  connectionId: string,
  claims: { sub: string; exp: number },
  nowSeconds: number,
): Promise<{ lapsed: boolean }> {
  const connection = await store.connection(connectionId);
  if (!connection || connection.subscribedUntil <= nowSeconds) return { lapsed: true };
  if (connection.userId !== claims.sub) throw forbidden('The token is of another user');
  const until = subscribedUntil(connection.closesAt, claims.exp);
  if (until > connection.subscribedUntil) await store.renew(connectionId, until);
  return { lapsed: false };
}

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
