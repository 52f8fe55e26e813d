import { describe, expect, it } from 'vitest';
import { sessionChangeOf } from '../../../web/src/app/auth-storage';

const KEY = 'CognitoIdentityServiceProvider.client123.LastAuthUser';

describe('a session changed in another tab', () => {
  it('is a sign-out when the signed-in user key goes, or localStorage is cleared', () => {
    expect(sessionChangeOf({ key: KEY, newValue: null }, 'user-1')).toBe('signedOut');
    expect(sessionChangeOf({ key: null, newValue: null }, 'user-1')).toBe('signedOut');
    expect(sessionChangeOf({ key: KEY, newValue: null }, null)).toBe('none');
  });

  it('is another user when someone else signed in there, nothing when it is the same user', () => {
    expect(sessionChangeOf({ key: KEY, newValue: 'user-2' }, 'user-1')).toBe('otherUser');
    expect(sessionChangeOf({ key: KEY, newValue: 'user-2' }, null)).toBe('otherUser');
    expect(sessionChangeOf({ key: KEY, newValue: 'user-1' }, 'user-1')).toBe('none');
  });

  it('ignores other keys (tokens refreshed, the CSV format, the active company)', () => {
    expect(sessionChangeOf({ key: 'CognitoIdentityServiceProvider.client123.user-1.accessToken', newValue: 'x' }, 'user-1')).toBe('none');
    expect(sessionChangeOf({ key: 'export_csv_format', newValue: 'semicolon' }, 'user-1')).toBe('none');
  });
});
