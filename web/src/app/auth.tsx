import { useQueryClient } from '@tanstack/react-query';
import { getCurrentUser, signOut as amplifySignOut } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { isSessionOver } from '../lib/auth-errors';
import { createSessionWatcher, whileRenewingSession } from './auth-storage';
import { useConfig } from './config-context';
import { useSessionExpiry } from './session-expiry';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface AuthUser {
  userId: string;
  username: string;
}

interface AuthContextValue {
  status: AuthStatus;
  user: AuthUser | null;
  /** Re-read the current session (after sign-in or confirmation). */
  refresh(): Promise<void>;
  /**
   * Ends the session. A user who signs out leaves their place behind: the next sign-in (maybe of someone else on
   * this browser) starts at the dashboard; `keepPath` (the session-expired pop-up's RECONNECT) comes back to it.
   */
  signOut(opts?: { keepPath?: boolean }): Promise<void>;
  /** The session was ended on purpose by signOut without keepPath (signed-in pages then keep no path to return to). */
  signedOutOnPurpose: boolean;
  /** A 401 or a missing token: raise the session-expired pop-up unless the user signed out on purpose. */
  reportSessionExpired(): void;
  /**
   * After a password change: ends every session of the user (other browsers and devices: their refresh tokens are
   * revoked, so they are signed out when their access token runs out, within the hour) and signs this tab in again
   * with the new password, without leaving the page. If the new sign-in fails, the user is signed out.
   */
  renewSession(email: string, password: string): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [user, setUser] = useState<AuthUser | null>(null);
  const [signedOutOnPurpose, setSignedOutOnPurpose] = useState(false);
  const queryClient = useQueryClient();
  const { markExpired, clear: clearExpired } = useSessionExpiry();
  const statusRef = useRef<AuthStatus>('loading');
  /** While renewSession runs, its own sign-out is no sign-out of the app. */
  const renewingRef = useRef(false);
  /** Another tab is changing the session and this tab has not decided yet what it means. */
  const crossTabPendingRef = useRef<() => boolean>(() => false);
  const { userPoolClientId } = useConfig();

  const apply = useCallback(
    (next: AuthStatus, nextUser: AuthUser | null) => {
      if (statusRef.current !== 'signedOut' && next === 'signedOut') queryClient.clear();
      if (next === 'signedIn') {
        clearExpired();
        setSignedOutOnPurpose(false);
      }
      statusRef.current = next;
      setUser(nextUser);
      setStatus(next);
    },
    [queryClient, clearExpired],
  );

  const reportSessionExpired = useCallback(() => {
    // A call that found no token while another tab renews the session (a password change there) proves nothing:
    // once it settles this tab either goes on with the new tokens or is signed out.
    if (statusRef.current !== 'signedOut' && !renewingRef.current && !crossTabPendingRef.current()) markExpired();
  }, [markExpired]);

  const refresh = useCallback(async () => {
    try {
      const current = await getCurrentUser();
      apply('signedIn', { userId: current.userId, username: current.username });
    } catch {
      apply('signedOut', null);
    }
  }, [apply]);

  const signOut = useCallback(async (opts: { keepPath?: boolean } = {}) => {
    // Mark first: requests failing while signing out must not raise the session-expired pop-up.
    statusRef.current = 'signedOut';
    setSignedOutOnPurpose(!opts.keepPath);
    try {
      await amplifySignOut();
    } catch {
      // a failed global revoke still clears the local session
    }
    queryClient.clear();
    setUser(null);
    setStatus('signedOut');
  }, [queryClient]);

  const renewSession = useCallback(
    async (email: string, password: string) => {
      renewingRef.current = true;
      try {
        // Loaded when used: the sign-in module (and its schemas) stays out of the first download. Its download starts
        // with the sign-out, so that the session is missing only for the new sign-in's round trip.
        const signInModule = import('../features/auth/api/auth');
        signInModule.catch(() => undefined);
        // Marked for the other tabs: they wait for the new tokens instead of signing out meanwhile.
        await whileRenewingSession(browserStorage(), async () => {
          try {
            await amplifySignOut({ global: true });
          } catch {
            // the local tokens are cleared even when the revoke fails; the sign-in below starts a new session
          }
          const { signInWithEmail } = await signInModule;
          await signInWithEmail(email, password);
        });
      } catch {
        // signed out: refresh() below finds no session and the app goes to sign-in
      } finally {
        renewingRef.current = false;
      }
      await refresh();
    },
    [refresh],
  );

  useEffect(() => {
    void refresh();
    return Hub.listen('auth', ({ payload }) => {
      switch (payload.event) {
        case 'signedIn':
          void refresh();
          break;
        case 'signedOut':
          if (!renewingRef.current) apply('signedOut', null);
          break;
        case 'tokenRefresh_failure': {
          if (isSessionOver((payload.data as { error?: unknown } | undefined)?.error)) reportSessionExpired();
          break;
        }
        default:
          break;
      }
    });
  }, [refresh, apply, reportSessionExpired]);

  // Another tab signed out, or signed in as someone else: this tab drops what it holds of the user it showed (it
  // would otherwise go on showing their data and call the API with the other user's tokens). Decided once the
  // storage settles: a password change or a new sign-in of the same user there rewrites the session's keys, and
  // their absence for that moment is no sign-out (app/auth-storage.ts).
  const userRef = useRef<AuthUser | null>(null);
  userRef.current = user;
  useEffect(() => {
    const storage = browserStorage();
    if (!storage) return undefined;
    const watcher = createSessionWatcher({
      storage,
      clientId: userPoolClientId,
      currentUser: () => userRef.current,
      onChange(change) {
        queryClient.clear();
        if (change === 'signedOut') apply('signedOut', null);
        else void refresh();
      },
    });
    crossTabPendingRef.current = watcher.pending;
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea && event.storageArea !== storage) return;
      watcher.onStorage(event);
    };
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener('storage', onStorage);
      watcher.dispose();
      crossTabPendingRef.current = () => false;
    };
  }, [apply, refresh, queryClient, userPoolClientId]);

  const value = useMemo(
    () => ({ status, user, refresh, signOut, signedOutOnPurpose, reportSessionExpired, renewSession }),
    [status, user, refresh, signOut, signedOutOnPurpose, reportSessionExpired, renewSession],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
