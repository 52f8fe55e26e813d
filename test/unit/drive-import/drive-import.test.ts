import { describe, expect, it } from 'vitest';
import { acceptable, skipReason, uploadIdOf } from '../../../lambdas/core/drive-import/run';
import { completeAuthorization, redirectUriOf, stateHashOf, switchDrive, type DriveDeps } from '../../../lambdas/core/drive-import/service';
import type { DriveImportRecord, DriveProvider, DriveStore, OAuthStateRecord } from '../../../lambdas/core/drive-import/ports';
import type { IntegrationStore, SecretBox, StoredCredentials } from '../../../lambdas/core/integrations/ports';
import { redirectingFetch } from '../../../lambdas/adapters/drive/dropbox';

/** In-memory fakes of the stores and a provider that records what it was asked. */
function fakes(now: { t: Date }) {
  const states = new Map<string, OAuthStateRecord>();
  const imports = new Map<string, DriveImportRecord>();
  const creds = new Map<string, StoredCredentials>();
  const exchanged: { code: string; codeVerifier: string; redirectUri: string }[] = [];
  const drive: Partial<DriveStore> = {
    putState: async (r) => void states.set(r.state_hash, r),
    takeState: async (h) => {
      const r = states.get(h);
      states.delete(h);
      return r;
    },
    getImport: async (c, s) => imports.get(`${c}#${s}`),
    putImport: async (r) => void imports.set(`${r.company_id}#${r.service}`, r),
    setCompanyDrive: async () => undefined,
  };
  const integrations: Partial<IntegrationStore> = {
    putCredentials: async (r) => void creds.set(`${r.company_id}#${r.type}`, r),
    getCredentials: async (c, t) => creds.get(`${c}#${t}`),
  };
  const secrets: SecretBox = {
    seal: async (plain, context) => ({ alg: 'local-aes-256-gcm', key_id: 'k', ciphertext: Buffer.from(JSON.stringify({ plain, context })).toString('base64') }),
    open: async (sealed, context) => {
      const v = JSON.parse(Buffer.from(sealed.ciphertext, 'base64').toString('utf8')) as { plain: string; context: unknown };
      if (JSON.stringify(v.context) !== JSON.stringify(context)) throw new Error('context mismatch');
      return v.plain;
    },
  };
  const provider: DriveProvider = {
    authorizationUrl: async ({ redirectUri, state }) => ({ url: `https://provider.example/auth?state=${state}&redirect_uri=${encodeURIComponent(redirectUri)}`, codeVerifier: 'verifier-123' }),
    exchangeCode: async (input) => {
      exchanged.push(input);
      return { access_token: 'at', refresh_token: 'rt', expires_at: null };
    },
    session: () => {
      throw new Error('not used');
    },
  };
  const deps = {
    store: {
      getMembership: async () => ({ role: 'admin' }),
      getCompanies: async () => [{ company_id: 'c1', name: 'Acme', code: '1', integrations: {}, owner: { user_id: 'u1' } }],
      getCompanyStats: async () => new Map(),
    },
    drive,
    integrations,
    secrets,
    providers: { google: provider, dropbox: provider },
    clock: { now: () => now.t },
    live: { publish: async () => undefined },
    appUrl: 'https://app.example/',
    emailInDomain: '',
  } as unknown as DriveDeps;
  return { deps, states, exchanged, creds };
}

