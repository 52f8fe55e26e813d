/**
 * Revoking a Google Drive / Dropbox grant is best effort: a provider that refuses, fails or does not answer is
 * logged without any token, and the caller (switch-off, member removal, company deletion) goes on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageWithoutTokens, REVOKE_TIMEOUT_MS, revokeGrant } from '../../../lambdas/core/drive-import/service';
import type { DriveProvider, DriveProviders, DriveSession, DriveTokens } from '../../../lambdas/core/drive-import/ports';

const tokens: DriveTokens = { access_token: 'at-secretaccess0123456789', refresh_token: 'rt-secretrefresh0123456789', expires_at: null };

function providers(revoke: () => Promise<void>): DriveProviders {
  const provider = { session: () => ({ revoke }) as unknown as DriveSession } as unknown as DriveProvider;
  return { google: provider, dropbox: provider };
}

function logger() {
  const lines: string[] = [];
  return { lines, log: { warn: (msg: string, data?: Record<string, unknown>) => void lines.push(`${msg} ${JSON.stringify(data)}`) } };
}

describe('revoking a grant', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers true when the provider confirms', async () => {
    const { lines, log } = logger();
    await expect(revokeGrant({ providers: providers(async () => undefined), log }, 'c1', 'google', tokens)).resolves.toBe(true);
    expect(lines).toEqual([]);
  });

  it('a refusal is logged without the tokens, even when the provider repeats them', async () => {
    const { lines, log } = logger();
    const refused = async () => {
      throw new Error(`Request failed POST https://oauth2.googleapis.com/revoke?token=${tokens.refresh_token} (Bearer ${tokens.access_token})`);
    };
    await expect(revokeGrant({ providers: providers(refused), log }, 'c1', 'google', tokens)).resolves.toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('revoking the grant failed');
    expect(lines[0]).not.toContain('secret');
  });

  it(`a provider that does not answer is given up after ${REVOKE_TIMEOUT_MS} ms`, async () => {
    vi.useFakeTimers();
    const { lines, log } = logger();
    const result = revokeGrant({ providers: providers(() => new Promise<void>(() => undefined)), log }, 'c1', 'dropbox', tokens);
    await vi.advanceTimersByTimeAsync(REVOKE_TIMEOUT_MS);
    await expect(result).resolves.toBe(false);
    expect(lines[0]).toMatch(/no answer within/);
  });

  it('messageWithoutTokens hides token parameters it does not know by value', () => {
    expect(messageWithoutTokens(new Error('POST /revoke?token=abc&x=1 failed'), { access_token: 'zzz', refresh_token: null, expires_at: null })).toBe(
      'POST /revoke?token=[token]&x=1 failed',
    );
  });
});
