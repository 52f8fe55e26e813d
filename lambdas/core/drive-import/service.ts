/**
 * Google Drive and Dropbox imports (product.md "Integration screens", "Integrations" transitions; rules.md
 * drive/switch, drive/folders): connecting through OAuth 2, the folder choice, switching off.
 *
 * - `drive/switch` hands out the provider's authorisation URL with a `state` of 32 random bytes: only its SHA-256
 *   is stored, with the company, the user, the service, the PKCE verifier (sealed) and an expiry of 10 minutes
 *   (TTL). The callback takes the state with a conditional delete, so a forged, expired, replayed or foreign
 *   state (another user, company or service) is refused with 'Connection error!'.
 * - The grant (access and refresh token) is sealed in the credentials store with the company and kind as
 *   context, as export credentials are; no answer and no log line carries it.
 * - Switching off revokes the grant at the provider (best effort), deletes it, and clears the folder and flag. So
 *   does removing the member who connected the import, or lowering them to Basic; deleting the company revokes
 *   every grant it holds.
 * - A grant the provider refuses (revoked, expired, refresh refused) pauses the import instead: the grant and the
 *   flag are cleared, the folder and its read position are kept (`paused`) with the reason for the Integration
 *   screen. Connecting again watches that folder again from that position, so files added meanwhile still come,
 *   once; choosing another folder starts it fresh.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError, notFound } from '../../../shared/errors';
import type { Company } from '../../../shared/schemas/company';
import {
  DRIVE_FLAG,
  DRIVE_MSG,
  type DriveAuthorizeBody,
  type DriveFolderBody,
  type DriveFolderPage,
  type DriveImportStatus,
  type DriveService,
} from '../../../shared/schemas/drive';
import { monthOf, toCompanyView, type CompanyGrants } from '../accounts/companies';
import type { IntegrationStore, SecretBox } from '../integrations/ports';
import { publishCompanyChange } from '../live/company-event';
import type { AccountsStore, Clock, LiveEvents } from '../ports';
import { DriveAuthError, type DriveFolder, type DriveImportRecord, type DrivePausedFolder, type DriveProviders, type DriveSession, type DriveStore, type DriveTokens } from './ports';

export const STATE_SECONDS = 10 * 60;

export interface DriveDeps {
  store: AccountsStore;
  drive: DriveStore;
  integrations: IntegrationStore;
  secrets: SecretBox;
  providers: DriveProviders;
  clock: Clock;
  live: LiveEvents;
  /** The web app's origin: the provider sends the browser back to <appUrl>/integration/<service>/authcallback. */
  appUrl: string;
  /** The deployed Email-in domain the company's address is shown at (EMAIL_IN_DOMAIN; empty: the stored one). */
  emailInDomain: string;
  log?: { warn(msg: string, data?: Record<string, unknown>): void; info?(msg: string, data?: Record<string, unknown>): void };
}

export interface DriveCaller {
  userId: string;
  companyId: string;
}

export const redirectUriOf = (appUrl: string, service: DriveService) => `${appUrl.replace(/\/+$/, '')}/integration/${service}/authcallback`;
export const stateHashOf = (state: string) => createHash('sha256').update(state).digest('hex');
const tokenContext = (companyId: string, service: DriveService) => ({ company_id: companyId, integration: DRIVE_FLAG[service] });
const stateContext = (stateHash: string) => ({ oauth_state: stateHash });

const connectionError = (reason: string, field = 'state') =>
  new AppError('ValidationFailed', DRIVE_MSG.connectionError, [{ path: [field], message: DRIVE_MSG.connectionError, reason }]);

async function companyView(deps: Pick<DriveDeps, 'store' | 'clock' | 'emailInDomain'>, caller: DriveCaller): Promise<Company> {
  const [membership, [record], stats] = await Promise.all([
    deps.store.getMembership(caller.userId, caller.companyId),
    deps.store.getCompanies([caller.companyId]),
    deps.store.getCompanyStats([caller.companyId], monthOf(deps.clock.now())),
  ]);
  if (!membership || !record) throw notFound('Company not found');
  return toCompanyView(record, membership.role, stats.get(caller.companyId), deps.emailInDomain);
}

async function publishCompany(deps: DriveDeps, caller: DriveCaller): Promise<Company> {
  const view = await companyView(deps, caller);
  // The answer is the caller's view (their role); the event goes to every member, without it.
  await publishCompanyChange(deps.live, view);
  return view;
}

