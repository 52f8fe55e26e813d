/**
 * Local stand-in for the Dropbox endpoints the import calls through the `dropbox` SDK, served by the local stack
 * under /_dropbox (DROPBOX_URL): the SDK's hosts map to `<base>/www` (authorisation page), `<base>/api` (OAuth
 * token endpoint and RPC calls) and `<base>/content` (downloads), see lambdas/adapters/drive/dropbox.ts.
 * - OAuth: GET /www/oauth2/authorize (Allow / Cancel), POST /www/oauth2/authorize/approve, POST /api/oauth2/token
 *   (authorization_code with PKCE S256 and no app secret; refresh_token); POST /api/2/auth/token/revoke;
 * - files: /api/2/files/list_folder (recursive or not, `limit`, cursor), /list_folder/continue (the rest of a
 *   listing, then only the changes since), /list_folder/get_latest_cursor, /get_metadata (by path or `id:`),
 *   /content/2/files/download (bytes, metadata in the Dropbox-API-Result header);
 * - errors as Dropbox answers them: 401 `invalid_access_token` / `expired_access_token`, 409 `path/not_found`,
 *   400 `invalid_grant` from the token endpoint.
 * Local mode and tests drop files with `dropFile` (or `PUT /_dropbox/_drop?folder=/Receipts&name=<file>`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OAuthStandIn, readBody, sendJson, type OAuthState } from './oauth-stand-in';

export const DROPBOX_LOCAL_APP_KEY = 'local-dropbox-app-key';

interface Entry {
  id: string;
  tag: 'file' | 'folder';
  name: string;
  path_lower: string;
  path_display: string;
  size?: number;
  rev?: string;
  content_hash?: string;
  /** base64 */
  content?: string;
}

interface Saved {
  oauth: OAuthState;
  entries: Entry[];
  /** ids in change order */
  changes: string[];
}

interface Cursor {
  path: string;
  recursive: boolean;
  /** the change log position this cursor stands at */
  seq: number;
  /** ids still to list (a listing in progress) */
  pending?: string[];
}

export interface DropboxStandIn {
  oauth: OAuthStandIn;
  handle(req: IncomingMessage, res: ServerResponse, prefix: string): Promise<void>;
  addFolder(path: string): string;
  dropFile(folderPath: string, name: string, bytes: Uint8Array): string;
  calls: string[];
}

const dirOf = (pathLower: string) => pathLower.slice(0, pathLower.lastIndexOf('/'));
/** Dropbox's content hash: SHA-256 over the SHA-256 of each 4 MB block. */
function contentHash(buf: Buffer): string {
  const blocks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += 4 * 1024 * 1024) blocks.push(createHash('sha256').update(buf.subarray(i, i + 4 * 1024 * 1024)).digest());
  return createHash('sha256').update(Buffer.concat(blocks)).digest('hex');
}
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(s: string): Cursor | undefined {
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Cursor;
    return typeof c.seq === 'number' && typeof c.path === 'string' ? c : undefined;
  } catch {
    return undefined;
  }
}

