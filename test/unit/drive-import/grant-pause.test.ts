/**
 * The core rules of a withdrawn Google Drive / Dropbox grant and of the skipped-files count, with in-memory stores
 * and a provider whose folder is a change log read two files a page (the way Drive's changes and Dropbox's cursors
 * read): a lost grant keeps the folder and its read position, reconnecting resumes there, and the Integration
 * screen's count of skipped files is exact.
 */
import { describe, expect, it } from 'vitest';
import { DRIVE_SKIPPED_KEPT } from '../../../shared/schemas/drive';
import { CommitConflict } from '../../../lambdas/core/documents/ports';
import { importFolder, type DriveRunDeps } from '../../../lambdas/core/drive-import/run';
import { chooseDriveFolder, completeAuthorization, driveStatus, stateHashOf, switchDrive } from '../../../lambdas/core/drive-import/service';
import { DriveAuthError, DriveCursorExpired, type DriveFile, type DriveImportRecord, type DriveProvider, type DriveSession, type DriveStore, type DriveTokens, type OAuthStateRecord } from '../../../lambdas/core/drive-import/ports';
import type { IntegrationStore, SecretBox, StoredCredentials } from '../../../lambdas/core/integrations/ports';
import type { UploadRecord } from '../../../lambdas/core/documents/types';

const PAGE = 2;
const caller = { userId: 'u1', companyId: 'c1' };

/** A provider account: folders and a change log; cursor n = the log from position n. */
function account() {
  const folders = new Map<string, string>([
    ['F', 'Scans'],
    ['G', 'Other'],
  ]);
  const log: { folder: string; file: DriveFile }[] = [];
  const valid = new Set<string>();
  let issued = 0;
  /** Withdraws every grant when this file is downloaded (the provider refuses in the middle of a page). */
  let refuseAt: string | undefined;
  /** Fails once (a 500) when this file is downloaded. */
  let failAt: string | undefined;
  /** Cursors before this position are refused (Dropbox `reset`). */
  let oldest = 0;
  const drop = (folder: string, name: string, size = 100) => {
    const file = { id: `${folder}-${name}`, revision: 'r1', name, size };
    log.push({ folder, file });
    return file;
  };
  const provider: DriveProvider = {
    authorizationUrl: async ({ state }) => ({ url: `https://provider.example/auth?state=${state}`, codeVerifier: 'v' }),
    exchangeCode: async () => {
      issued += 1;
      const token = `at-${issued}`;
      valid.add(token);
      return { access_token: token, refresh_token: `rt-${issued}`, expires_at: null };
    },
    session(tokens: DriveTokens): DriveSession {
      const check = () => {
        if (!valid.has(tokens.access_token)) throw new DriveAuthError('refused (invalid_grant)');
      };
      return {
        folder: async (id) => (check(), folders.has(id) ? { id, name: folders.get(id)! } : undefined),
        listFolders: async () => (check(), { items: [...folders].map(([id, name]) => ({ id, name })), next: null }),
        startCursor: async () => (check(), String(log.length)),
        changes: async (folderId, cursor) => {
          check();
          const from = Number(cursor);
          if (from < oldest) throw new DriveCursorExpired('Dropbox no longer accepts the cursor (reset)');
          const slice = log.slice(from, from + PAGE);
          const end = from + slice.length;
          return { files: slice.filter((c) => c.folder === folderId).map((c) => c.file), cursor: String(end), more: end < log.length };
        },
        download: async (file) => {
          check();
          if (file.name === failAt) {
            failAt = undefined;
            throw new Error('provider answered 500');
          }
          if (file.name === refuseAt) {
            valid.clear();
            refuseAt = undefined;
            throw new DriveAuthError('refused (invalid_grant)');
          }
          return new Uint8Array([37, 80, 68, 70]);
        },
        revoke: async () => undefined,
        tokens: () => tokens,
      };
    },
  };
  return {
    provider,
    drop,
    revokeAll: () => valid.clear(),
    refuseWhenDownloading: (name: string) => {
      refuseAt = name;
    },
    failOnceWhenDownloading: (name: string) => {
      failAt = name;
    },
    /** Every cursor handed out so far stops working. */
    expireCursors: () => {
      oldest = log.length;
    },
  };
}

