/**
 * The OAuth 2 part shared by the local Google Drive and Dropbox stand-ins (scripts/local/google-drive-server.ts,
 * scripts/local/dropbox-server.ts): an authorisation page whose Allow button sends the browser back to the
 * redirect URI with a code and the state, a token endpoint (authorization_code with PKCE S256 checked, and
 * refresh_token), revocation, and bearer checks. Tests revoke grants and expire access tokens through it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface OAuthGrant {
  id: string;
  client_id: string;
  refresh_token: string;
  scope: string;
  revoked: boolean;
}

interface PendingCode {
  client_id: string;
  redirect_uri: string;
  challenge?: string;
  scope: string;
  expires: number;
}

export interface OAuthState {
  grants: OAuthGrant[];
  /** access token → grant id and expiry (ms) */
  access: Record<string, { grant: string; expires: number }>;
}

export interface OAuthStandInOptions {
  /** Shown on the authorisation page. */
  provider: string;
  clientId: string;
  /** When set, the token endpoint requires it (Google); Dropbox's PKCE flow sends none. */
  clientSecret?: string;
  /** Lifetime of access tokens in seconds. */
  accessSeconds: number;
  /** Refresh tokens are kept between refreshes (Google, Dropbox). */
  state?: OAuthState;
  onChange?: () => void;
}

const b64url = (buf: Buffer) => buf.toString('base64url');
const token = (prefix: string) => `${prefix}${b64url(randomBytes(24))}`;
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function readBody(req: IncomingMessage, max = 50 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Query parameters, form fields and JSON fields of a request, merged (the SDKs use each of them). */
export function paramsOf(url: URL, body: Buffer, contentType: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  url.searchParams.forEach((v, k) => (out[k] = v));
  const text = body.toString('utf8');
  if (!text) return out;
  if ((contentType ?? '').includes('application/json')) {
    try {
      for (const [k, v] of Object.entries(JSON.parse(text) as Record<string, unknown>)) if (v !== null && v !== undefined) out[k] = String(v);
    } catch {
      /* not JSON */
    }
  } else {
    new URLSearchParams(text).forEach((v, k) => (out[k] = v));
  }
  return out;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === null ? 'null' : JSON.stringify(body));
}

export class OAuthStandIn {
  readonly state: OAuthState;
  private readonly codes = new Map<string, PendingCode>();
  /** Refreshes answered, for tests. */
  refreshes = 0;
  constructor(private readonly opts: OAuthStandInOptions) {
    this.state = opts.state ?? { grants: [], access: {} };
  }

  private changed() {
    this.opts.onChange?.();
  }

  /** GET of the authorisation URL: a page with Allow and Cancel, posting to `approveAction`. */
  authorizePage(url: URL, approveAction: string, res: ServerResponse) {
    const p = Object.fromEntries(url.searchParams.entries());
    if (p.client_id !== this.opts.clientId || !p.redirect_uri || p.response_type !== 'code') {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>${escapeHtml(this.opts.provider)}</title><h1>Invalid request</h1><p>Unknown client or redirect URI.</p>`);
      return;
    }
    const hidden = Object.entries(p)
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(this.opts.provider)} – authorise</title>
<style>body{font-family:sans-serif;background:#f4f6f8;display:flex;justify-content:center;padding-top:80px}
.box{background:#fff;border-radius:8px;padding:32px 40px;box-shadow:0 2px 12px rgba(0,0,0,.12);max-width:420px}
button{font-size:15px;padding:8px 22px;margin-right:12px;border-radius:4px;border:1px solid #0061fe;cursor:pointer}
.allow{background:#0061fe;color:#fff}.deny{background:#fff;color:#0061fe}</style></head>
<body><div class="box"><h2>${escapeHtml(this.opts.provider)} (local stand-in)</h2>
<p>Receipts wants to read your files and folders.</p><p class="muted">Scope: ${escapeHtml(p.scope ?? 'files')}</p>
<form method="post" action="${escapeHtml(approveAction)}">${hidden}
<button class="allow" name="decision" value="allow" type="submit">Allow</button>
<button class="deny" name="decision" value="deny" type="submit">Cancel</button></form></div></body></html>`);
  }