/** The stored grant, opened; undefined when the service is not connected. */
export async function openTokens(deps: Pick<DriveDeps, 'integrations' | 'secrets'>, companyId: string, service: DriveService): Promise<DriveTokens | undefined> {
  const stored = await deps.integrations.getCredentials(companyId, DRIVE_FLAG[service]);
  if (!stored) return undefined;
  return JSON.parse(await deps.secrets.open(stored.sealed, tokenContext(companyId, service))) as DriveTokens;
}

export async function saveTokens(deps: Pick<DriveDeps, 'integrations' | 'secrets' | 'clock'>, companyId: string, service: DriveService, tokens: DriveTokens) {
  const sealed = await deps.secrets.seal(JSON.stringify(tokens), tokenContext(companyId, service));
  await deps.integrations.putCredentials({ company_id: companyId, type: DRIVE_FLAG[service], sealed, updated_at: deps.clock.now().toISOString() });
}

/** Keeps tokens the session renewed (a refreshed access token, or a rotated refresh token). */
export async function keepRenewedTokens(deps: Pick<DriveDeps, 'integrations' | 'secrets' | 'clock'>, companyId: string, service: DriveService, before: DriveTokens, session: DriveSession) {
  const now = session.tokens();
  if (now.access_token !== before.access_token || now.refresh_token !== before.refresh_token) await saveTokens(deps, companyId, service, now);
}

/** The folder an import watches or was paused on, with its position; undefined when there is none. */
export function keptFolderOf(record: DriveImportRecord | undefined, since: string): DrivePausedFolder | undefined {
  if (!record) return undefined;
  if (record.folder_id && record.cursor) return { folder_id: record.folder_id, folder_name: record.folder_name ?? '', cursor: record.cursor, since };
  return record.paused ?? undefined;
}

/** How long the product waits for a provider to confirm a revoke before it goes on without it. */
export const REVOKE_TIMEOUT_MS = 5_000;