/** The stores as the single table behaves (whole-record puts, conditional lease, counters added with the cursor). */
function world() {
  const acct = account();
  const states = new Map<string, OAuthStateRecord>();
  const imports = new Map<string, DriveImportRecord>();
  const creds = new Map<string, StoredCredentials>();
  const flags = new Map<string, { enabled: boolean; folder: string | null }>();
  const uploads = new Map<string, UploadRecord>();
  const objects = new Map<string, { etag: string }>();
  const k = (c: string, s: string) => `${c}#${s}`;
  const drive: DriveStore = {
    putState: async (r) => void states.set(r.state_hash, r),
    takeState: async (h) => {
      const r = states.get(h);
      states.delete(h);
      return r;
    },
    getImport: async (c, s) => structuredClone(imports.get(k(c, s))),
    putImport: async (r) => void imports.set(k(r.company_id, r.service), structuredClone(r)),
    deleteImport: async (c, s) => void imports.delete(k(c, s)),
    listActive: async () => ({ items: [...imports.values()].filter((r) => r.folder_id).map((r) => ({ company_id: r.company_id, service: r.service })) }),
    takeLease: async (c, s, id, now, until) => {
      const r = imports.get(k(c, s));
      if (!r?.folder_id || (r.lease_until && r.lease_until > now)) return false;
      Object.assign(r, { lease_id: id, lease_until: until });
      return true;
    },
    saveProgress: async (c, s, id, cursor, imported, skipped) => {
      const r = imports.get(k(c, s));
      if (!r || r.lease_id !== id) return false;
      r.cursor = cursor;
      r.total_imported += imported;
      r.skipped_total = (r.skipped_total ?? 0) + skipped;
      return true;
    },
    finishRun: async (c, s, id, outcome) => {
      const r = imports.get(k(c, s));
      if (!r || r.lease_id !== id) return;
      Object.assign(r, { last_run_at: outcome.at, last_imported: outcome.imported, last_error: outcome.error, skipped_files: outcome.skipped_files, lease_id: null, lease_until: null });
    },
    setCompanyDrive: async (c, s, enabled, folder) => void flags.set(k(c, s), { enabled, folder }),
  };
  const integrations = {
    putCredentials: async (r: StoredCredentials) => void creds.set(k(r.company_id, r.type), r),
    getCredentials: async (c: string, t: string) => creds.get(k(c, t)),
    deleteCredentials: async (c: string, t: string) => void creds.delete(k(c, t)),
  } as unknown as IntegrationStore;
  const secrets: SecretBox = {
    seal: async (plain, context) => ({ alg: 'local-aes-256-gcm', key_id: 'k', ciphertext: Buffer.from(JSON.stringify({ plain, context })).toString('base64') }),
    open: async (sealed) => (JSON.parse(Buffer.from(sealed.ciphertext, 'base64').toString('utf8')) as { plain: string }).plain,
  };
  const company = {
    company_id: 'c1',
    name: 'Acme',
    code: '1',
    unique_name: 'acme',
    email: 'acme@in.example',
    created_at: '2026-01-01T00:00:00.000Z',
    owner: { user_id: 'u1', name: 'Ona', surname: 'Owner', email: 'ona@example.com' },
    available_documents: 1000,
    vat_account: null,
    integrations: {},
  };
  const deps = {
    store: {
      getMembership: async () => ({ role: 'admin' }),
      getCompanies: async () => [company],
      getCompanyStats: async () => new Map(),
      getProfiles: async () => [{ name: 'Ona', surname: 'Owner' }],
    },
    drive,
    integrations,
    secrets,
    providers: { google: acct.provider, dropbox: acct.provider },
    clock: { now: () => new Date('2026-12-02T10:00:00Z') },
    live: { publish: async () => undefined, publishToUser: async () => undefined },
    appUrl: 'https://app.example',
    emailInDomain: '',
    documents: {
      getUpload: async (id: string) => uploads.get(id),
      putUpload: async (u: UploadRecord) => {
        if (uploads.has(u.upload_id)) throw new CommitConflict('exists');
        uploads.set(u.upload_id, u);
      },
      expiredUploads: async () => [],
      releaseUpload: async () => true,
    },
    files: {
      head: async (key: string) => objects.get(key),
      put: async (key: string) => void objects.set(key, { etag: `e-${key}` }),
    },
    log: { info: () => undefined, warn: () => undefined },
  } as unknown as DriveRunDeps;

  async function connect(service: 'google' | 'dropbox' = 'google') {
    const { url } = await switchDrive(deps, caller, { service_type: service, disconnect: false });
    const state = new URL(url!).searchParams.get('state')!;
    expect(states.has(stateHashOf(state))).toBe(true);
    return completeAuthorization(deps, caller, { service_type: service, code: 'code', state });
  }
  const run = () => importFolder(deps, 'c1', 'google');
  /** File names that became uploads, one entry per upload. */
  const taken = () => [...uploads.values()].map((u) => u.original_file_name).sort();
  const status = async () => (await driveStatus(deps, caller)).items.find((i) => i.service_type === 'google')!;
  return { acct, deps, imports, flags, connect, run, taken, status, record: () => imports.get('c1#google') };
}

