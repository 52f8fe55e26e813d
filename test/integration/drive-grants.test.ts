/**
 * The Google Drive and Dropbox grants end with what they were given for: deleting the company revokes each stored
 * grant at its provider, and removing the member who connected an import switches it off (the grant revoked at the
 * provider and forgotten, the company's flag off) so their folder no longer feeds the company. The import job
 * itself refuses an import whose connecting member is gone. Lowering that member to Basic switches it off the same
 * way (only admins configure integrations), and the job refuses an import whose connector is no longer an admin.
 * Real handlers against the local stand-ins (scripts/local/google-drive-server.ts, dropbox-server.ts), whose grants
 * show whether the revoke reached them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { DRIVE_MSG, type DriveService } from '../../shared/schemas/drive';
import { addMembership, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';
import { textPdf } from '../support/text-pdf';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];
type CompanyView = { company_id: string; google_drive_import: boolean; dropbox_import: boolean; google_selected_import_folder_name: string | null; dropbox_selected_import_folder_name: string | null };
type Status = { items: { service_type: DriveService; connected: boolean; folder_name: string | null }[] };

/** Access and refresh tokens as the stand-ins hand them out. */
const TOKEN = /\b(?:at|rt)-[A-Za-z0-9_-]{16,}/;

describe('Google Drive and Dropbox grants end with the company and with the member who connected them', () => {
  let t: TestStack;
  let PDF: Uint8Array;
  beforeAll(async () => {
    PDF = await textPdf(['Taxi ride', 'Total 12.50 EUR']);
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const oauthOf = (service: DriveService) => (service === 'google' ? t.stack.google.oauth : t.stack.dropbox.oauth);
  const activeIds = (service: DriveService) => new Set(oauthOf(service).activeGrants().map((g) => g.id));

  /** drive/switch, Allow on the stand-in's page, drive/authorize: answers the id of the grant it made. */
  async function connect(api: Api, companyId: string, service: DriveService): Promise<string> {
    const before = activeIds(service);
    const res = await api.get(`/company/service/drive/switch?company_id=${companyId}&service_type=${service}`);
    expect(res.status).toBe(200);
    const back = new URL(oauthOf(service).approveUrl((res.body as { url: string }).url));
    const done = await api.post(`/company/service/drive/authorize?company_id=${companyId}`, {
      service_type: service,
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
    });
    expect(done.status).toBe(200);
    const made = [...activeIds(service)].filter((id) => !before.has(id));
    expect(made).toHaveLength(1);
    return made[0]!;
  }

  async function watch(api: Api, companyId: string, service: DriveService, folderId: string) {
    const res = await api.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: service, folder_id: folderId });
    expect(res.status).toBe(200);
  }

  /** A company whose admin member (not its owner) connected the import of `service` and watches `folderId` in it. */
  async function importOfMember(prefix: string, service: DriveService, addFolder: () => string) {
    const owner = await registeredUser(t.stack, prefix);
    const member = await registeredUser(t.stack, `${prefix}m`);
    const memberId = subOf(member.token);
    await addMembership(memberId, owner.companyId, 'admin');
    const folderId = addFolder();
    const grant = await connect(member.api, owner.companyId, service);
    await watch(member.api, owner.companyId, service, folderId);
    return { owner, memberId, folderId, grant };
  }

  async function fileNames(api: Api, companyId: string): Promise<string[]> {
    const res = await api.get(`/receipts?company_id=${companyId}`);
    expect(res.status).toBe(200);
    return (res.body as { items: { original_file_name: string }[] }).items.map((d) => d.original_file_name).sort();
  }

  async function companyOf(api: Api, companyId: string): Promise<CompanyView | undefined> {
    return ((await api.get('/companies')).body as { items: CompanyView[] }).items.find((c) => c.company_id === companyId);
  }

  async function storedGrant(companyId: string, service: DriveService) {
    const kind = service === 'google' ? 'google_drive_import' : 'dropbox_import';
    return (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.integrationCredentials(companyId, kind) }))).Item;
  }

  /** Everything the handlers log meanwhile (they run in this process). */
  function captureLogs(): () => string {
    const lines: string[] = [];
    const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    vi.spyOn(console, 'log').mockImplementation(keep);
    vi.spyOn(console, 'error').mockImplementation(keep);
    vi.spyOn(console, 'warn').mockImplementation(keep);
    return () => lines.join('\n');
  }

  it('deleting a company revokes its Google Drive and Dropbox grants at the providers; other grants stay', async () => {
    const { api } = await registeredUser(t.stack, 'gdel');
    const created = await api.post('/company', { company_name: 'Revoked UAB', code: '555101' });
    expect(created.status).toBe(201);
    const gone = (created.body as { company_id: string }).company_id;
    const google = await connect(api, gone, 'google');
    const dropbox = await connect(api, gone, 'dropbox');
    await watch(api, gone, 'dropbox', t.stack.dropbox.addFolder('/Deleted company scans'));
    // Another company's grant, which the delete must leave alone.
    const other = await registeredUser(t.stack, 'gkeep');
    const kept = await connect(other.api, other.companyId, 'google');

    const logs = captureLogs();
    const deleted = await api.delete(`/company?company_id=${gone}`);
    expect(deleted.status).toBe(200);
    expect(activeIds('google').has(google), 'the Google grant is revoked at Google').toBe(false);
    expect(activeIds('dropbox').has(dropbox), 'the Dropbox grant is revoked at Dropbox').toBe(false);
    expect(activeIds('google').has(kept)).toBe(true);
    expect(await storedGrant(gone, 'google')).toBeUndefined();
    expect(await storedGrant(gone, 'dropbox')).toBeUndefined();
    expect(logs()).not.toMatch(TOKEN);
  });

  it('a grant the provider refuses to revoke does not stop the delete, and no log line carries a token', async () => {
    const { api } = await registeredUser(t.stack, 'gref');
    const created = await api.post('/company', { company_name: 'Refused UAB', code: '555102' });
    expect(created.status).toBe(201);
    const gone = (created.body as { company_id: string }).company_id;
    await connect(api, gone, 'dropbox');
    const google = await connect(api, gone, 'google');
    // The user removed the app at Dropbox already: its revoke (and refresh) is refused.
    t.stack.dropbox.oauth.revokeAll();
    t.stack.dropbox.oauth.expireAccessTokens();

    const logs = captureLogs();
    const deleted = await api.delete(`/company?company_id=${gone}`);
    expect(deleted.status).toBe(200);
    expect(await companyOf(api, gone)).toBeUndefined();
    expect(activeIds('google').has(google), 'the other provider is still revoked').toBe(false);
    expect(await storedGrant(gone, 'dropbox')).toBeUndefined();
    expect(logs()).toMatch(/revoking the grant failed/);
    expect(logs()).not.toMatch(TOKEN);
  });

  it("removing the member who connected the import switches it off: grant revoked, flag off, their folder's files no longer come", async () => {
    const { owner, memberId, grant } = await importOfMember('gown', 'dropbox', () => t.stack.dropbox.addFolder('/Member scans'));
    t.stack.dropbox.dropFile('/Member scans', 'before.pdf', PDF);
    await t.stack.driveSchedule.tick();
    await t.stack.jobs.idle();
    expect(await fileNames(owner.api, owner.companyId)).toEqual(['before.pdf']);

    const removed = await owner.api.delete(`/company/users/${memberId}?company_id=${owner.companyId}`);
    expect(removed.status).toBe(200);
    expect(activeIds('dropbox').has(grant), "the member's grant is revoked at Dropbox").toBe(false);
    expect(await storedGrant(owner.companyId, 'dropbox')).toBeUndefined();
    expect(await companyOf(owner.api, owner.companyId)).toMatchObject({ dropbox_import: false, dropbox_selected_import_folder_name: null });
    const status = (await owner.api.get(`/company/service/drive/status?company_id=${owner.companyId}`)).body as Status;
    // The admins' Integration screen says why it is off.
    expect(status.items.find((s) => s.service_type === 'dropbox')).toMatchObject({ connected: false, folder_name: null, paused_folder_name: null, last_error: DRIVE_MSG.connectorLeft('dropbox') });

    t.stack.dropbox.dropFile('/Member scans', 'after.pdf', PDF);
    await t.stack.driveSchedule.tick();
    await t.stack.jobs.idle();
    expect(await fileNames(owner.api, owner.companyId)).toEqual(['before.pdf']);
    // The admins can connect again (their own account); the note goes.
    await connect(owner.api, owner.companyId, 'dropbox');
    expect(await companyOf(owner.api, owner.companyId)).toMatchObject({ dropbox_import: true });
    const again = (await owner.api.get(`/company/service/drive/status?company_id=${owner.companyId}`)).body as Status;
    expect(again.items.find((s) => s.service_type === 'dropbox')).toMatchObject({ connected: true, last_error: null });
  });

  it("an import whose connecting member is gone is not run: the job switches it off and revokes the grant", async () => {
    const { owner, memberId, folderId, grant } = await importOfMember('gjob', 'google', () => t.stack.google.addFolder('Left behind'));
    // The membership is gone without the route's switch-off (a removal that stopped half way, or one from before it).
    await ddb().send(new DeleteCommand({ TableName: process.env.TABLE_NAME, Key: keys.membership(memberId, owner.companyId) }));

    t.stack.google.dropFile(folderId, 'after-leaving.pdf', PDF, 'application/pdf');
    await t.stack.driveSchedule.tick();
    await t.stack.jobs.idle();
    expect(await fileNames(owner.api, owner.companyId)).toEqual([]);
    expect(activeIds('google').has(grant)).toBe(false);
    expect(await storedGrant(owner.companyId, 'google')).toBeUndefined();
    expect(await companyOf(owner.api, owner.companyId)).toMatchObject({ google_drive_import: false, google_selected_import_folder_name: null });
    const status = (await owner.api.get(`/company/service/drive/status?company_id=${owner.companyId}`)).body as Status;
    expect(status.items.find((s) => s.service_type === 'google')).toMatchObject({ connected: false, folder_name: null, last_error: DRIVE_MSG.connectorLeft('google') });
  });

  it("lowering the admin who connected the import to Basic switches it off: grant revoked, flag off; the other admins' imports stay", async () => {
    const { owner, memberId, folderId, grant } = await importOfMember('gdem', 'google', () => t.stack.google.addFolder('Demoted scans'));
    // The owner's own Dropbox import: not the lowered member's, it stays on.
    const ownersGrant = await connect(owner.api, owner.companyId, 'dropbox');
    await watch(owner.api, owner.companyId, 'dropbox', t.stack.dropbox.addFolder('/Owner scans'));

    const logs = captureLogs();
    const lowered = await owner.api.put(`/company/users/${memberId}?company_id=${owner.companyId}`, { role: 'basic' });
    expect(lowered.status).toBe(200);
    expect(lowered.body).toMatchObject({ user_id: memberId, role: 'basic' });
    expect(activeIds('google').has(grant), "the lowered member's grant is revoked at Google").toBe(false);
    expect(await storedGrant(owner.companyId, 'google')).toBeUndefined();
    expect(await companyOf(owner.api, owner.companyId)).toMatchObject({ google_drive_import: false, google_selected_import_folder_name: null, dropbox_import: true });
    const status = (await owner.api.get(`/company/service/drive/status?company_id=${owner.companyId}`)).body as Status;
    expect(status.items.find((s) => s.service_type === 'google')).toMatchObject({ connected: false, folder_name: null, last_error: DRIVE_MSG.connectorNotAdmin('google') });
    expect(status.items.find((s) => s.service_type === 'dropbox')).toMatchObject({ connected: true, folder_name: '/Owner scans', last_error: null });
    expect(activeIds('dropbox').has(ownersGrant), "the owner's grant stays").toBe(true);
    expect(logs()).not.toMatch(TOKEN);

    t.stack.google.dropFile(folderId, 'after-lowering.pdf', PDF, 'application/pdf');
    await t.stack.driveSchedule.tick();
    await t.stack.jobs.idle();
    expect(await fileNames(owner.api, owner.companyId)).toEqual([]);
    // Raised to admin again, the import stays off until an admin connects it again.
    expect((await owner.api.put(`/company/users/${memberId}?company_id=${owner.companyId}`, { role: 'admin' })).status).toBe(200);
    expect(await companyOf(owner.api, owner.companyId)).toMatchObject({ google_drive_import: false });
  });

  it('an import whose connecting member is now a Basic user is not run: the job switches it off and revokes the grant', async () => {
    const { owner, memberId, folderId, grant } = await importOfMember('gjbas', 'dropbox', () => t.stack.dropbox.addFolder('/Basic now'));
    // The role is Basic without the route's switch-off (a role change whose switch-off failed, or one from before it).
    await addMembership(memberId, owner.companyId, 'basic');

    t.stack.dropbox.dropFile(folderId, 'after-lowering.pdf', PDF);
    await t.stack.driveSchedule.tick();
    await t.stack.jobs.idle();
    expect(await fileNames(owner.api, owner.companyId)).toEqual([]);
    expect(activeIds('dropbox').has(grant), "the Basic member's grant is revoked at Dropbox").toBe(false);
    expect(await storedGrant(owner.companyId, 'dropbox')).toBeUndefined();
    expect(await companyOf(owner.api, owner.companyId)).toMatchObject({ dropbox_import: false, dropbox_selected_import_folder_name: null });
    const status = (await owner.api.get(`/company/service/drive/status?company_id=${owner.companyId}`)).body as Status;
    expect(status.items.find((s) => s.service_type === 'dropbox')).toMatchObject({ connected: false, folder_name: null, last_error: DRIVE_MSG.connectorNotAdmin('dropbox') });
  });

  it('a Basic member cannot be the connector: drive/switch is refused, and so is completing a connection begun as an admin', async () => {
    const owner = await registeredUser(t.stack, 'gbas');
    const member = await registeredUser(t.stack, 'gbasm');
    const memberId = subOf(member.token);
    await addMembership(memberId, owner.companyId, 'basic');
    const refused = await member.api.get(`/company/service/drive/switch?company_id=${owner.companyId}&service_type=google`);
    expect(refused.status).toBe(403);

    // Begun as an admin, lowered to Basic before the provider sent them back.
    await addMembership(memberId, owner.companyId, 'admin');
    const before = activeIds('google');
    const begun = await member.api.get(`/company/service/drive/switch?company_id=${owner.companyId}&service_type=google`);
    expect(begun.status).toBe(200);
    const back = new URL(oauthOf('google').approveUrl((begun.body as { url: string }).url));
    expect((await owner.api.put(`/company/users/${memberId}?company_id=${owner.companyId}`, { role: 'basic' })).status).toBe(200);
    const done = await member.api.post(`/company/service/drive/authorize?company_id=${owner.companyId}`, {
      service_type: 'google',
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
    });
    expect(done.status).toBe(403);
    expect([...activeIds('google')].filter((id) => !before.has(id)), 'no grant was made at Google').toEqual([]);
    expect(await storedGrant(owner.companyId, 'google')).toBeUndefined();
    expect(await companyOf(owner.api, owner.companyId)).toMatchObject({ google_drive_import: false });
  });
});
