/**
 * Dropbox through Dropbox's own JavaScript SDK (`dropbox`): DropboxAuth for the authorisation URL with PKCE, the
 * code exchange and refresh; Dropbox for list_folder (folder list), list_folder/get_latest_cursor and
 * list_folder/continue (the change cursor), download and token/revoke.
 *
 * The app authenticates with PKCE and no app secret (the SDK's code flow for it): the server holds no Dropbox
 * secret at all, and refresh tokens obtained this way refresh with the app key alone.
 *
 * The SDK builds https URLs on Dropbox's hosts; local mode and tests hand it a fetch that sends those hosts to
 * scripts/local/dropbox-server.ts (DROPBOX_URL). In AWS the SDK's own fetch is used unchanged.
 */
import { Dropbox, DropboxAuth, DropboxResponseError, type files } from 'dropbox';
import { DriveAuthError, DriveCallError, DriveCursorExpired, type DriveFile, type DriveProvider, type DriveSession } from '../../core/drive-import/ports';

export interface DropboxConfig {
  appKey: string;
  /** Local stand-in's base URL; empty: Dropbox itself. */
  baseUrl?: string;
}

const FOLDER_PAGE = 50;
/** list_folder pages read to fill one page of folders (a page of files holds few folders). */
const MAX_FOLDER_READS = 5;

const HOST_PATHS: Record<string, string> = {
  'api.dropboxapi.com': 'api',
  'content.dropboxapi.com': 'content',
  'notify.dropboxapi.com': 'notify',
  'www.dropbox.com': 'www',
  'dropbox.com': 'www',
};

/** A fetch that sends Dropbox's hosts to the stand-in (`<base>/api/…`, `<base>/content/…`, `<base>/www/…`). */
export function redirectingFetch(baseUrl: string): typeof fetch {
  const base = baseUrl.replace(/\/+$/, '');
  return (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const prefix = HOST_PATHS[url.host];
    if (!prefix) throw new Error(`unexpected Dropbox host ${url.host}`);
    return fetch(`${base}/${prefix}${url.pathname}${url.search}`, init);
  };
}

/** The authorisation page's URL on the stand-in, for the browser (the SDK names www.dropbox.com). */
function browserUrl(url: string, baseUrl?: string): string {
  if (!baseUrl) return url;
  const u = new URL(url);
  const prefix = HOST_PATHS[u.host];
  return prefix ? `${baseUrl.replace(/\/+$/, '')}/${prefix}${u.pathname}${u.search}` : url;
}

function authOf(config: DropboxConfig): DropboxAuth {
  return new DropboxAuth({ clientId: config.appKey, ...(config.baseUrl ? { fetch: redirectingFetch(config.baseUrl) } : {}) });
}

const tagOf = (error: unknown): string | undefined => {
  const e = (error as DropboxResponseError<{ error?: { '.tag'?: string } | string; error_summary?: string }>)?.error;
  if (!e) return undefined;
  if (typeof e.error === 'string') return e.error;
  return e.error?.['.tag'] ?? e.error_summary;
};

function mapError(error: unknown): Error {
  if (error instanceof DriveAuthError || error instanceof DriveCallError) return error;
  if (error instanceof DropboxResponseError) {
    const tag = tagOf(error) ?? '';
    if (error.status === 401 || (error.status === 400 && /invalid_grant|invalid_client/.test(tag))) return new DriveAuthError(`Dropbox refused the grant (${tag || error.status})`);
    // list_folder/continue: the cursor is no longer valid; the folder must be listed again from a new cursor
    if (error.status === 409 && tag === 'reset') return new DriveCursorExpired('Dropbox no longer accepts the cursor (reset)');
    return new DriveCallError(`Dropbox answered ${error.status}${tag ? ` (${tag})` : ''}`, error.status);
  }
  return new DriveCallError(error instanceof Error ? error.message : String(error));
}

function fileOf(entry: files.FileMetadataReference | files.FolderMetadataReference | files.DeletedMetadataReference): DriveFile | undefined {
  if (entry['.tag'] !== 'file') return undefined;
  const f = entry as files.FileMetadataReference;
  return { id: f.id, revision: f.content_hash ?? f.rev, name: f.name, size: f.size };
}

