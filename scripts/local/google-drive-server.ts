/**
 * Local stand-in for Google's OAuth 2 endpoints and the Drive API v3 calls the import makes, served by the local
 * stack on a port of its own (GOOGLE_OAUTH_URL and GOOGLE_API_URL; the Drive SDK keeps only the origin of its root URL):
 * - OAuth: GET /o/oauth2/v2/auth (a page with Allow / Cancel), POST /o/oauth2/v2/auth/approve, POST /token
 *   (authorization_code with client secret and PKCE S256; refresh_token), POST /revoke;
 * - Drive: GET /drive/v3/files (folders by `q`, paged with pageToken), GET /drive/v3/files/{id} (metadata, or the
 *   bytes with alt=media), GET /drive/v3/changes/startPageToken, GET /drive/v3/changes (paged; a file's change
 *   carries its parents, size, md5Checksum and headRevisionId, as Drive's does);
 * - bearer tokens checked (401 `UNAUTHENTICATED` for expired, unknown or revoked ones).
 * Local mode and tests drop files into a folder with `dropFile` (or `PUT <google url>/_drop?folder=<name>&name=<file>`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OAuthStandIn, readBody, sendJson, type OAuthState } from './oauth-stand-in';

const FOLDER_MIME = 'application/vnd.google-apps.folder';
export const GOOGLE_LOCAL_CLIENT = { clientId: 'local-google-client.apps.googleusercontent.com', clientSecret: 'local-google-secret' };

interface DriveItem {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  trashed: boolean;
  size?: number;
  md5Checksum?: string;
  headRevisionId?: string;
  /** base64 */
  content?: string;
}

interface Saved {
  oauth: OAuthState;
  files: DriveItem[];
  /** file ids in change order; page token n = changes from index n - 1 */
  changes: string[];
}

export interface GoogleDriveStandIn {
  oauth: OAuthStandIn;
  handle(req: IncomingMessage, res: ServerResponse, prefix: string): Promise<void>;
  addFolder(name: string, parent?: string): string;
  dropFile(folderId: string, name: string, bytes: Uint8Array, mimeType?: string): string;
  /** Writes new bytes into an existing file (a new revision). */
  updateFile(fileId: string, bytes: Uint8Array): void;
  renameFile(fileId: string, name: string): void;
  /** Downloads of the file are refused as Drive refuses a file flagged as abusive (403 cannotDownloadAbusiveFile). */
  refuseDownload(fileId: string): void;
  folderByName(name: string): string | undefined;
  /** Drive API calls received (method and path), for tests. */
  calls: string[];
}

const newId = () => randomBytes(12).toString('base64url');

