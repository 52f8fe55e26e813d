import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  RENEW_WAIT_MS,
  RENEWING_KEY,
  SETTLE_MS,
  createSessionWatcher,
  readSession,
  sessionChangeOf,
  whileRenewingSession,
  type SessionChange,
} from '../../../web/src/app/auth-storage';

const CLIENT = 'client123';
const PREFIX = `CognitoIdentityServiceProvider.${CLIENT}`;
const LAST = `${PREFIX}.LastAuthUser`;

/** A JWT as Amplify keeps it (only the payload is read). */
function jwt(payload: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'RS256' })}.${part(payload)}.signature`;
}

interface Account {
  /** What Amplify keeps as LastAuthUser: the e-mail typed at sign-in. */
  login: string;
  sub: string;
}
const anna: Account = { login: 'anna@example.com', sub: 'sub-anna' };
const bob: Account = { login: 'bob@example.com', sub: 'sub-bob' };

/**
 * localStorage shared by two tabs: the other tab writes, this tab receives a `storage` event for every key that
 * changed (none when the value stays the same, as browsers do).
 */
function sharedStorage() {
  const map = new Map<string, string>();
  let listener: (event: { key: string | null; newValue: string | null }) => void = () => undefined;
  const notify = (key: string | null, newValue: string | null) => listener({ key, newValue });
  return {
    map,
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem(k: string, v: string) {
      if (map.get(k) === v) return;
      map.set(k, v);
      notify(k, v);
    },
    removeItem(k: string) {
      if (!map.has(k)) return;
      map.delete(k);
      notify(k, null);
    },
    clear() {
      map.clear();
      notify(null, null);
    },
    onEvent(l: typeof listener) {
      listener = l;
    },
  };
}
type Shared = ReturnType<typeof sharedStorage>;

/** Amplify 6's DefaultTokenStore.storeTokens, in its order: LastAuthUser first, then the user's tokens. */
function storeTokens(s: Shared, who: Account, n = 1) {
  const keys = `${PREFIX}.${who.login}`;
  s.setItem(LAST, who.login);
  s.setItem(`${keys}.accessToken`, jwt({ sub: who.sub, username: who.sub, token_use: 'access', n }));
  s.setItem(`${keys}.idToken`, jwt({ sub: who.sub, 'cognito:username': who.sub, email: who.login, token_use: 'id', n }));
  s.setItem(`${keys}.refreshToken`, `refresh-${who.sub}-${n}`);
  s.setItem(`${keys}.signInDetails`, JSON.stringify({ loginId: who.login, authFlowType: 'USER_PASSWORD_AUTH' }));
  s.setItem(`${keys}.clockDrift`, '0');
}

/** Amplify 6's DefaultTokenStore.clearTokens (a sign-out), in its order. */
function clearTokens(s: Shared, who: Account) {
  const keys = `${PREFIX}.${who.login}`;
  for (const k of ['accessToken', 'idToken', 'clockDrift', 'refreshToken', 'signInDetails']) s.removeItem(`${keys}.${k}`);
  s.removeItem(LAST);
  s.removeItem(`${keys}.oauthMetadata`);
}

/** This tab: signed in as `who`, applying what the watcher reports the way AuthProvider does. */
function thisTab(s: Shared, who: Account | null) {
  const changes: SessionChange[] = [];
  let current: { userId: string; username: string } | null = who ? { userId: who.sub, username: who.sub } : null;
  const watcher = createSessionWatcher({
    storage: s,
    clientId: CLIENT,
    currentUser: () => current,
    onChange(change) {
      changes.push(change);
      // signedOut: the tab goes to sign-in; otherUser: it re-reads the session from storage
      if (change === 'signedOut') current = null;
      else {
        const session = readSession(s, CLIENT);
        current = session.userId ? { userId: session.userId, username: session.userId } : null;
      }
    },
  });
  s.onEvent((e) => watcher.onStorage(e));
  return { changes, watcher, user: () => current };
}

describe('a session changed in another tab', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a password change there (sign-out, then a new sign-in of the same user) leaves this tab signed in', async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    // renewSession in the other tab: GlobalSignOut, the tokens cleared, the new sign-in over the network
    await whileRenewingSession(s, async () => {
      await vi.advanceTimersByTimeAsync(400);
      clearTokens(s, anna);
      expect(tab.watcher.pending()).toBe(true);
      await vi.advanceTimersByTimeAsync(1500);
      storeTokens(s, anna, 2);
    });
    await vi.advanceTimersByTimeAsync(RENEW_WAIT_MS * 2);
    expect(tab.changes).toEqual([]);
    expect(tab.user()).toEqual({ userId: anna.sub, username: anna.sub });
    expect(tab.watcher.pending()).toBe(false);
    // the new tokens are the ones in storage for the next call
    expect(readSession(s, CLIENT).userId).toBe(anna.sub);
  });

  it('the keys missing for a moment while Amplify rewrites them (LastAuthUser written, tokens removed, tokens written) change nothing', async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    s.setItem(LAST, anna.login);
    s.removeItem(LAST);
    s.setItem(LAST, anna.login);
    for (const k of ['accessToken', 'idToken', 'refreshToken']) s.removeItem(`${PREFIX}.${anna.login}.${k}`);
    await vi.advanceTimersByTimeAsync(50);
    storeTokens(s, anna, 2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(tab.changes).toEqual([]);
  });

  it('a new sign-in of the same user there (sign-out and sign-in in one go) leaves this tab signed in', async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    clearTokens(s, anna);
    await vi.advanceTimersByTimeAsync(SETTLE_MS / 2);
    storeTokens(s, anna, 2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(tab.changes).toEqual([]);
  });

  it('a sign-out there signs this tab out, within half a second', async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    clearTokens(s, anna);
    expect(tab.watcher.pending()).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(tab.changes).toEqual(['signedOut']);
    await vi.advanceTimersByTimeAsync(RENEW_WAIT_MS * 2);
    expect(tab.changes).toEqual(['signedOut']);
  });

  it('localStorage cleared there signs this tab out', async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    s.clear();
    await vi.advanceTimersByTimeAsync(500);
    expect(tab.changes).toEqual(['signedOut']);
  });

  it('a password change whose new sign-in fails there signs this tab out', async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    await expect(
      whileRenewingSession(s, async () => {
        clearTokens(s, anna);
        await vi.advanceTimersByTimeAsync(1500);
        expect(tab.changes).toEqual([]);
        throw new Error('NotAuthorizedException');
      }),
    ).rejects.toThrow('NotAuthorizedException');
    await vi.advanceTimersByTimeAsync(500);
    expect(tab.changes).toEqual(['signedOut']);
  });

  it('a password change cut short there (the tab closed mid-way) signs this tab out once the wait is over', async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    s.setItem(RENEWING_KEY, String(Date.now()));
    clearTokens(s, anna);
    await vi.advanceTimersByTimeAsync(RENEW_WAIT_MS - 1000);
    expect(tab.changes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1500);
    expect(tab.changes).toEqual(['signedOut']);
  });

  it("another user's sign-in there makes this tab read that user's session (its data dropped), never keep the first user's", async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    // Sign-out and the other user's sign-in at once (signInWithEmail over a session still held)
    clearTokens(s, anna);
    storeTokens(s, bob);
    await vi.advanceTimersByTimeAsync(500);
    expect(tab.changes).toEqual(['otherUser']);
    expect(tab.user()?.userId).toBe(bob.sub);
  });

  it("a sign-out, then another user's sign-in there: this tab signs out, then reads the new user", async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    clearTokens(s, anna);
    await vi.advanceTimersByTimeAsync(5000);
    storeTokens(s, bob);
    await vi.advanceTimersByTimeAsync(500);
    expect(tab.changes).toEqual(['signedOut', 'otherUser']);
    expect(tab.user()?.userId).toBe(bob.sub);
  });

  it('a signed-out tab reads the session a sign-in there started', async () => {
    const s = sharedStorage();
    const tab = thisTab(s, null);
    storeTokens(s, anna);
    await vi.advanceTimersByTimeAsync(500);
    expect(tab.changes).toEqual(['otherUser']);
    expect(tab.user()?.userId).toBe(anna.sub);
  });

  it('ignores token refreshes and other keys (the CSV format, the active company)', async () => {
    const s = sharedStorage();
    storeTokens(s, anna);
    const tab = thisTab(s, anna);
    s.setItem(`${PREFIX}.${anna.login}.accessToken`, jwt({ sub: anna.sub, n: 3 }));
    s.setItem('export_csv_format', 'semicolon');
    s.setItem('active_company', 'C2');
    await vi.advanceTimersByTimeAsync(5000);
    expect(tab.changes).toEqual([]);
    tab.watcher.dispose();
    clearTokens(s, anna);
    await vi.advanceTimersByTimeAsync(5000);
    expect(tab.changes).toEqual([]);
  });
});

describe('the session held in storage', () => {
  function storage(entries: Record<string, string>) {
    const m = new Map(Object.entries(entries));
    return { get length() { return m.size; }, key: (i: number) => [...m.keys()][i] ?? null, getItem: (k: string) => m.get(k) ?? null };
  }

  it("is the user of the LastAuthUser's access token (usernames with dots), none without one", () => {
    const token = jwt({ sub: 'sub-anna' });
    expect(readSession(storage({ [LAST]: 'anna.b@example.com', [`${PREFIX}.anna.b@example.com.accessToken`]: token }), CLIENT).userId).toBe('sub-anna');
    expect(readSession(storage({ [LAST]: 'anna.b@example.com' }), CLIENT).userId).toBeNull();
    expect(readSession(storage({ [`${PREFIX}.anna.b@example.com.accessToken`]: token }), CLIENT).userId).toBeNull();
    expect(readSession(storage({ [LAST]: 'a', [`${PREFIX}.a.accessToken`]: 'not a token' }), CLIENT).userId).toBeNull();
  });

  it("reads only this app's client, any client when none is given", () => {
    const other = 'CognitoIdentityServiceProvider.oldclient';
    const s = storage({ [`${other}.LastAuthUser`]: 'a', [`${other}.a.accessToken`]: jwt({ sub: 'sub-a' }) });
    expect(readSession(s, CLIENT).userId).toBeNull();
    expect(readSession(s).userId).toBe('sub-a');
  });

  it('decides from the settled storage', () => {
    const now = 1_000_000;
    expect(sessionChangeOf({ userId: null, renewingSince: null }, 'sub-anna', now)).toBe('signedOut');
    expect(sessionChangeOf({ userId: null, renewingSince: null }, null, now)).toBe('none');
    expect(sessionChangeOf({ userId: 'sub-anna', renewingSince: null }, 'sub-anna', now)).toBe('none');
    expect(sessionChangeOf({ userId: 'sub-bob', renewingSince: null }, 'sub-anna', now)).toBe('otherUser');
    expect(sessionChangeOf({ userId: 'sub-bob', renewingSince: null }, null, now)).toBe('otherUser');
    expect(sessionChangeOf({ userId: null, renewingSince: now - 1000 }, 'sub-anna', now)).toEqual({ waitMs: RENEW_WAIT_MS - 1000 });
    expect(sessionChangeOf({ userId: null, renewingSince: now - RENEW_WAIT_MS }, 'sub-anna', now)).toBe('signedOut');
  });

  it('marks a renewal while it runs, and unmarks it when it fails', async () => {
    const m = new Map<string, string>();
    const s = { setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
    await whileRenewingSession(s, async () => expect(m.has(RENEWING_KEY)).toBe(true));
    expect(m.has(RENEWING_KEY)).toBe(false);
    await expect(whileRenewingSession(s, () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(m.has(RENEWING_KEY)).toBe(false);
  });
});
