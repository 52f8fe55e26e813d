/**
 * Amplify keeps the session in localStorage, which every tab of the browser shares: a sign-out, or a sign-in of
 * someone else, in one tab changes the session of all. The other tabs learn it from the `storage` event of the
 * key that names the signed-in user (`CognitoIdentityServiceProvider.<client id>.LastAuthUser`).
 */
export type SessionChange = 'none' | 'signedOut' | 'otherUser';

const LAST_AUTH_USER = /^CognitoIdentityServiceProvider\.[^.]+\.LastAuthUser$/;

/** What a storage event means for this tab, signed in as `username` (null: signed out). */
export function sessionChangeOf(event: Pick<StorageEvent, 'key' | 'newValue'>, username: string | null): SessionChange {
  // localStorage.clear() in another tab: the session went with it
  if (event.key === null) return username ? 'signedOut' : 'none';
  if (!LAST_AUTH_USER.test(event.key)) return 'none';
  if (event.newValue === null) return username ? 'signedOut' : 'none';
  return event.newValue === username ? 'none' : 'otherUser';
}
