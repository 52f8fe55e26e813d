/**
 * Google Drive and Dropbox imports through the real local path: drive/switch → the stand-in's authorisation page
 * (approved as a user would) → drive/authorize with the code and state → folder list and choice → files dropped
 * into the stand-in's folder → the schedule's job (run by hand, twice) → uploads → processing job → documents.
 * The providers' official SDKs talk to the stand-ins (scripts/local/google-drive-server.ts, dropbox-server.ts).
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import type { DriveService } from '../../shared/schemas/drive';
import { addMembership, apiClient, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';

async function textPdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 14, font }));
  return Buffer.from(await doc.save());
}

type Api = ReturnType<typeof apiClient>;
type Summary = { receipt_id: string; status: string; original_file_name: string; user_id: string };
type CompanyView = { google_drive_import: boolean; dropbox_import: boolean; google_selected_import_folder_name: string | null; dropbox_selected_import_folder_name: string | null };
type Status = {
  items: { service_type: DriveService; connected: boolean; folder_name: string | null; paused_folder_name?: string | null; last_run_at: string | null; last_imported: number; total_imported: number; last_error: string | null }[];
};

describe('Google Drive and Dropbox imports', () => {
  let t: TestStack;
  let PDF_A: Buffer;
  let PDF_B: Buffer;
  beforeAll(async () => {
    PDF_A = await textPdf(['Taxi ride', 'Total 12.50 EUR']);
    PDF_B = await textPdf(['Parking', 'Paid 4.00 EUR']);
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const standIn = (service: DriveService) => (service === 'google' ? t.stack.google.oauth : t.stack.dropbox.oauth);

  /** drive/switch, the user's Allow on the stand-in's page, and the browser's return: code and state. */
  async function authorise(api: Api, companyId: string, service: DriveService) {
    const res = await api.get(`/company/service/drive/switch?company_id=${companyId}&service_type=${service}`);
    expect(res.status).toBe(200);
    const url = (res.body as { url: string }).url;
    // The authorisation page itself is served and names the stand-in.
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Allow');
    const back = new URL(standIn(service).approveUrl(url));
    expect(back.pathname).toBe(`/integration/${service}/authcallback`);
    return { url, code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
  }

  async function connect(api: Api, companyId: string, service: DriveService) {
    const { code, state } = await authorise(api, companyId, service);
    const res = await api.post(`/company/service/drive/authorize?company_id=${companyId}`, { service_type: service, code, state });
    expect(res.status).toBe(200);
    return res.body as CompanyView;
  }

  async function settle() {
    await t.stack.jobs.idle();
  }

  async function documents(api: Api, companyId: string, status?: string): Promise<Summary[]> {
    const res = await api.get(`/receipts?company_id=${companyId}${status ? `&receipt_status=${status}` : ''}`);
    expect(res.status).toBe(200);
    return (res.body as { items: Summary[] }).items;
  }

  it('Dropbox: connect, pick a folder, two new files, the schedule twice → exactly two documents in To Review', async () => {
    const { api, companyId, token } = await registeredUser(t.stack, 'dbx');
    const folderId = t.stack.dropbox.addFolder('/Scans');
    t.stack.dropbox.addFolder('/Scans/Old');
    t.stack.dropbox.dropFile('/Scans', 'already-there.pdf', PDF_A);

    const { url } = await authorise(api, companyId, 'dropbox');
    const auth = new URL(url);
    // PKCE S256, offline access (a refresh token), the state; the SDK's own authorisation URL, sent to the stand-in.
    expect(auth.pathname).toBe('/_dropbox/www/oauth2/authorize');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('token_access_type')).toBe('offline');

    const company = await connect(api, companyId, 'dropbox');
    expect(company).toMatchObject({ dropbox_import: true, dropbox_selected_import_folder_name: null });

    const folders = await api.get(`/company/service/drive/folders?company_id=${companyId}&service_type=dropbox`);
    expect(folders.status).toBe(200);
    const page = folders.body as { items: { id: string; name: string }[]; next: string | null };
    expect(page.items).toEqual(expect.arrayContaining([{ id: folderId, name: '/Scans' }]));

    const chosen = await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'dropbox', folder_id: folderId, folder_name: 'ignored' });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ dropbox_import: true, dropbox_selected_import_folder_name: '/Scans' });

    t.stack.dropbox.dropFile('/Scans', 'taxi.pdf', PDF_A);
    t.stack.dropbox.dropFile('/Scans', 'parking.pdf', PDF_B);
    t.stack.dropbox.dropFile('/Scans', 'notes.txt', Buffer.from('not a document'));
    t.stack.dropbox.dropFile('/Scans/Old', 'elsewhere.pdf', PDF_B);

    await t.stack.driveSchedule.tick();
    await t.stack.driveSchedule.tick();
    await settle();

    const docs = await documents(api, companyId);
    expect(docs.map((d) => d.original_file_name).sort()).toEqual(['parking.pdf', 'taxi.pdf']);
    const review = await documents(api, companyId, 'review');
    expect(review).toHaveLength(2);
    for (const d of review) expect(d.user_id).toBe(subOf(token));

    const status = (await api.get(`/company/service/drive/status?company_id=${companyId}`)).body as Status;
    expect(status.items.find((s) => s.service_type === 'dropbox')).toMatchObject({ connected: true, folder_name: '/Scans', last_imported: 0, total_imported: 2, last_error: null });
    // The file the upload rules do not take is named with why, and stays named after runs that met nothing new
    const skipped = (s: Status) => (s.items.find((i) => i.service_type === 'dropbox') as unknown as { skipped_files: Array<{ name: string; reason: string }> }).skipped_files;
    expect(skipped(status)).toEqual([{ name: 'notes.txt', reason: 'This file type is not allowed', at: expect.any(String) }]);

    // A third run after a new file: one more document, nothing twice.
    t.stack.dropbox.dropFile('/Scans', 'hotel.pdf', PDF_B);
    t.stack.dropbox.dropFile('/Scans', 'photo.heic', Buffer.from('heic'));
    await t.stack.driveSchedule.tick();
    await settle();
    expect((await documents(api, companyId)).map((d) => d.original_file_name).sort()).toEqual(['hotel.pdf', 'parking.pdf', 'taxi.pdf']);
    const later = (await api.get(`/company/service/drive/status?company_id=${companyId}`)).body as Status;
    expect(skipped(later).map((f) => `${f.name}: ${f.reason}`)).toEqual(['photo.heic: This file type is not allowed', 'notes.txt: This file type is not allowed']);

    // The same folder chosen again (OK in Edit Folder) keeps its place: a file added before it is still imported
    t.stack.dropbox.dropFile('/Scans', 'toll.pdf', PDF_A);
    expect((await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'dropbox', folder_id: folderId })).status).toBe(200);
    await t.stack.driveSchedule.tick();
    await settle();
    expect((await documents(api, companyId)).map((d) => d.original_file_name).sort()).toEqual(['hotel.pdf', 'parking.pdf', 'taxi.pdf', 'toll.pdf']);
  });

  it('Google Drive: connect, pick a folder, two new files, the schedule twice → exactly two documents in To Review; tokens renewed', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'gdr');
    const folderId = t.stack.google.addFolder('Receipts scans');
    const other = t.stack.google.addFolder('Holiday photos');

    const { url } = await authorise(api, companyId, 'google');
    const auth = new URL(url);
    expect(`${auth.origin}${auth.pathname}`).toBe(`${t.stack.googleUrl}/o/oauth2/v2/auth`);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('access_type')).toBe('offline');
    expect(auth.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/drive.readonly');

    expect(await connect(api, companyId, 'google')).toMatchObject({ google_drive_import: true });
    const listed = (await api.get(`/company/service/drive/folders?company_id=${companyId}&service_type=google`)).body as { items: { id: string; name: string }[] };
    expect(listed.items).toEqual(expect.arrayContaining([{ id: folderId, name: 'Receipts scans' }, { id: other, name: 'Holiday photos' }]));
    const chosen = await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'google', folder_id: folderId });
    expect(chosen.body).toMatchObject({ google_drive_import: true, google_selected_import_folder_name: 'Receipts scans' });

    t.stack.google.dropFile(folderId, 'fuel.pdf', PDF_A, 'application/pdf');
    t.stack.google.dropFile(folderId, 'lunch.pdf', PDF_B, 'application/pdf');
    t.stack.google.dropFile(other, 'beach.pdf', PDF_B, 'application/pdf');
    // The access token runs out before the run: the SDK refreshes it, and the new one is kept.
    const before = (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.integrationCredentials(companyId, 'google_drive_import') }))).Item;
    const refreshes = t.stack.google.oauth.refreshes;
    t.stack.google.oauth.expireAccessTokens();

    await Promise.all([t.stack.driveSchedule.tick(), t.stack.driveSchedule.tick()]);
    await t.stack.driveSchedule.tick();
    await settle();

    const docs = await documents(api, companyId);
    expect(docs.map((d) => d.original_file_name).sort()).toEqual(['fuel.pdf', 'lunch.pdf']);
    expect(await documents(api, companyId, 'review')).toHaveLength(2);
    expect(t.stack.google.oauth.refreshes).toBeGreaterThan(refreshes);
    const after = (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.integrationCredentials(companyId, 'google_drive_import') }))).Item;
    expect(after!.sealed).not.toEqual(before!.sealed);
    // Sealed: no token in the stored item.
    expect(JSON.stringify(after)).not.toMatch(/at-|rt-/);

    // A renamed file keeps its revision: no second document. New content is a new revision: a new document.
    const fuel = t.stack.google.dropFile(folderId, 'fuel-2.pdf', PDF_A, 'application/pdf');
    await t.stack.driveSchedule.tick();
    t.stack.google.renameFile(fuel, 'fuel-2-renamed.pdf');
    await t.stack.driveSchedule.tick();
    await settle();
    expect((await documents(api, companyId)).map((d) => d.original_file_name).sort()).toEqual(['fuel-2.pdf', 'fuel.pdf', 'lunch.pdf']);

    // A document deleted by the user does not come back when its file is renamed or moved in the folder
    const fuel2 = (await documents(api, companyId)).find((d) => d.original_file_name === 'fuel-2.pdf')!;
    expect((await api.delete(`/receipt/${fuel2.receipt_id}?company_id=${companyId}`)).status).toBeLessThan(300);
    t.stack.google.renameFile(fuel, 'fuel-2-again.pdf');
    await t.stack.driveSchedule.tick();
    await settle();
    expect((await documents(api, companyId)).map((d) => d.original_file_name).sort()).toEqual(['fuel.pdf', 'lunch.pdf']);

    // A file Drive will not hand over (flagged as abusive) is skipped; the files after it still arrive
    const flagged = t.stack.google.dropFile(folderId, 'flagged.pdf', PDF_B, 'application/pdf');
    t.stack.google.refuseDownload(flagged);
    t.stack.google.dropFile(folderId, 'parking.pdf', await textPdf(['Parking', 'Paid 6.00 EUR']), 'application/pdf');
    await t.stack.driveSchedule.tick();
    await settle();
    expect((await documents(api, companyId)).map((d) => d.original_file_name).sort()).toEqual(['fuel.pdf', 'lunch.pdf', 'parking.pdf']);
    const status = (await api.get(`/company/service/drive/status?company_id=${companyId}&service_type=google`)).body as { items: { service_type: string; last_error: string | null }[] };
    expect(status.items.find((i) => i.service_type === 'google')).toMatchObject({ last_error: null });
  });

  it('a run that crashed after storing a file but before moving the cursor creates nothing twice', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'crash');
    const folderId = t.stack.dropbox.addFolder('/Crash');
    await connect(api, companyId, 'dropbox');
    await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'dropbox', folder_id: folderId });
    t.stack.dropbox.dropFile('/Crash', 'one.pdf', PDF_A);
    t.stack.dropbox.dropFile('/Crash', 'two.pdf', PDF_B);
    const cursorBefore = (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.driveImport(companyId, 'dropbox') }))).Item!.cursor;
    await t.stack.driveSchedule.tick();
    await settle();
    // Put the cursor back, as if the run had died after the files were stored: the next run reads the same changes.
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    await ddb().send(
      new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: keys.driveImport(companyId, 'dropbox'), UpdateExpression: 'SET #c = :c', ExpressionAttributeNames: { '#c': 'cursor' }, ExpressionAttributeValues: { ':c': cursorBefore } }),
    );
    await t.stack.driveSchedule.tick();
    await settle();
    expect((await documents(api, companyId)).map((d) => d.original_file_name).sort()).toEqual(['one.pdf', 'two.pdf']);
  });

  it('a revoked grant switches the import off with a message', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'rvk');
    const folderId = t.stack.dropbox.addFolder('/Revoked');
    await connect(api, companyId, 'dropbox');
    await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'dropbox', folder_id: folderId });
    t.stack.dropbox.oauth.revokeAll();
    t.stack.dropbox.dropFile('/Revoked', 'late.pdf', PDF_A);
    await t.stack.driveSchedule.tick();
    const companies = (await api.get('/companies')).body as { items: (CompanyView & { company_id: string })[] };
    expect(companies.items.find((c) => c.company_id === companyId)).toMatchObject({ dropbox_import: false, dropbox_selected_import_folder_name: null });
    const status = (await api.get(`/company/service/drive/status?company_id=${companyId}`)).body as Status;
    expect(status.items.find((s) => s.service_type === 'dropbox')).toMatchObject({
      connected: false,
      last_error: 'Access to Dropbox was withdrawn: switch the import on to connect again.',
    });
    // The folder list answers 'Connection error!' now.
    const list = await api.get(`/company/service/drive/folders?company_id=${companyId}&service_type=dropbox`);
    expect(list.status).toBe(422);
    expect(await documents(api, companyId)).toHaveLength(0);
  });

  for (const service of ['google', 'dropbox'] as const) {
    it(`${service}: a withdrawn grant pauses the import; reconnecting the same folder imports every file once, those dropped meanwhile included`, async () => {
      const { api, companyId } = await registeredUser(t.stack, `gap${service.slice(0, 3)}`);
      const name = service === 'google' ? 'Gap scans' : '/Gap scans';
      const folderId = service === 'google' ? t.stack.google.addFolder(name) : t.stack.dropbox.addFolder(name);
      const drop = (file: string, bytes: Buffer) =>
        service === 'google' ? t.stack.google.dropFile(folderId, file, bytes, 'application/pdf') : t.stack.dropbox.dropFile(name, file, bytes);
      const status = async () => ((await api.get(`/company/service/drive/status?company_id=${companyId}`)).body as Status).items.find((s) => s.service_type === service)!;
      const company = async () => ((await api.get('/companies')).body as { items: (CompanyView & { company_id: string })[] }).items.find((c) => c.company_id === companyId)!;
      const flag = service === 'google' ? 'google_drive_import' : 'dropbox_import';
      const folderField = service === 'google' ? 'google_selected_import_folder_name' : 'dropbox_selected_import_folder_name';

      await connect(api, companyId, service);
      expect((await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: service, folder_id: folderId })).status).toBe(200);
      drop('before.pdf', await textPdf(['Before', 'Total 1.00 EUR']));
      await t.stack.driveSchedule.tick();

      // The user withdraws the app's access; receipts keep arriving in the folder
      standIn(service).revokeAll();
      drop('gap-1.pdf', await textPdf(['Gap one', 'Total 2.00 EUR']));
      await t.stack.driveSchedule.tick();
      drop('gap-2.pdf', await textPdf(['Gap two', 'Total 3.00 EUR']));
      await t.stack.driveSchedule.tick();
      expect(await company()).toMatchObject({ [flag]: false, [folderField]: null });
      expect(await status()).toMatchObject({
        connected: false,
        paused_folder_name: name,
        total_imported: 1,
        last_error: `Access to ${service === 'google' ? 'Google Drive' : 'Dropbox'} was withdrawn: switch the import on to connect again.`,
      });

      // The admin switches the import on again: the folder is watched again from where it stopped
      expect(await connect(api, companyId, service)).toMatchObject({ [flag]: true, [folderField]: name });
      // … and picks the same folder on the folder screen
      expect((await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: service, folder_id: folderId })).status).toBe(200);
      drop('after.pdf', await textPdf(['After', 'Total 4.00 EUR']));
      await t.stack.driveSchedule.tick();
      await t.stack.driveSchedule.tick();
      await settle();
      expect((await documents(api, companyId)).map((d) => d.original_file_name).sort()).toEqual(['after.pdf', 'before.pdf', 'gap-1.pdf', 'gap-2.pdf']);
      expect(await status()).toMatchObject({ connected: true, folder_name: name, paused_folder_name: null, total_imported: 4, last_error: null });
    });
  }

  it('Dropbox: a cursor Dropbox answers with reset is replaced by a new one, and the screen says so', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'rst');
    const folderId = t.stack.dropbox.addFolder('/Reset');
    await connect(api, companyId, 'dropbox');
    await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'dropbox', folder_id: folderId });
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    await ddb().send(
      new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: keys.driveImport(companyId, 'dropbox'), UpdateExpression: 'SET #c = :c', ExpressionAttributeNames: { '#c': 'cursor' }, ExpressionAttributeValues: { ':c': 'no-longer-valid' } }),
    );
    await t.stack.driveSchedule.tick();
    const status = async () => ((await api.get(`/company/service/drive/status?company_id=${companyId}`)).body as Status).items.find((s) => s.service_type === 'dropbox')!;
    expect((await status()).last_error).toBe(
      'Dropbox no longer accepted the place the import had reached in the folder, so it continues with files added from now on. Files added before may be missing from the documents.',
    );
    t.stack.dropbox.dropFile('/Reset', 'fresh.pdf', PDF_A);
    await t.stack.driveSchedule.tick();
    await settle();
    expect((await documents(api, companyId)).map((d) => d.original_file_name)).toEqual(['fresh.pdf']);
    expect((await status()).last_error).toBeNull();
  });

  it('the status counts every skipped file, beyond the names it keeps', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'skp');
    const folderId = t.stack.dropbox.addFolder('/Many skipped');
    await connect(api, companyId, 'dropbox');
    await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'dropbox', folder_id: folderId });
    for (let i = 0; i < 24; i += 1) t.stack.dropbox.dropFile('/Many skipped', `photo-${i}.heic`, Buffer.from(`heic ${i}`));
    for (let i = 0; i < 6; i += 1) t.stack.dropbox.dropFile('/Many skipped', `notes-${i}.txt`, Buffer.from(`text ${i}`));
    await t.stack.driveSchedule.tick();
    t.stack.dropbox.dropFile('/Many skipped', 'empty.pdf', Buffer.alloc(0));
    await t.stack.driveSchedule.tick();
    const status = ((await api.get(`/company/service/drive/status?company_id=${companyId}`)).body as { items: { service_type: string; skipped_total: number; skipped_files: unknown[] }[] }).items.find(
      (s) => s.service_type === 'dropbox',
    )!;
    expect(status.skipped_files).toHaveLength(20);
    expect(status.skipped_total).toBe(31);
  });

  it('switching off revokes the grant at the provider and clears folder and flag', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'off');
    const folderId = t.stack.google.addFolder('Switch off');
    await connect(api, companyId, 'google');
    await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'google', folder_id: folderId });
    const grants = t.stack.google.oauth.activeGrants().length;
    const res = await api.get(`/company/service/drive/switch?company_id=${companyId}&service_type=google&disconnect=true`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: null, company: { google_drive_import: false, google_selected_import_folder_name: null } });
    expect(t.stack.google.oauth.activeGrants().length).toBe(grants - 1);
    const stored = await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.integrationCredentials(companyId, 'google_drive_import') }));
    expect(stored.Item).toBeUndefined();
    t.stack.google.dropFile(folderId, 'after-off.pdf', PDF_A, 'application/pdf');
    await t.stack.driveSchedule.tick();
    await settle();
    expect(await documents(api, companyId)).toHaveLength(0);
  });

  it('a forged, replayed, expired-by-use or foreign state is refused', async () => {
    const a = await registeredUser(t.stack, 'sta');
    const b = await registeredUser(t.stack, 'stb');
    // Forged state: never handed out.
    const forged = await a.api.post(`/company/service/drive/authorize?company_id=${a.companyId}`, { service_type: 'dropbox', code: 'code-x', state: 'forged-state-value' });
    expect(forged.status).toBe(422);
    expect(forged.body).toMatchObject({ message: 'Connection error!' });

    // Replayed: the first use succeeds, the second is refused.
    const first = await authorise(a.api, a.companyId, 'dropbox');
    expect((await a.api.post(`/company/service/drive/authorize?company_id=${a.companyId}`, { service_type: 'dropbox', code: first.code, state: first.state })).status).toBe(200);
    const replay = await a.api.post(`/company/service/drive/authorize?company_id=${a.companyId}`, { service_type: 'dropbox', code: first.code, state: first.state });
    expect(replay.status).toBe(422);

    // Another user's state (B's authorisation handed to A): refused, and spent.
    const ofB = await authorise(b.api, b.companyId, 'google');
    const stolen = await a.api.post(`/company/service/drive/authorize?company_id=${a.companyId}`, { service_type: 'google', code: ofB.code, state: ofB.state });
    expect(stolen.status).toBe(422);
    expect((await b.api.post(`/company/service/drive/authorize?company_id=${b.companyId}`, { service_type: 'google', code: ofB.code, state: ofB.state })).status).toBe(422);

    // The state of another service.
    const other = await authorise(a.api, a.companyId, 'google');
    expect((await a.api.post(`/company/service/drive/authorize?company_id=${a.companyId}`, { service_type: 'dropbox', code: other.code, state: other.state })).status).toBe(422);

    // A wrong code with a good state: the provider refuses it → 'Connection error!'.
    const good = await authorise(a.api, a.companyId, 'google');
    const badCode = await a.api.post(`/company/service/drive/authorize?company_id=${a.companyId}`, { service_type: 'google', code: 'code-not-issued', state: good.state });
    expect(badCode.status).toBe(422);
    expect(badCode.body).toMatchObject({ message: 'Connection error!' });
  });

  it('only a company admin of that company switches, lists folders, picks one or reads the status; tokens never leave', async () => {
    const owner = await registeredUser(t.stack, 'own');
    const outsider = await registeredUser(t.stack, 'out');
    const basic = await registeredUser(t.stack, 'bas');
    await addMembership(subOf(basic.token), owner.companyId, 'basic');
    const folderId = t.stack.dropbox.addFolder('/Isolation');
    const company = await connect(owner.api, owner.companyId, 'dropbox');
    expect(JSON.stringify(company)).not.toMatch(/at-|rt-|refresh|access_token/);
    const status = await owner.api.get(`/company/service/drive/status?company_id=${owner.companyId}`);
    expect(JSON.stringify(status.body)).not.toMatch(/at-|rt-|refresh|access_token/);

    const calls: [string, string, unknown?][] = [
      ['GET', `/company/service/drive/switch?company_id=${owner.companyId}&service_type=dropbox`],
      ['GET', `/company/service/drive/switch?company_id=${owner.companyId}&service_type=dropbox&disconnect=true`],
      ['GET', `/company/service/drive/folders?company_id=${owner.companyId}&service_type=dropbox`],
      ['POST', `/company/service/drive/folders?company_id=${owner.companyId}`, { service_type: 'dropbox', folder_id: folderId }],
      ['POST', `/company/service/drive/authorize?company_id=${owner.companyId}`, { service_type: 'dropbox', code: 'c', state: 's' }],
      ['GET', `/company/service/drive/status?company_id=${owner.companyId}`],
    ];
    const anonymous = apiClient(t.stack.apiUrl);
    for (const [method, path, body] of calls) {
      const as = (api: Api) => (method === 'GET' ? api.get(path) : api.post(path, body));
      expect((await as(outsider.api)).status, `${method} ${path} by another company's member`).toBe(403);
      expect((await as(basic.api)).status, `${method} ${path} by a basic member`).toBe(403);
      expect((await as(anonymous)).status, `${method} ${path} anonymous`).toBe(401);
    }
    // The outsider's own company does not see the owner's import.
    const theirs = (await outsider.api.get(`/company/service/drive/status?company_id=${outsider.companyId}`)).body as Status;
    expect(theirs.items.every((s) => !s.connected && s.folder_name === null)).toBe(true);
    // Still on for the owner.
    const companies = (await owner.api.get('/companies')).body as { items: (CompanyView & { company_id: string })[] };
    expect(companies.items.find((c) => c.company_id === owner.companyId)).toMatchObject({ dropbox_import: true });
  });

  it('bad input is a 4xx', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'bad');
    expect((await api.get(`/company/service/drive/switch?company_id=${companyId}&service_type=onedrive`)).status).toBe(422);
    expect((await api.get(`/company/service/drive/folders?company_id=${companyId}&service_type=dropbox`)).status).toBe(422);
    expect((await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'dropbox', folder_id: 'x'.repeat(600) })).status).toBe(422);
    expect((await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'dropbox', folder_id: 'id:nothing' })).status).toBe(422);
    expect((await api.post(`/company/service/drive/authorize?company_id=${companyId}`, { service_type: 'dropbox', code: '', state: 's' })).status).toBe(422);
    await connect(api, companyId, 'dropbox');
    expect((await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'dropbox', folder_id: 'id:nothing' })).status).toBe(404);
  });
});