export function createDropboxStandIn(opts: { file?: string } = {}): DropboxStandIn {
  const saved: Saved = opts.file && existsSync(opts.file) ? (JSON.parse(readFileSync(opts.file, 'utf8')) as Saved) : { oauth: { grants: [], access: {} }, entries: [], changes: [] };
  const save = () => {
    if (opts.file) writeFileSync(opts.file, JSON.stringify(saved));
  };
  const oauth = new OAuthStandIn({ provider: 'Dropbox', clientId: DROPBOX_LOCAL_APP_KEY, accessSeconds: 4 * 3600, state: saved.oauth, onChange: save });
  const calls: string[] = [];
  const byPath = (p: string) => saved.entries.find((e) => e.path_lower === p.toLowerCase());
  const resolve = (p: string): { path: string } | undefined => {
    if (p === '') return { path: '' };
    if (p.startsWith('id:')) {
      const e = saved.entries.find((x) => x.id === p);
      return e ? { path: e.path_lower } : undefined;
    }
    return byPath(p) ? { path: p.toLowerCase() } : undefined;
  };
  const under = (e: Entry, path: string, recursive: boolean) => (recursive ? e.path_lower.startsWith(`${path}/`) : dirOf(e.path_lower) === path);
  const metadata = (e: Entry) =>
    e.tag === 'folder'
      ? { '.tag': 'folder', name: e.name, id: e.id, path_lower: e.path_lower, path_display: e.path_display }
      : {
          '.tag': 'file',
          name: e.name,
          id: e.id,
          path_lower: e.path_lower,
          path_display: e.path_display,
          rev: e.rev,
          size: e.size,
          content_hash: e.content_hash,
          client_modified: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          server_modified: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          is_downloadable: true,
        };
  const notFound = (res: ServerResponse, where = 'path') =>
    sendJson(res, 409, { error_summary: `${where}/not_found/..`, error: { '.tag': where, [where]: { '.tag': 'not_found' } } });

  const stand: DropboxStandIn = {
    oauth,
    calls,
    addFolder(path) {
      const display = path.startsWith('/') ? path : `/${path}`;
      const existing = byPath(display);
      if (existing) return existing.id;
      const id = `id:${randomBytes(12).toString('base64url')}`;
      saved.entries.push({ id, tag: 'folder', name: display.slice(display.lastIndexOf('/') + 1), path_lower: display.toLowerCase(), path_display: display });
      saved.changes.push(id);
      save();
      return id;
    },
    dropFile(folderPath, name, bytes) {
      const folder = folderPath.startsWith('id:') ? saved.entries.find((e) => e.id === folderPath) : byPath(folderPath);
      if (!folder) throw new Error(`no folder ${folderPath}`);
      const buf = Buffer.from(bytes);
      const display = `${folder.path_display}/${name}`;
      const existing = byPath(display);
      const entry: Entry = existing ?? { id: `id:${randomBytes(12).toString('base64url')}`, tag: 'file', name, path_lower: display.toLowerCase(), path_display: display };
      Object.assign(entry, { size: buf.length, rev: randomBytes(9).toString('hex'), content_hash: contentHash(buf), content: buf.toString('base64') });
      if (!existing) saved.entries.push(entry);
      saved.changes.push(entry.id);
      save();
      return entry.id;
    },
    async handle(req, res, prefix) {
      const url = new URL(req.url ?? '/', 'http://local');
      const path = url.pathname.slice(prefix.length) || '/';
      const method = req.method ?? 'GET';
      if (method === 'GET' && path === '/www/oauth2/authorize') return oauth.authorizePage(url, `${prefix}/www/oauth2/authorize/approve`, res);
      if (method === 'POST' && path === '/www/oauth2/authorize/approve') return oauth.approve(req, res);
      if (method === 'POST' && path === '/api/oauth2/token') return oauth.token(req, res);
      if (method === 'PUT' && path === '/_drop') {
        const folder = url.searchParams.get('folder') ?? '';
        const name = url.searchParams.get('name') ?? '';
        if (!name || !(folder.startsWith('id:') ? saved.entries.some((e) => e.id === folder) : byPath(folder))) return sendJson(res, 400, { error: 'folder and name are required' });
        return sendJson(res, 200, { id: stand.dropFile(folder, name, await readBody(req)) });
      }
      if (method !== 'POST' || !(path.startsWith('/api/2/') || path.startsWith('/content/2/'))) return sendJson(res, 404, { error_summary: 'not_found' });
      calls.push(path);
      const who = oauth.check(req);
      if (who === 'expired') return sendJson(res, 401, { error_summary: 'expired_access_token/..', error: { '.tag': 'expired_access_token' } });
      if (who === 'invalid') return sendJson(res, 401, { error_summary: 'invalid_access_token/..', error: { '.tag': 'invalid_access_token' } });
      const route = path.replace(/^\/(api|content)\/2\//, '');
      if (route === 'files/download') {
        let arg: { path?: string };
        try {
          arg = JSON.parse(String(req.headers['dropbox-api-arg'] ?? '{}')) as { path?: string };
        } catch {
          return sendJson(res, 400, { error_summary: 'bad Dropbox-API-Arg' });
        }
        const r = resolve(arg.path ?? '');
        const e = r ? byPath(r.path) : undefined;
        if (!e || e.tag !== 'file') return notFound(res);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'dropbox-api-result': JSON.stringify(metadata(e)).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) });
        res.end(Buffer.from(e.content ?? '', 'base64'));
        return;
      }
      const raw = (await readBody(req, 1024 * 1024)).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = raw && raw !== 'null' ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return sendJson(res, 400, { error_summary: 'invalid JSON' });
      }
      if (route === 'auth/token/revoke') {
        const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
        oauth.revoke(m![1]!.trim());
        return sendJson(res, 200, null);
      }
      if (route === 'files/get_metadata') {
        const r = resolve(String(body.path ?? ''));
        const e = r && r.path ? byPath(r.path) : undefined;
        return e ? sendJson(res, 200, metadata(e)) : notFound(res);
      }
      if (route === 'files/list_folder' || route === 'files/list_folder/get_latest_cursor') {
        const r = resolve(String(body.path ?? ''));
        if (!r) return notFound(res);
        const recursive = Boolean(body.recursive);
        if (route === 'files/list_folder/get_latest_cursor') return sendJson(res, 200, { cursor: encodeCursor({ path: r.path, recursive, seq: saved.changes.length }) });
        const pending = saved.entries.filter((e) => under(e, r.path, recursive)).map((e) => e.id);
        return page(res, { path: r.path, recursive, seq: saved.changes.length, pending }, Number(body.limit ?? 2000));
      }
      if (route === 'files/list_folder/continue') {
        const c = decodeCursor(String(body.cursor ?? ''));
        if (!c) return sendJson(res, 409, { error_summary: 'reset/..', error: { '.tag': 'reset' } });
        if (c.pending) return page(res, c, 2000);
        const seen = new Set<string>();
        const ids = saved.changes.slice(c.seq).filter((id) => (seen.has(id) ? false : (seen.add(id), true)));
        const changed = ids.map((id) => saved.entries.find((e) => e.id === id)).filter((e): e is Entry => Boolean(e) && under(e!, c.path, c.recursive));
        return sendJson(res, 200, { entries: changed.map(metadata), cursor: encodeCursor({ path: c.path, recursive: c.recursive, seq: saved.changes.length }), has_more: false });
      }
      return sendJson(res, 400, { error_summary: `Unknown API function: ${route}` });
    },
  };

  function page(res: ServerResponse, c: Cursor, limit: number) {
    const size = Math.max(1, Math.min(limit || 2000, 2000));
    const ids = c.pending ?? [];
    const now = ids.slice(0, size);
    const rest = ids.slice(size);
    const entries = now.map((id) => saved.entries.find((e) => e.id === id)).filter((e): e is Entry => Boolean(e));
    const next: Cursor = rest.length ? { ...c, pending: rest } : { path: c.path, recursive: c.recursive, seq: c.seq };
    return sendJson(res, 200, { entries: entries.map(metadata), cursor: encodeCursor(next), has_more: rest.length > 0 });
  }
  return stand;
}
