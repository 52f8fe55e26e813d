/**
 * Google Drive through Google's own Node SDKs: `google-auth-library` (OAuth2Client: authorisation URL with PKCE,
 * code exchange, refresh, revoke) and `@googleapis/drive` (Drive API v3: folder list, changes, download).
 * Local mode and tests point both at scripts/local/google-drive-server.ts (GOOGLE_OAUTH_URL, GOOGLE_API_URL);
 * in AWS they keep Google's endpoints.
 *
 * Scope `drive.readonly`: the import must see the folders the user already has and the files scanners drop into
 * them; `drive.file` only sees files the app created or the user picked one by one (docs/decisions.md).
 */
import { drive as driveApi, type drive_v3 } from '@googleapis/drive';
import { CodeChallengeMethod, OAuth2Client, type Credentials } from 'google-auth-library';
import { DriveAuthError, DriveCallError, type DriveFile, type DriveProvider, type DriveSession, type DriveTokens } from '../../core/drive-import/ports';

export const GOOGLE_SCOPES = ['https://www.googleapis.com/auth/drive.readonly'];
const FOLDER_MIME = 'application/vnd.google-apps.folder';
const FOLDER_PAGE = 50;
const CHANGES_PAGE = 100;

export interface GoogleConfig {
  clientId: string;
  /**
   * The client secret, asked for at the first token exchange or refresh only (AWS: read from Secrets Manager once
   * per container, lambdas/runtime/lazy-adapters.ts); '' means not configured. Never returned or logged.
   */
  clientSecret: () => Promise<string>;
  /** Base of the OAuth endpoints; empty: Google's. */
  oauthUrl?: string;
  /** Root of the Drive API; empty: Google's. */
  apiUrl?: string;
}

/** An OAuth client; without `clientSecret` it can build authorisation URLs and revoke, not exchange or refresh. */
function oauthClient(config: GoogleConfig, clientSecret: string | undefined, redirectUri?: string): OAuth2Client {
  const base = config.oauthUrl?.replace(/\/+$/, '');
  return new OAuth2Client({
    clientId: config.clientId,
    clientSecret,
    redirectUri,
    // A 401 with an access token that should still be good (withdrawn early, clock skew) refreshes once and retries.
    forceRefreshOnFailure: true,
    ...(base
      ? { endpoints: { oauth2AuthBaseUrl: `${base}/o/oauth2/v2/auth`, oauth2TokenUrl: `${base}/token`, oauth2RevokeUrl: `${base}/revoke`, tokenInfoUrl: `${base}/tokeninfo` } }
      : {}),
  });
}

const statusOf = (error: unknown): number | undefined => {
  const e = error as { status?: number; response?: { status?: number }; code?: number | string };
  return e?.response?.status ?? e?.status ?? (typeof e?.code === 'number' ? e.code : undefined);
};
const oauthErrorOf = (error: unknown): string | undefined => (error as { response?: { data?: { error?: string } } })?.response?.data?.error;

/** invalid_grant (refresh token revoked or expired), or a 401 after the library's own refresh: the grant is gone. */
function mapError(error: unknown): Error {
  const status = statusOf(error);
  const oauth = oauthErrorOf(error);
  if (oauth === 'invalid_grant' || oauth === 'unauthorized_client' || status === 401 || (error instanceof Error && /invalid_grant|No refresh token/i.test(error.message))) {
    return new DriveAuthError(`Google refused the grant${oauth ? ` (${oauth})` : ''}`);
  }
  // 403 is also Google's answer to rate limits: only the reasons about the file itself make it a refused file.
  return new DriveCallError(error instanceof Error ? error.message : String(error), status, status === 403 && /^cannotDownload|^fileNotDownloadable/.test(reasonOf(error)));
}

type DriveErrorBody = { error?: { errors?: { reason?: string }[] } };

/**
 * The first `errors[].reason` of a Drive error answer: on the error itself, in the answer's body as the client
 * parsed it, or in its bytes (a download asks for bytes).
 */
function reasonOf(error: unknown): string {
  const e = error as { errors?: { reason?: string }[]; response?: { data?: unknown } };
  if (e?.errors?.[0]?.reason) return e.errors[0].reason;
  const data = e?.response?.data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data) || typeof data === 'string') {
    try {
      const text = typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer).toString('utf8');
      return (JSON.parse(text) as DriveErrorBody).error?.errors?.[0]?.reason ?? '';
    } catch {
      return '';
    }
  }
  return (data as DriveErrorBody | undefined)?.error?.errors?.[0]?.reason ?? '';
}

function toTokens(c: Credentials, previous?: DriveTokens): DriveTokens {
  return {
    access_token: c.access_token ?? previous?.access_token ?? '',
    refresh_token: c.refresh_token ?? previous?.refresh_token ?? null,
    expires_at: c.expiry_date ? new Date(c.expiry_date).toISOString() : (previous?.expires_at ?? null),
  };
}