export function dropboxDrive(config: () => DropboxConfig): DriveProvider {
  return {
    async authorizationUrl({ redirectUri, state }) {
      const cfg = config();
      if (!cfg.appKey) throw new DriveCallError('Dropbox is not configured (DROPBOX_APP_KEY)');
      const auth = authOf(cfg);
      const url = (await auth.getAuthenticationUrl(encodeURIComponent(redirectUri), state, 'code', 'offline', undefined, 'none', true)) as unknown as string;
      return { url: browserUrl(url, cfg.baseUrl), codeVerifier: auth.getCodeVerifier() };
    },
    async exchangeCode({ code, redirectUri, codeVerifier }) {
      const auth = authOf(config());
      auth.setCodeVerifier(codeVerifier);
      try {
        const res = await auth.getAccessTokenFromCode(encodeURIComponent(redirectUri), encodeURIComponent(code));
        const r = res.result as { access_token?: string; refresh_token?: string; expires_in?: number };
        if (!r.access_token) throw new DriveCallError('no access token in the answer');
        return { access_token: r.access_token, refresh_token: r.refresh_token ?? null, expires_at: r.expires_in ? new Date(Date.now() + r.expires_in * 1000).toISOString() : null };
      } catch (error) {
        throw mapError(error);
      }
    },
    session(initial) {
      const cfg = config();
      const auth = authOf(cfg);
      auth.setAccessToken(initial.access_token);
      if (initial.refresh_token) auth.setRefreshToken(initial.refresh_token);
      if (initial.expires_at) auth.setAccessTokenExpiresAt(new Date(initial.expires_at));
      const dbx = new Dropbox({ auth });
      /** One call; a 401 (access token withdrawn before its time) refreshes once and tries again. */
      const call = async <T>(fn: () => Promise<T>): Promise<T> => {
        try {
          return await fn();
        } catch (error) {
          if (error instanceof DropboxResponseError && error.status === 401 && auth.getRefreshToken()) {
            try {
              await auth.refreshAccessToken();
            } catch (refreshError) {
              throw mapError(refreshError);
            }
            try {
              return await fn();
            } catch (again) {
              throw mapError(again);
            }
          }
          throw mapError(error);
        }
      };
      const session: DriveSession = {
        async folder(id) {
          try {
            const res = await call(() => dbx.filesGetMetadata({ path: id }));
            const m = res.result;
            if (m['.tag'] !== 'folder') return undefined;
            return { id: (m as files.FolderMetadataReference).id, name: m.path_display ?? m.name };
          } catch (error) {
            if (error instanceof DriveCallError && error.status === 409) return undefined;
            throw error;
          }
        },
        async listFolders(next) {
          const items: { id: string; name: string }[] = [];
          let cursor = next;
          for (let read = 0; read < MAX_FOLDER_READS; read += 1) {
            const res = cursor
              ? await call(() => dbx.filesListFolderContinue({ cursor: cursor! }))
              : await call(() => dbx.filesListFolder({ path: '', recursive: true, limit: FOLDER_PAGE }));
            for (const e of res.result.entries) {
              if (e['.tag'] === 'folder') items.push({ id: (e as files.FolderMetadataReference).id, name: e.path_display ?? e.name });
            }
            cursor = res.result.has_more ? res.result.cursor : undefined;
            if (!cursor || items.length >= FOLDER_PAGE) break;
          }
          return { items, next: cursor ?? null };
        },
        async startCursor(folderId) {
          const res = await call(() => dbx.filesListFolderGetLatestCursor({ path: folderId, recursive: false }));
          return res.result.cursor;
        },
        async changes(_folderId, cursor) {
          const res = await call(() => dbx.filesListFolderContinue({ cursor }));
          const found: DriveFile[] = [];
          for (const entry of res.result.entries) {
            const f = fileOf(entry);
            if (f) found.push(f);
          }
          return { files: found, cursor: res.result.cursor, more: res.result.has_more };
        },
        async download(file) {
          const res = await call(() => dbx.filesDownload({ path: file.id }));
          const r = res.result as unknown as { fileBinary?: Buffer; fileBlob?: Blob };
          if (r.fileBinary) return new Uint8Array(r.fileBinary);
          if (r.fileBlob) return new Uint8Array(await r.fileBlob.arrayBuffer());
          throw new DriveCallError('the download carried no bytes');
        },
        async revoke() {
          await call(() => dbx.authTokenRevoke());
        },
        tokens() {
          const expires = auth.getAccessTokenExpiresAt();
          return {
            access_token: auth.getAccessToken() ?? initial.access_token,
            refresh_token: auth.getRefreshToken() ?? initial.refresh_token,
            expires_at: expires ? new Date(expires).toISOString() : initial.expires_at,
          };
        },
      };
      return session;
    },
  };
}