describe('drive imports: a withdrawn grant', () => {
  it('keeps the folder and its read position; reconnecting resumes there and takes the files of the gap once', async () => {
    const w = world();
    await w.connect();
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'F' });
    w.acct.drop('F', 'a.pdf');
    w.acct.drop('F', 'b.pdf');
    expect((await w.run()).state).toBe('done');
    expect(w.taken()).toEqual(['a.pdf', 'b.pdf']);

    // Two pages: c, d | e, f. The grant is refused while e is downloaded (the second page is half read).
    for (const name of ['c.pdf', 'd.pdf', 'e.pdf', 'f.pdf']) w.acct.drop('F', name);
    w.acct.refuseWhenDownloading('e.pdf');
    const off = await w.run();
    expect(off).toMatchObject({ state: 'off', imported: 2 });
    expect(w.taken()).toEqual(['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf']);
    // Paused, with the reason: not watched by the schedule, the flag off, folder and position kept.
    expect(w.record()).toMatchObject({ folder_id: null, cursor: null, paused: { folder_id: 'F', folder_name: 'Scans', cursor: '4' } });
    expect(w.flags.get('c1#google')).toEqual({ enabled: false, folder: null });
    expect(await w.status()).toMatchObject({ connected: false, paused_folder_name: 'Scans', total_imported: 4, last_error: 'Access to Google Drive was withdrawn: switch the import on to connect again.' });
    expect((await w.run()).state).toBe('no-folder');

    // Files keep arriving while the grant is gone
    w.acct.drop('F', 'gap.pdf');
    await w.connect();
    // Reconnected: the kept folder is watched again from its position, before the admin chooses anything
    expect(w.record()).toMatchObject({ folder_id: 'F', folder_name: 'Scans', cursor: '4', paused: null, total_imported: 4, last_error: null });
    expect(w.flags.get('c1#google')).toEqual({ enabled: true, folder: 'Scans' });
    // … and choosing the same folder again keeps that position
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'F' });
    expect(w.record()).toMatchObject({ folder_id: 'F', cursor: '4' });
    w.acct.drop('F', 'after.pdf');
    expect((await w.run()).state).toBe('done');
    expect(w.taken()).toEqual(['a.pdf', 'after.pdf', 'b.pdf', 'c.pdf', 'd.pdf', 'e.pdf', 'f.pdf', 'gap.pdf']);
    expect(await w.status()).toMatchObject({ connected: true, folder_name: 'Scans', paused_folder_name: null, total_imported: 8, last_error: null });
    // Nothing twice on the next run
    expect(await w.run()).toMatchObject({ state: 'done', imported: 0 });
  });

  it('a refused first page of a run leaves the position where it was', async () => {
    const w = world();
    await w.connect();
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'F' });
    w.acct.drop('F', 'one.pdf');
    w.acct.drop('F', 'two.pdf');
    w.acct.refuseWhenDownloading('two.pdf');
    expect((await w.run()).state).toBe('off');
    expect(w.record()?.paused).toMatchObject({ folder_id: 'F', cursor: '0' });
    await w.connect();
    await w.run();
    expect(w.taken()).toEqual(['one.pdf', 'two.pdf']);
  });

  it('a grant refused when the folders are listed pauses the same way', async () => {
    const w = world();
    await w.connect();
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'F' });
    w.acct.drop('F', 'kept.pdf');
    w.acct.revokeAll();
    const { listDriveFolders } = await import('../../../lambdas/core/drive-import/service');
    await expect(listDriveFolders(w.deps, caller, { service_type: 'google' })).rejects.toMatchObject({ message: 'Connection error!' });
    expect(w.record()).toMatchObject({ folder_id: null, paused: { folder_id: 'F', cursor: '0' } });
    await w.connect();
    await w.run();
    expect(w.taken()).toEqual(['kept.pdf']);
  });

  it('choosing another folder after reconnecting starts that folder fresh', async () => {
    const w = world();
    await w.connect();
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'F' });
    w.acct.drop('F', 'a.pdf');
    w.acct.drop('F', 'notes.txt');
    await w.run();
    w.acct.revokeAll();
    w.acct.drop('F', 'gap.pdf');
    w.acct.drop('G', 'old-in-g.pdf');
    expect((await w.run()).state).toBe('off');
    await w.connect();
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'G' });
    expect(w.record()).toMatchObject({ folder_id: 'G', folder_name: 'Other', paused: null, total_imported: 0, skipped_total: 0, skipped_files: [] });
    w.acct.drop('G', 'new-in-g.pdf');
    await w.run();
    expect(w.taken()).toEqual(['a.pdf', 'new-in-g.pdf']);
    // The folder left behind is not resumed by choosing it later: it starts from then, too
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'F' });
    await w.run();
    expect(w.taken()).toEqual(['a.pdf', 'new-in-g.pdf']);
  });

  it('switching the import off by hand forgets the folder', async () => {
    const w = world();
    await w.connect();
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'F' });
    w.acct.drop('F', 'a.pdf');
    await switchDrive(w.deps, caller, { service_type: 'google', disconnect: true });
    expect(w.record()).toBeUndefined();
    await w.connect();
    expect(w.record()).toMatchObject({ folder_id: null, paused: null, total_imported: 0 });
  });
});