/** The client secret for a token exchange or refresh; a read that fails is a passing failure (DriveCallError). */
async function clientSecretOf(config: GoogleConfig): Promise<string> {
  let secret: string;
  try {
    secret = await config.clientSecret();
  } catch (error) {
    throw new DriveCallError(`the Google client secret could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!config.clientId || !secret) throw new DriveCallError('Google Drive is not configured (GOOGLE_CLIENT_ID, and GOOGLE_CLIENT_SECRET_ID or GOOGLE_CLIENT_SECRET)');
  return secret;
}

const escapeQuery = (v: string) => v.replace(/\\/g, '\\\\').replace(/'/g, "\\'");

export function googleDrive(config: () => GoogleConfig): DriveProvider {
  return {
    async authorizationUrl({ redirectUri, state }) {
      const cfg = config();
      // The authorisation URL carries the client id only: the secret is not read until the code comes back.
      if (!cfg.clientId) throw new DriveCallError('Google Drive is not configured (GOOGLE_CLIENT_ID)');
      const client = oauthClient(cfg, undefined, redirectUri);
      const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
      const url = client.generateAuthUrl({
        access_type: 'offline',
        prompt: 'consent',
        scope: GOOGLE_SCOPES,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: CodeChallengeMethod.S256,
        include_granted_scopes: true,
      });
      return { url, codeVerifier };
    },
    async exchangeCode({ code, redirectUri, codeVerifier }) {
      const cfg = config();
      const client = oauthClient(cfg, await clientSecretOf(cfg), redirectUri);
      const { tokens } = await client.getToken({ code, codeVerifier, redirect_uri: redirectUri });
      if (!tokens.access_token) throw new DriveCallError('no access token in the answer');
      return toTokens(tokens);
    },
    session(initial) {
      const cfg = config();
      const credentials: Credentials = {
        access_token: initial.access_token,
        refresh_token: initial.refresh_token ?? undefined,
        expiry_date: initial.expires_at ? Date.parse(initial.expires_at) : undefined,
      };
      // The client (it may refresh, so it holds the secret) is built at the first Drive call, not before: a session
      // that only revokes never reads the secret. A failed secret read is tried again at the next call.
      let client: OAuth2Client | undefined;
      let ready: Promise<drive_v3.Drive> | undefined;
      const driveOf = (): Promise<drive_v3.Drive> =>
        (ready ??= clientSecretOf(cfg).then(
          (secret) => {
            client = oauthClient(cfg, secret);
            client.setCredentials(credentials);
            return driveApi({ version: 'v3', auth: client, ...(cfg.apiUrl ? { rootUrl: cfg.apiUrl.replace(/\/*$/, '/') } : {}) });
          },
          (error: unknown) => {
            ready = undefined;
            throw error;
          },
        ));
      const call = async <T>(fn: (api: drive_v3.Drive) => Promise<T>): Promise<T> => {
        const api = await driveOf();
        try {
          return await fn(api);
        } catch (error) {
          throw mapError(error);
        }
      };
      const session: DriveSession = {
        async folder(id) {
          const api = await driveOf();
          try {
            const res = await api.files.get({ fileId: id, fields: 'id,name,mimeType,trashed', supportsAllDrives: true });
            if (res.data.mimeType !== FOLDER_MIME || res.data.trashed) return undefined;
            return { id: res.data.id ?? id, name: res.data.name ?? '' };
          } catch (error) {
            if (statusOf(error) === 404) return undefined;
            throw mapError(error);
          }
        },
        async listFolders(next) {
          const res = await call((api) =>
            api.files.list({
              q: `mimeType = '${escapeQuery(FOLDER_MIME)}' and trashed = false`,
              fields: 'nextPageToken, files(id, name)',
              orderBy: 'name',
              pageSize: FOLDER_PAGE,
              ...(next ? { pageToken: next } : {}),
            }),
          );
          return { items: (res.data.files ?? []).map((f) => ({ id: f.id ?? '', name: f.name ?? '' })), next: res.data.nextPageToken ?? null };
        },
        async startCursor() {
          const res = await call((api) => api.changes.getStartPageToken({}));
          if (!res.data.startPageToken) throw new DriveCallError('no start page token');
          return res.data.startPageToken;
        },
        async changes(folderId, cursor) {
          const res = await call((api) =>
            api.changes.list({
              pageToken: cursor,
              pageSize: CHANGES_PAGE,
              includeRemoved: false,
              spaces: 'drive',
              fields: 'nextPageToken, newStartPageToken, changes(fileId, removed, file(id, name, mimeType, parents, trashed, size, md5Checksum, headRevisionId))',
            }),
          );
          const files: DriveFile[] = [];
          for (const change of res.data.changes ?? []) {
            const f = change.file;
            if (change.removed || !f?.id || f.trashed || f.mimeType === FOLDER_MIME || !(f.parents ?? []).includes(folderId)) continue;
            // Google Docs, Sheets and other native files have no bytes to download (no md5/revision): left alone.
            const revision = f.headRevisionId ?? f.md5Checksum;
            if (!revision) continue;
            files.push({ id: f.id, revision, name: f.name ?? 'file', size: Number(f.size ?? 0), mime_type: f.mimeType ?? undefined });
          }
          const more = Boolean(res.data.nextPageToken);
          const nextCursor = res.data.nextPageToken ?? res.data.newStartPageToken;
          if (!nextCursor) throw new DriveCallError('the changes answer has no next token');
          return { files, cursor: nextCursor, more };
        },
        async download(file) {
          const res = await call((api) => api.files.get({ fileId: file.id, alt: 'media', supportsAllDrives: true }, { responseType: 'arraybuffer' }));
          return new Uint8Array(res.data as unknown as ArrayBuffer);
        },
        async revoke() {
          // Revoking needs no client secret (Google's revoke endpoint takes the token alone).
          const creds = client?.credentials ?? credentials;
          const token = creds.refresh_token ?? creds.access_token;
          if (!token) return;
          const revoker = client ?? oauthClient(cfg, undefined);
          try {
            await revoker.revokeToken(token);
          } catch (error) {
            throw mapError(error);
          }
        },
        tokens() {
          return toTokens(client?.credentials ?? {}, initial);
        },
      };
      return session;
    },
  };
}
