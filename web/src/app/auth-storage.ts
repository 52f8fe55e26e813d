/**
 * Amplify keeps the session in localStorage, which every tab of the browser shares: a sign-out, or a sign-in of
 * someone else, in one tab changes the session of all. The other tabs learn it from `storage` events of Amplify's
 * keys: `CognitoIdentityServiceProvider.<client id>.LastAuthUser` names the user (the login typed at sign-in), and
 * `CognitoIdentityServiceProvider.<client id>.<LastAuthUser>.accessToken` (idToken, refreshToken, …) hold their tokens.
 *
 * A single event says little: a new sign-in rewrites these keys one by one (LastAuthUser first, then the tokens),
 * and a password change signs out and in again (every key removed, then written anew after a round trip to Cognito),
 * so for a moment the keys are missing although the user stays signed in. A tab therefore decides only once the
 * storage has settled, from what it then holds: no tokens is a sign-out, tokens of another user a sign-in of someone
 * else, the same user's tokens nothing (Amplify reads the new tokens on the next call). The tab renewing the session
 * after a password change marks it (RENEWING_KEY) for the time it takes, and the other tabs wait for its end.
 */
export type SessionChange = 'signedOut' | 'otherUser';

/** What a tab does about the session in storage: nothing, sign out, read the new user, or look again in `waitMs`. */
export type SessionDecision = 'none' | SessionChange | { waitMs: number };

/** Quiet time after the last session key changed before the tab looks (a sign-out still reaches it at once). */
export const SETTLE_MS = 300;
/** The longest another tab waits for a session renewal (a password change) before it counts the session ended. */
export const RENEW_WAIT_MS = 10_000;
/** Set (to the time it began) by the tab renewing the session, removed when it is done. */
export const RENEWING_KEY = 'session_renewing';

const AUTH_KEY_PREFIX = 'CognitoIdentityServiceProvider.';
const LAST_AUTH_USER = /^CognitoIdentityServiceProvider\.([^.]+)\.LastAuthUser$/;

export interface ReadableStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
}

export interface SessionSnapshot {
  /** The user whose tokens the browser holds (Cognito sub), null when it holds none. */
  userId: string | null;
  /** When another tab began renewing the session, null when none is. */
  renewingSince: number | null;
}

function subOf(token: string): string | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' && sub ? sub : null;
  } catch {
    return null;
  }
}

/** The session the storage holds now (for this app's `clientId`; any client when not given). */
export function readSession(storage: ReadableStorage, clientId?: string): SessionSnapshot {
  let userId: string | null = null;
  for (let i = 0; i < storage.length && !userId; i++) {
    const match = LAST_AUTH_USER.exec(storage.key(i) ?? '');
    if (!match || (clientId && match[1] !== clientId)) continue;
    const lastAuthUser = storage.getItem(match[0]);
    if (!lastAuthUser) continue;
    const accessToken = storage.getItem(`${AUTH_KEY_PREFIX}${match[1]}.${lastAuthUser}.accessToken`);
    userId = accessToken ? subOf(accessToken) : null;
  }
  const since = Number(storage.getItem(RENEWING_KEY) ?? NaN);
  return { userId, renewingSince: Number.isFinite(since) ? since : null };
}

/** What the settled storage means for a tab signed in as `userId` (null: signed out). */
export function sessionChangeOf(snapshot: SessionSnapshot, userId: string | null, now: number): SessionDecision {
  if (snapshot.renewingSince !== null) {
    const left = snapshot.renewingSince + RENEW_WAIT_MS - now;
    if (left > 0 && left <= RENEW_WAIT_MS) return { waitMs: left };
  }
  if (!snapshot.userId) return userId ? 'signedOut' : 'none';
  return snapshot.userId === userId ? 'none' : 'otherUser';
}

/** Whether a `storage` event concerns the session (a null key: localStorage cleared). */
export function isSessionKey(key: string | null): boolean {
  return key === null || key === RENEWING_KEY || key.startsWith(AUTH_KEY_PREFIX);
}

export interface SessionWatcher {
  /** Hand it every `storage` event of localStorage. */
  onStorage(event: { key: string | null }): void;
  /** The session keys changed and the tab has not decided yet (a call failing now for want of a token proves nothing). */
  pending(): boolean;
  dispose(): void;
}

/** Watches the session other tabs change and reports, once settled, what it means for this tab. */
export function createSessionWatcher(deps: {
  storage: ReadableStorage;
  clientId?: string;
  currentUser(): { userId: string } | null;
  onChange(change: SessionChange): void;
  now?: () => number;
}): SessionWatcher {
  const now = deps.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  const schedule = (ms: number) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(check, ms);
  };
  function check() {
    timer = undefined;
    const decision = sessionChangeOf(readSession(deps.storage, deps.clientId), deps.currentUser()?.userId ?? null, now());
    if (typeof decision === 'object') schedule(decision.waitMs);
    else if (decision !== 'none') deps.onChange(decision);
  }
  return {
    onStorage(event) {
      if (!disposed && isSessionKey(event.key)) schedule(SETTLE_MS);
    },
    pending: () => timer !== undefined,
    dispose() {
      disposed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Runs a renewal of the session (sign-out and a new sign-in) marked in storage, so that the other tabs wait for its
 * end instead of taking the tokens' absence meanwhile for a sign-out.
 */
export async function whileRenewingSession<T>(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  run: () => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  try {
    storage?.setItem(RENEWING_KEY, String(now()));
  } catch {
    // storage refused (full or blocked): the other tabs decide without the mark
  }
  try {
    return await run();
  } finally {
    try {
      storage?.removeItem(RENEWING_KEY);
    } catch {
      // as above
    }
  }
}