describe('drive imports: a refused cursor', () => {
  it('reads the folder again from a new start cursor, says so, and imports what comes after', async () => {
    const w = world();
    await w.connect();
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'F' });
    w.acct.revokeAll();
    w.acct.drop('F', 'lost.pdf');
    expect((await w.run()).state).toBe('off');
    w.acct.expireCursors();
    await w.connect();
    const first = await w.run();
    expect(first).toMatchObject({ state: 'done', imported: 0 });
    expect((await w.status()).last_error).toBe(
      'Google Drive no longer accepted the place the import had reached in the folder, so it continues with files added from now on. Files added before may be missing from the documents.',
    );
    w.acct.drop('F', 'next.pdf');
    expect(await w.run()).toMatchObject({ state: 'done', imported: 1 });
    expect(w.taken()).toEqual(['next.pdf']);
    expect((await w.status()).last_error).toBeNull();
  });
});

describe('drive imports: skipped files', () => {
  it('counts every skipped file exactly, next to the newest names', async () => {
    const w = world();
    await w.connect();
    await chooseDriveFolder(w.deps, caller, { service_type: 'google', folder_id: 'F' });
    for (let i = 0; i < 25; i += 1) w.acct.drop('F', `photo-${i}.heic`);
    for (let i = 0; i < 5; i += 1) w.acct.drop('F', `notes-${i}.txt`);
    w.acct.drop('F', 'empty.pdf', 0);
    w.acct.drop('F', 'scan.pdf');
    expect(await w.run()).toMatchObject({ state: 'done', imported: 1, skipped: 31 });
    let s = await w.status();
    expect(s.skipped_files).toHaveLength(DRIVE_SKIPPED_KEPT);
    expect(s.skipped_total).toBe(31);
    // Later runs add to it; a page read again after a run failed half way through it does not count twice
    w.acct.drop('F', 'late.heic');
    w.acct.drop('F', 'late.pdf');
    w.acct.failOnceWhenDownloading('late.pdf');
    expect((await w.run()).state).toBe('failed');
    expect((await w.run()).state).toBe('done');
    w.acct.drop('F', 'later.txt');
    await w.run();
    s = await w.status();
    expect(s.skipped_total).toBe(33);
    expect(s.skipped_files.filter((f) => f.name === 'late.heic')).toHaveLength(1);
    expect(s.skipped_files.slice(0, 2).map((f) => f.name)).toEqual(['later.txt', 'late.heic']);
    expect(w.taken()).toEqual(['late.pdf', 'scan.pdf']);
  });
});