/** An error's message for the log, without the grant's tokens (a provider's error may repeat the request). */
export function messageWithoutTokens(error: unknown, tokens: DriveTokens): string {
  let message = error instanceof Error ? error.message : String(error);
  for (const token of [tokens.access_token, tokens.refresh_token]) if (token) message = message.split(token).join('[token]');
  return message.replace(/(token=)[^&\s"']+/gi, '$1[token]').replace(/(Bearer\s+)\S+/gi, '$1[token]').slice(0, 300);
}

/**
 * Revokes one grant at its provider (Google: the revoke endpoint with the refresh token, else the access token;
 * Dropbox: auth/token/revoke with the access token, which ends its refresh token too). Best effort: a refusal, a
 * failure or no answer within REVOKE_TIMEOUT_MS is logged without any token and the caller goes on. True when the
 * provider confirmed it.
 */
export async function revokeGrant(deps: Pick<DriveDeps, 'providers' | 'log'>, companyId: string, service: DriveService, tokens: DriveTokens): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      deps.providers[service].session(tokens).revoke(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${REVOKE_TIMEOUT_MS} ms`)), REVOKE_TIMEOUT_MS);
      }),
    ]);
    return true;
  } catch (error) {
    deps.log?.warn('revoking the grant failed', { company_id: companyId, service, error: messageWithoutTokens(error, tokens) });
    return false;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** A company's stored grant of one service, opened (company deletion reads them before they are deleted). */
export interface StoredGrant {
  service: DriveService;
  tokens: DriveTokens;
}

/** The company's stored Google Drive and Dropbox grants; one that cannot be opened is logged and left out. */
export async function storedGrantsOf(deps: Pick<DriveDeps, 'integrations' | 'secrets' | 'log'>, companyId: string): Promise<StoredGrant[]> {
  const grants: StoredGrant[] = [];
  for (const service of ['google', 'dropbox'] as const) {
    try {
      const tokens = await openTokens(deps, companyId, service);
      if (tokens) grants.push({ service, tokens });
    } catch (error) {
      deps.log?.warn('the stored grant could not be opened to revoke it', { company_id: companyId, service, error: error instanceof Error ? error.name : 'error' });
    }
  }
  return grants;
}

/** Revokes grants read by `storedGrantsOf` at their providers, at the same time; never fails. */
export async function revokeGrants(deps: Pick<DriveDeps, 'providers' | 'log'>, companyId: string, grants: StoredGrant[]): Promise<void> {
  await Promise.all(grants.map((g) => revokeGrant(deps, companyId, g.service, g.tokens)));
}

/** Company deletion (DELETE /company): the grants are read before the delete and revoked at the providers after it. */
export function grantsOfDeletedCompany(deps: Pick<DriveDeps, 'integrations' | 'secrets' | 'providers' | 'log'>): CompanyGrants {
  return {
    async read(companyId) {
      const grants = await storedGrantsOf(deps, companyId);
      return () => revokeGrants(deps, companyId, grants);
    },
  };
}

/**
 * How an import ends besides an admin's switch-off (nothing kept): `paused` by a grant the provider refused (the
 * folder and its position kept, with the message), or ended with a `note` for the Integration screen (its connector
 * left or is no longer an admin: nothing kept but the note, until an admin connects again).
 */
export type ImportEnd = { paused: string } | { note: string };

/**
 * Switches the import off: the grant is revoked at the provider (a failure there does not keep it on), the
 * stored grant, the import record, the folder and the flag are cleared.
 * Paused (the provider refused the grant): the grant and the flag are cleared, the record keeps the message for the
 * screen and the folder with its position (`paused`, out of the schedule's index), for a reconnect to continue from.
 * With a note: switched off as by an admin, and the record keeps only the note (no folder, nothing to resume).
 */
export async function switchOff(deps: DriveDeps, companyId: string, service: DriveService, end?: ImportEnd): Promise<void> {
  const pausedBy = end && 'paused' in end ? end.paused : undefined;
  const tokens = await openTokens(deps, companyId, service).catch(() => undefined);
  if (tokens && !pausedBy) await revokeGrant(deps, companyId, service, tokens);
  await deps.integrations.deleteCredentials(companyId, DRIVE_FLAG[service]);
  const record = await deps.drive.getImport(companyId, service);
  if (end && record) {
    const paused = pausedBy ? (keptFolderOf(record, deps.clock.now().toISOString()) ?? null) : null;
    const kept = pausedBy ? {} : { skipped_files: [], skipped_total: 0 };
    await deps.drive.putImport({ ...record, ...kept, folder_id: null, folder_name: null, cursor: null, paused, last_error: pausedBy ?? ('note' in end ? end.note : null), lease_until: null, lease_id: null });
  } else {
    await deps.drive.deleteImport(companyId, service);
  }
  await deps.drive.setCompanyDrive(companyId, service, false, null);
}

/** Tells every member's screen the company changed (its flags), as every member sees it: without a role. */
export async function tellMembers(deps: Pick<DriveDeps, 'store' | 'clock' | 'live' | 'emailInDomain'>, companyId: string): Promise<void> {
  const [record] = await deps.store.getCompanies([companyId]);
  if (!record) return;
  // There is no caller here, and a basic member's screen keeps its own role: the view's role is dropped.
  const stats = await deps.store.getCompanyStats([companyId], monthOf(deps.clock.now()));
  const { role: _role, ...shared } = toCompanyView(record, 'basic', stats.get(companyId), deps.emailInDomain);
  await publishCompanyChange(deps.live, shared);
}

/**
 * A member left the company (DELETE /company/users/{id}), or an administrator was lowered to Basic (PUT
 * /company/users/{id}; only admins configure integrations): the imports they connected stop feeding it. Each is
 * switched off as an admin's switch-off does (the grant revoked at the provider, the stored grant, the folder and
 * the flag cleared; a paused folder of theirs is forgotten too), and the members' screens are told. The company's
 * admins see the import off, with a note saying why (`DRIVE_MSG.connectorLeft` / `connectorNotAdmin`), and can
 * connect it again with their own account. Answers the services switched off.
 */
export async function switchOffImportsOf(deps: DriveDeps, companyId: string, userId: string, why: 'left' | 'no longer an admin' = 'left'): Promise<DriveService[]> {
  const ended: DriveService[] = [];
  for (const service of ['google', 'dropbox'] as const) {
    const record = await deps.drive.getImport(companyId, service);
    if (record?.user_id !== userId) continue;
    // Already ended (only its note is left): nothing to switch off again.
    if (!record.folder_id && !record.paused && !(await deps.integrations.getCredentials(companyId, DRIVE_FLAG[service]))) continue;
    await switchOff(deps, companyId, service, { note: why === 'left' ? DRIVE_MSG.connectorLeft(service) : DRIVE_MSG.connectorNotAdmin(service) });
    const message = why === 'left' ? 'the member who connected it left the company' : 'the member who connected it is no longer an administrator';
    deps.log?.info?.(`import switched off: ${message}`, { company_id: companyId, service });
    ended.push(service);
  }
  if (ended.length) await tellMembers(deps, companyId);
  return ended;
}

/** GET /company/service/drive/switch: the authorisation URL to connect, or switching off with `disconnect`. */
export async function switchDrive(deps: DriveDeps, caller: DriveCaller, input: { service_type: DriveService; disconnect: boolean }): Promise<{ url: string | null; company: Company }> {
  const service = input.service_type;
  if (input.disconnect) {
    await switchOff(deps, caller.companyId, service);
    return { url: null, company: await publishCompany(deps, caller) };
  }
  const state = randomBytes(32).toString('base64url');
  const stateHash = stateHashOf(state);
  let authorization: { url: string; codeVerifier: string };
  try {
    authorization = await deps.providers[service].authorizationUrl({ redirectUri: redirectUriOf(deps.appUrl, service), state });
  } catch (error) {
    deps.log?.warn('no authorisation URL', { company_id: caller.companyId, service, error: error instanceof Error ? error.message : String(error) });
    throw connectionError('the service is not configured', 'service_type');
  }
  const { url, codeVerifier } = authorization;
  const now = deps.clock.now();
  await deps.drive.putState({
    state_hash: stateHash,
    company_id: caller.companyId,
    user_id: caller.userId,
    service,
    verifier: await deps.secrets.seal(codeVerifier, stateContext(stateHash)),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + STATE_SECONDS * 1000).toISOString(),
  });
  return { url, company: await companyView(deps, caller) };
}

/**
 * POST /company/service/drive/authorize: exchanges the code the provider sent back; the import is on. A folder kept
 * by a paused import (or still watched) is watched again from its position when the new grant sees it; otherwise
 * there is no folder yet (and the kept one still resumes when it is chosen).
 */
export async function completeAuthorization(deps: DriveDeps, caller: DriveCaller, input: DriveAuthorizeBody): Promise<Company> {
  const service = input.service_type;
  const stateHash = stateHashOf(input.state);
  const record = await deps.drive.takeState(stateHash);
  if (!record) throw connectionError('unknown or already used state');
  if (record.expires_at <= deps.clock.now().toISOString()) throw connectionError('expired state');
  if (record.user_id !== caller.userId || record.company_id !== caller.companyId || record.service !== service) throw connectionError('state of another authorisation');
  const codeVerifier = await deps.secrets.open(record.verifier, stateContext(stateHash));
  let tokens: DriveTokens;
  try {
    tokens = await deps.providers[service].exchangeCode({ code: input.code, redirectUri: redirectUriOf(deps.appUrl, service), codeVerifier });
  } catch (error) {
    deps.log?.warn('code exchange failed', { company_id: caller.companyId, service, error: error instanceof Error ? error.message : String(error) });
    throw connectionError('the provider refused the code', 'code');
  }
  await saveTokens(deps, caller.companyId, service, tokens);
  const now = deps.clock.now().toISOString();
  const previous = await deps.drive.getImport(caller.companyId, service);
  const kept = keptFolderOf(previous, now);
  const folder = kept ? await visibleFolder(deps, caller.companyId, service, tokens, kept.folder_id) : undefined;
  await deps.drive.putImport({
    company_id: caller.companyId,
    service,
    user_id: caller.userId,
    connected_at: now,
    folder_id: folder ? folder.id : null,
    folder_name: folder ? folder.name : null,
    cursor: folder ? kept!.cursor : null,
    paused: folder ? null : (kept ?? null),
    last_run_at: kept ? (previous?.last_run_at ?? null) : null,
    last_imported: kept ? (previous?.last_imported ?? 0) : 0,
    total_imported: kept ? (previous?.total_imported ?? 0) : 0,
    last_error: null,
    skipped_files: kept ? (previous?.skipped_files ?? []) : [],
    skipped_total: kept ? (previous?.skipped_total ?? 0) : 0,
    lease_until: null,
    lease_id: null,
  });
  await deps.drive.setCompanyDrive(caller.companyId, service, true, folder ? folder.name : null);
  return publishCompany(deps, caller);
}

/** The kept folder as the new grant sees it (renamed, moved); undefined when it does not, or the call fails. */
async function visibleFolder(deps: DriveDeps, companyId: string, service: DriveService, tokens: DriveTokens, folderId: string): Promise<DriveFolder | undefined> {
  const session = deps.providers[service].session(tokens);
  try {
    return await session.folder(folderId);
  } catch (error) {
    deps.log?.warn('the kept folder could not be looked up', { company_id: companyId, service, error: error instanceof Error ? error.message : String(error) });
    return undefined;
  } finally {
    await keepRenewedTokens(deps, companyId, service, tokens, session).catch(() => undefined);
  }
}

/** Runs `fn` with the company's session; keeps renewed tokens; a refused grant switches the import off (422). */
async function withSession<T>(deps: DriveDeps, caller: DriveCaller, service: DriveService, fn: (session: DriveSession) => Promise<T>): Promise<T> {
  const tokens = await openTokens(deps, caller.companyId, service);
  if (!tokens) throw new AppError('ValidationFailed', DRIVE_MSG.notConnected, [{ path: ['service_type'], message: DRIVE_MSG.notConnected }]);
  const session = deps.providers[service].session(tokens);
  try {
    const result = await fn(session);
    await keepRenewedTokens(deps, caller.companyId, service, tokens, session);
    return result;
  } catch (error) {
    if (error instanceof DriveAuthError) {
      await switchOff(deps, caller.companyId, service, { paused: DRIVE_MSG.revoked(service) });
      await publishCompany(deps, caller);
      throw connectionError(error.message, 'service_type');
    }
    throw error;
  }
}

/** GET /company/service/drive/folders: one page of the account's folders. */
export async function listDriveFolders(deps: DriveDeps, caller: DriveCaller, input: { service_type: DriveService; next?: string }): Promise<DriveFolderPage> {
  return withSession(deps, caller, input.service_type, (s) => s.listFolders(input.next));
}

/**
 * POST /company/service/drive/folders: watches the folder from now on (files already in it are not imported). The
 * folder already watched, chosen again (OK in Edit Folder without a change), or the folder a refused grant paused,
 * keeps its place: files added since the last run are still imported. Another folder starts fresh (its own
 * counts and skipped files).
 */
export async function chooseDriveFolder(deps: DriveDeps, caller: DriveCaller, input: DriveFolderBody): Promise<Company> {
  const service = input.service_type;
  const record = await deps.drive.getImport(caller.companyId, service);
  if (!record) throw new AppError('ValidationFailed', DRIVE_MSG.notConnected, [{ path: ['service_type'], message: DRIVE_MSG.notConnected }]);
  const { folder, cursor, continued } = await withSession(deps, caller, service, async (s) => {
    const found = await s.folder(input.folder_id);
    if (!found) throw new AppError('NotFound', DRIVE_MSG.folderNotFound);
    const kept = keptFolderOf(record, deps.clock.now().toISOString());
    if (kept?.folder_id === found.id) return { folder: found, cursor: kept.cursor, continued: true };
    return { folder: found, cursor: await s.startCursor(found.id), continued: false };
  });
  // Another folder: the documents counted and the files skipped in the one before are not this folder's
  const fresh = continued ? {} : { total_imported: 0, skipped_files: [], skipped_total: 0 };
  await deps.drive.putImport({ ...record, ...fresh, folder_id: folder.id, folder_name: folder.name, cursor, paused: null, last_error: null, lease_until: null, lease_id: null });
  await deps.drive.setCompanyDrive(caller.companyId, service, true, folder.name);
  return publishCompany(deps, caller);
}

export function statusOf(service: DriveService, record: DriveImportRecord | undefined, connected: boolean): DriveImportStatus {
  return {
    service_type: service,
    connected,
    folder_name: record?.folder_name ?? null,
    last_run_at: record?.last_run_at ?? null,
    last_imported: record?.last_imported ?? 0,
    total_imported: record?.total_imported ?? 0,
    last_error: record?.last_error ?? null,
    skipped_files: record?.folder_id ? (record.skipped_files ?? []) : [],
    // Imports stored before the count was kept have only the names
    skipped_total: record?.folder_id ? Math.max(record.skipped_total ?? 0, record.skipped_files?.length ?? 0) : 0,
    paused_folder_name: record?.paused?.folder_name ?? null,
  };
}

/** GET /company/service/drive/status: per service, whether it is connected and what its last run did. */
export async function driveStatus(deps: Pick<DriveDeps, 'drive' | 'integrations'>, caller: DriveCaller): Promise<{ items: DriveImportStatus[] }> {
  const items = await Promise.all(
    (['google', 'dropbox'] as const).map(async (service) => {
      const [record, creds] = await Promise.all([deps.drive.getImport(caller.companyId, service), deps.integrations.getCredentials(caller.companyId, DRIVE_FLAG[service])]);
      return statusOf(service, record, Boolean(creds));
    }),
  );
  return { items };
}
