import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CLIENT_ID } from '../../scripts/local/stack';
import { openLiveChannel, registeredUser, startTestStack, type TestStack } from '../support/local-stack';

interface Answer {
  status: number;
  body: string;
}

/** One HTTP request with the Host (and other headers) given, as a DNS-rebound page's browser sends it. */
function call(url: string, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A WebSocket upgrade request: the status it is answered with (101 when upgraded). */
function upgrade(url: string, path: string, headers: Record<string, string>): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: hostname,
      port,
      path,
      agent: false,
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

const cognito = (target: string, body: unknown, headers: Record<string, string>) => ({
  method: 'POST',
  path: '/cognito',
  headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}`, ...headers },
  body: JSON.stringify(body),
});

/** DNS rebinding: a page at evil.example, whose name resolves to 127.0.0.1, must not reach local mode. */
describe('local mode answers only its own host names', () => {
  let t: TestStack;
  let port: string;
  let evil: string;
  beforeAll(async () => {
    t = await startTestStack();
    port = new URL(t.stack.url).port;
    evil = `evil.example:${port}`;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('refuses a foreign Host with 421 on the mail catcher, Cognito, the API, the stand-ins and the SPA', async () => {
    const { user, token } = await registeredUser(t.stack, 'rebind');
    const rebound = { host: evil, origin: `http://${evil}` };
    const requests = [
      { path: '/_mail' },
      { path: '/_mail/messages.json' },
      cognito('ForgotPassword', { ClientId: LOCAL_CLIENT_ID, Username: user.email }, rebound),
      cognito('InitiateAuth', { ClientId: LOCAL_CLIENT_ID, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: user.email, PASSWORD: user.password } }, rebound),
      { path: '/api/companies', headers: { authorization: `Bearer ${token}` } },
      { path: '/config.json' },
      { path: '/' },
      { method: 'PUT', path: '/_dropbox/_drop?folder=/x&name=a.pdf', body: 'x' },
    ];
    for (const r of requests) {
      const answer = await call(t.stack.url, { ...r, headers: { ...rebound, ...r.headers } });
      expect(answer.status, `${r.method ?? 'GET'} ${r.path}`).toBe(421);
      expect(answer.body).toMatch(/^Misdirected Request/);
    }
    // The Google stand-in, on its own port, refuses foreign names too.
    expect((await call(t.stack.googleUrl, { path: '/o/oauth2/v2/auth', headers: { host: `evil.example:${new URL(t.stack.googleUrl).port}` } })).status).toBe(421);
  });

  it('still answers its own names and the SDK clients', async () => {
    // registeredUser: Cognito's SDK, the post-confirmation trigger, then the API with the token.
    const { user, api } = await registeredUser(t.stack, 'ownhost');
    expect((await api.get('/companies')).status).toBe(200);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      const answer = await call(t.stack.url, { path: '/_mail/messages.json', headers: { host } });
      expect(answer.status, host).toBe(200);
    }
    // The SPA's own origin may call Cognito.
    const signIn = cognito(
      'InitiateAuth',
      { ClientId: LOCAL_CLIENT_ID, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: user.email, PASSWORD: user.password } },
      { host: `127.0.0.1:${port}`, origin: t.stack.url },
    );
    const answer = await call(t.stack.url, signIn);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toHaveProperty('AuthenticationResult.AccessToken');
  });

  it('refuses a state-changing request to Cognito or a stand-in from a page of another origin', async () => {
    const { user } = await registeredUser(t.stack, 'origin');
    const foreign = { host: `127.0.0.1:${port}`, origin: 'http://evil.example' };
    const forgot = await call(t.stack.url, cognito('ForgotPassword', { ClientId: LOCAL_CLIENT_ID, Username: user.email }, foreign));
    expect(forgot.status).toBe(403);
    expect((await call(t.stack.url, { method: 'PUT', path: '/_dropbox/_drop?folder=/x&name=a.pdf', headers: foreign, body: 'x' })).status).toBe(403);
    // Reading the SPA's files from another origin is the browser's business (CORS); the API takes bearer tokens.
    expect((await call(t.stack.url, { path: '/config.json', headers: foreign })).status).toBe(200);
  });

  it('refuses a WebSocket upgrade with a foreign Host or Origin, and upgrades the app own', async () => {
    const { token, companyId } = await registeredUser(t.stack, 'wshost');
    const query = `/ws?token=${encodeURIComponent(token)}&company_id=${encodeURIComponent(companyId)}`;
    expect(await upgrade(t.stack.url, query, { host: evil, origin: `http://${evil}` })).toBe(421);
    expect(await upgrade(t.stack.url, query, { host: `127.0.0.1:${port}`, origin: 'http://evil.example' })).toBe(403);
    expect(await upgrade(t.stack.url, query, { host: `127.0.0.1:${port}`, origin: t.stack.url })).toBe(101);
    const live = await openLiveChannel(t.stack.wsUrl, token, companyId);
    live.close();
  });
});