  /** POST of the page's form: back to the redirect URI with a code (or error=access_denied) and the state. */
  async approve(req: IncomingMessage, res: ServerResponse) {
    const p = paramsOf(new URL(req.url ?? '/', 'http://x'), await readBody(req, 64 * 1024), req.headers['content-type']);
    if (p.client_id !== this.opts.clientId || !p.redirect_uri) return sendJson(res, 400, { error: 'invalid_request' });
    const back = new URL(p.redirect_uri);
    if (p.decision !== 'allow') {
      back.searchParams.set('error', 'access_denied');
    } else {
      if (p.code_challenge && p.code_challenge_method !== 'S256') return sendJson(res, 400, { error: 'invalid_request', error_description: 'S256 only' });
      const code = token('code-');
      this.codes.set(code, { client_id: p.client_id, redirect_uri: p.redirect_uri, challenge: p.code_challenge, scope: p.scope ?? '', expires: Date.now() + 5 * 60_000 });
      back.searchParams.set('code', code);
    }
    if (p.state) back.searchParams.set('state', p.state);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  /** The approval a user would give, without a browser: the redirect location for an authorisation URL. */
  approveUrl(authorizationUrl: string, decision: 'allow' | 'deny' = 'allow'): string {
    const url = new URL(authorizationUrl);
    const p = Object.fromEntries(url.searchParams.entries());
    const back = new URL(p.redirect_uri!);
    if (p.client_id !== this.opts.clientId) throw new Error('unknown client');
    if (decision === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = token('code-');
      this.codes.set(code, { client_id: p.client_id!, redirect_uri: p.redirect_uri!, challenge: p.code_challenge, scope: p.scope ?? '', expires: Date.now() + 5 * 60_000 });
      back.searchParams.set('code', code);
    }
    if (p.state) back.searchParams.set('state', p.state);
    return back.toString();
  }

  private issueAccess(grant: OAuthGrant) {
    const access = token('at-');
    this.state.access[access] = { grant: grant.id, expires: Date.now() + this.opts.accessSeconds * 1000 };
    return access;
  }

  /** The token endpoint: { status, body } in OAuth's JSON error shape on failure. */
  async token(req: IncomingMessage, res: ServerResponse) {
    const p = paramsOf(new URL(req.url ?? '/', 'http://x'), await readBody(req, 64 * 1024), req.headers['content-type']);
    const fail = (error: string, description: string) => sendJson(res, 400, { error, error_description: description });
    if (p.client_id !== this.opts.clientId) return sendJson(res, 401, { error: 'invalid_client', error_description: 'unknown client' });
    if (this.opts.clientSecret && p.client_secret !== this.opts.clientSecret) return sendJson(res, 401, { error: 'invalid_client', error_description: 'bad client secret' });
    if (p.grant_type === 'authorization_code') {
      const pending = p.code ? this.codes.get(p.code) : undefined;
      if (!pending || pending.expires < Date.now()) return fail('invalid_grant', 'code doesn’t exist or has expired');
      this.codes.delete(p.code!);
      if (pending.redirect_uri !== p.redirect_uri) return fail('invalid_grant', 'redirect_uri mismatch');
      if (pending.challenge) {
        const computed = p.code_verifier ? b64url(createHash('sha256').update(p.code_verifier).digest()) : '';
        if (computed !== pending.challenge) return fail('invalid_grant', 'invalid code verifier');
      } else if (!this.opts.clientSecret) {
        return fail('invalid_request', 'PKCE required');
      }
      const grant: OAuthGrant = { id: token('g-'), client_id: p.client_id!, refresh_token: token('rt-'), scope: pending.scope, revoked: false };
      this.state.grants.push(grant);
      const access = this.issueAccess(grant);
      this.changed();
      return sendJson(res, 200, { access_token: access, token_type: 'bearer', expires_in: this.opts.accessSeconds, refresh_token: grant.refresh_token, scope: grant.scope, uid: '1', account_id: 'dbid:local' });
    }
    if (p.grant_type === 'refresh_token') {
      const grant = this.state.grants.find((g) => g.refresh_token === p.refresh_token);
      if (!grant || grant.revoked) return fail('invalid_grant', 'refresh token is invalid or revoked');
      this.refreshes += 1;
      const access = this.issueAccess(grant);
      this.changed();
      return sendJson(res, 200, { access_token: access, token_type: 'bearer', expires_in: this.opts.accessSeconds, scope: grant.scope });
    }
    return fail('unsupported_grant_type', 'grant_type');
  }

  /** Revokes the grant of a refresh or access token. */
  revoke(tokenValue: string): boolean {
    const grant = this.state.grants.find((g) => g.refresh_token === tokenValue) ?? this.state.grants.find((g) => g.id === this.state.access[tokenValue]?.grant);
    if (!grant) return false;
    grant.revoked = true;
    this.changed();
    return true;
  }

  /** The grant of a bearer token: 'expired' and 'invalid' as the providers tell them apart. */
  check(req: IncomingMessage): OAuthGrant | 'expired' | 'invalid' {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const access = m ? this.state.access[m[1]!.trim()] : undefined;
    if (!access) return 'invalid';
    const grant = this.state.grants.find((g) => g.id === access.grant);
    if (!grant || grant.revoked) return 'invalid';
    if (access.expires <= Date.now()) return 'expired';
    return grant;
  }

  /** Tests: withdraw every grant (the user removed the app). */
  revokeAll() {
    for (const g of this.state.grants) g.revoked = true;
    this.changed();
  }

  /** Tests: every access token runs out now (the next call needs a refresh). */
  expireAccessTokens() {
    for (const a of Object.values(this.state.access)) a.expires = 0;
    this.changed();
  }

  activeGrants(): OAuthGrant[] {
    return this.state.grants.filter((g) => !g.revoked);
  }
}