describe('drive imports: OAuth state', () => {
  it('hands out a state bound to company, user and service, stored only as its hash, with the PKCE verifier sealed', async () => {
    const now = { t: new Date('2026-11-25T10:00:00Z') };
    const f = fakes(now);
    const res = await switchDrive(f.deps, { userId: 'u1', companyId: 'c1' }, { service_type: 'dropbox', disconnect: false });
    const state = new URL(res.url!).searchParams.get('state')!;
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new URL(res.url!).searchParams.get('redirect_uri')).toBe('https://app.example/integration/dropbox/authcallback');
    const stored = f.states.get(stateHashOf(state))!;
    expect(stored).toMatchObject({ company_id: 'c1', user_id: 'u1', service: 'dropbox', expires_at: '2026-11-25T10:10:00.000Z' });
    expect(JSON.stringify([...f.states.keys()])).not.toContain(state);
  });

  it('refuses an expired state, and a state used once', async () => {
    const now = { t: new Date('2026-11-25T10:00:00Z') };
    const f = fakes(now);
    const res = await switchDrive(f.deps, { userId: 'u1', companyId: 'c1' }, { service_type: 'google', disconnect: false });
    const state = new URL(res.url!).searchParams.get('state')!;
    now.t = new Date('2026-11-25T10:10:01Z');
    await expect(completeAuthorization(f.deps, { userId: 'u1', companyId: 'c1' }, { service_type: 'google', code: 'c', state })).rejects.toMatchObject({ kind: 'ValidationFailed', message: 'Connection error!' });
    // Taken even though it failed: a second try finds nothing.
    now.t = new Date('2026-11-25T10:01:00Z');
    await expect(completeAuthorization(f.deps, { userId: 'u1', companyId: 'c1' }, { service_type: 'google', code: 'c', state })).rejects.toMatchObject({ message: 'Connection error!' });
    expect(f.exchanged).toHaveLength(0);
  });

  it('exchanges the code with the stored verifier and seals the grant under the company and kind', async () => {
    const now = { t: new Date('2026-11-25T10:00:00Z') };
    const f = fakes(now);
    const res = await switchDrive(f.deps, { userId: 'u1', companyId: 'c1' }, { service_type: 'google', disconnect: false });
    const state = new URL(res.url!).searchParams.get('state')!;
    await completeAuthorization(f.deps, { userId: 'u1', companyId: 'c1' }, { service_type: 'google', code: 'the-code', state });
    expect(f.exchanged).toEqual([{ code: 'the-code', codeVerifier: 'verifier-123', redirectUri: 'https://app.example/integration/google/authcallback' }]);
    const sealed = f.creds.get('c1#google_drive_import')!;
    expect(sealed.sealed.ciphertext).not.toContain('rt');
  });
});

describe('drive imports: files', () => {
  it('takes the upload types within their size limits only', () => {
    expect(acceptable({ id: '1', revision: 'r', name: 'scan.PDF', size: 1000 })).toBe(true);
    expect(acceptable({ id: '1', revision: 'r', name: 'photo.jpeg', size: 1000 })).toBe(true);
    expect(acceptable({ id: '1', revision: 'r', name: 'notes.txt', size: 1000 })).toBe(false);
    expect(acceptable({ id: '1', revision: 'r', name: 'empty.pdf', size: 0 })).toBe(false);
    expect(acceptable({ id: '1', revision: 'r', name: 'huge.png', size: 500 * 1024 * 1024 })).toBe(false);
  });

  it("says why a file is not taken, in the upload's own words", () => {
    const file = (name: string, size: number) => ({ id: '1', revision: 'r', name, size });
    expect(skipReason(file('scan.pdf', 1000))).toBeUndefined();
    expect(skipReason(file('photo.heic', 1000))).toBe('This file type is not allowed');
    expect(skipReason(file('empty.pdf', 0))).toBe('The file is empty');
    expect(skipReason(file('big.jpg', 11 * 1024 * 1024))).toBe('Image size limits 10MB');
    expect(skipReason(file('big.pdf', 31 * 1024 * 1024))).toBe('File size limits 30MB');
  });

  it('names one upload per company, service, file and content revision', () => {
    const a = uploadIdOf('c1', 'dropbox', { id: 'id:1', revision: 'h1' });
    expect(uploadIdOf('c1', 'dropbox', { id: 'id:1', revision: 'h1' })).toBe(a);
    expect(uploadIdOf('c1', 'dropbox', { id: 'id:1', revision: 'h2' })).not.toBe(a);
    expect(uploadIdOf('c2', 'dropbox', { id: 'id:1', revision: 'h1' })).not.toBe(a);
    expect(uploadIdOf('c1', 'google', { id: 'id:1', revision: 'h1' })).not.toBe(a);
  });

  it('builds the redirect URI from the app origin', () => {
    expect(redirectUriOf('http://127.0.0.1:3000', 'google')).toBe('http://127.0.0.1:3000/integration/google/authcallback');
  });
});

describe('Dropbox SDK fetch for the stand-in', () => {
  it('sends Dropbox hosts to the stand-in and refuses others', async () => {
    const seen: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (url: string) => {
      seen.push(String(url));
      return new Response('{}');
    }) as typeof fetch;
    try {
      const f = redirectingFetch('http://127.0.0.1:9/_dropbox/');
      await f('https://api.dropboxapi.com/2/files/list_folder', { method: 'POST' });
      await f('https://content.dropboxapi.com/2/files/download', { method: 'POST' });
      await f('https://api.dropboxapi.com/oauth2/token?grant_type=refresh_token', { method: 'POST' });
      expect(() => f('https://evil.example/2/x', {})).toThrow(/unexpected Dropbox host/);
    } finally {
      globalThis.fetch = original;
    }
    expect(seen).toEqual([
      'http://127.0.0.1:9/_dropbox/api/2/files/list_folder',
      'http://127.0.0.1:9/_dropbox/content/2/files/download',
      'http://127.0.0.1:9/_dropbox/api/oauth2/token?grant_type=refresh_token',
    ]);
  });
});