export function createGoogleDriveStandIn(opts: { file?: string } = {}): GoogleDriveStandIn {
  const saved: Saved = opts.file && existsSync(opts.file) ? (JSON.parse(readFileSync(opts.file, 'utf8')) as Saved) : { oauth: { grants: [], access: {} }, files: [], changes: [] };
  const save = () => {
    if (opts.file) writeFileSync(opts.file, JSON.stringify(saved));
  };
  const oauth = new OAuthStandIn({ provider: 'Google', ...GOOGLE_LOCAL_CLIENT, accessSeconds: 3600, state: saved.oauth, onChange: save });
  const refused = new Set<string>();
  const calls: string[] = [];
  const byId = (id: string) => saved.files.find((f) => f.id === id);
  const touch = (id: string) => {
    saved.changes.push(id);
    save();
  };
  const meta = (f: DriveItem) => {
    const { content: _content, ...rest } = f;
    return { kind: 'drive#file', ...rest, ...(f.size !== undefined ? { size: String(f.size) } : {}) };
  };

  const stand: GoogleDriveStandIn = {
    oauth,
    calls,
    addFolder(name, parent = 'root') {
      const id = newId();
      saved.files.push({ id, name, mimeType: FOLDER_MIME, parents: [parent], trashed: false });
      touch(id);
      return id;
    },
    dropFile(folderId, name, bytes, mimeType = 'application/octet-stream') {
      const id = newId();
      const buf = Buffer.from(bytes);
      saved.files.push({
        id,
        name,
        mimeType,
        parents: [folderId],
        trashed: false,
        size: buf.length,
        md5Checksum: createHash('md5').update(buf).digest('hex'),
        headRevisionId: newId(),
        content: buf.toString('base64'),
      });
      touch(id);
      return id;
    },
    updateFile(fileId, bytes) {
      const f = byId(fileId);
      if (!f) throw new Error('no such file');
      const buf = Buffer.from(bytes);
      Object.assign(f, { size: buf.length, md5Checksum: createHash('md5').update(buf).digest('hex'), headRevisionId: newId(), content: buf.toString('base64') });
      touch(fileId);
    },
    renameFile(fileId, name) {
      const f = byId(fileId);
      if (!f) throw new Error('no such file');
      f.name = name;
      touch(fileId);
    },
    refuseDownload(fileId) {
      refused.add(fileId);
    },
    folderByName(name) {
      return saved.files.find((f) => f.mimeType === FOLDER_MIME && f.name === name && !f.trashed)?.id;
    },
    async handle(req, res, prefix) {
      const url = new URL(req.url ?? '/', 'http://local');
      const path = url.pathname.slice(prefix.length) || '/';
      const method = req.method ?? 'GET';
      if (method === 'GET' && path === '/o/oauth2/v2/auth') return oauth.authorizePage(url, `${prefix}/o/oauth2/v2/auth/approve`, res);
      if (method === 'POST' && path === '/o/oauth2/v2/auth/approve') return oauth.approve(req, res);
      if (method === 'POST' && path === '/token') return oauth.token(req, res);
      if (method === 'POST' && path === '/revoke') {
        const body = (await readBody(req, 64 * 1024)).toString('utf8');
        const t = url.searchParams.get('token') ?? new URLSearchParams(body).get('token') ?? '';
        return oauth.revoke(t) ? sendJson(res, 200, {}) : sendJson(res, 400, { error: 'invalid_token' });
      }
      if (method === 'PUT' && path === '/_drop') {
        const folderName = url.searchParams.get('folder') ?? '';
        const folder = byId(folderName)?.id ?? stand.folderByName(folderName);
        const name = url.searchParams.get('name') ?? '';
        if (!folder || !name) return sendJson(res, 400, { error: 'folder and name are required' });
        const id = stand.dropFile(folder, name, await readBody(req));
        return sendJson(res, 200, { id });
      }
      if (!path.startsWith('/drive/v3/')) return sendJson(res, 404, { error: { code: 404, message: 'Not Found' } });
      calls.push(`${method} ${path}`);
      const who = oauth.check(req);
      if (who === 'expired' || who === 'invalid') {
        return sendJson(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
      }
      const rest = path.slice('/drive/v3'.length);
      if (method === 'GET' && rest === '/files') {
        const q = url.searchParams.get('q') ?? '';
        const onlyFolders = q.includes(FOLDER_MIME);
        const items = saved.files.filter((f) => !f.trashed && (!onlyFolders || f.mimeType === FOLDER_MIME)).sort((a, b) => a.name.localeCompare(b.name));
        const size = Math.min(Number(url.searchParams.get('pageSize') ?? 100) || 100, 1000);
        const start = Number(url.searchParams.get('pageToken') ?? 0) || 0;
        const page = items.slice(start, start + size);
        return sendJson(res, 200, { kind: 'drive#fileList', files: page.map((f) => ({ id: f.id, name: f.name })), ...(start + size < items.length ? { nextPageToken: String(start + size) } : {}) });
      }
      if (method === 'GET' && rest === '/changes/startPageToken') return sendJson(res, 200, { kind: 'drive#startPageToken', startPageToken: String(saved.changes.length + 1) });
      if (method === 'GET' && rest === '/changes') {
        const from = Number(url.searchParams.get('pageToken'));
        if (!Number.isInteger(from) || from < 1) return sendJson(res, 400, { error: { code: 400, message: 'Invalid pageToken' } });
        const size = Math.min(Number(url.searchParams.get('pageSize') ?? 100) || 100, 1000);
        const ids = saved.changes.slice(from - 1, from - 1 + size);
        const changes = ids.map((id) => {
          const f = byId(id);
          return f ? { kind: 'drive#change', changeType: 'file', fileId: id, removed: false, file: meta(f) } : { kind: 'drive#change', changeType: 'file', fileId: id, removed: true };
        });
        const end = from - 1 + ids.length;
        return sendJson(res, 200, { kind: 'drive#changeList', changes, ...(end < saved.changes.length ? { nextPageToken: String(end + 1) } : { newStartPageToken: String(saved.changes.length + 1) }) });
      }
      const m = /^\/files\/([^/]+)$/.exec(rest);
      if (method === 'GET' && m) {
        const f = byId(decodeURIComponent(m[1]!));
        if (!f || f.trashed) return sendJson(res, 404, { error: { code: 404, message: `File not found: ${m[1]}.` } });
        if (url.searchParams.get('alt') === 'media') {
          if (refused.has(f.id)) {
            const message = 'This file has been identified as malware or spam and cannot be downloaded.';
            return sendJson(res, 403, { error: { code: 403, message, errors: [{ domain: 'global', reason: 'cannotDownloadAbusiveFile', message }] } });
          }
          if (!f.content) return sendJson(res, 403, { error: { code: 403, message: 'Only files with binary content can be downloaded.' } });
          res.writeHead(200, { 'content-type': f.mimeType });
          res.end(Buffer.from(f.content, 'base64'));
          return;
        }
        return sendJson(res, 200, meta(f));
      }
      return sendJson(res, 404, { error: { code: 404, message: 'Not Found' } });
    },
  };
  return stand;
}
