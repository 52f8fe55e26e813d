import { MSG } from '../../../shared/schemas/messages';
import { ApiError, networkError, parseApiError } from './api-error';
import { isNetworkError, isSessionOver } from './auth-errors';

export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | null | undefined | ReadonlyArray<QueryScalar>;
export type Query = Record<string, QueryValue>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Append the active company's company_id (rules.md 7). Default true; an explicit company_id always wins. */
  companyScoped?: boolean;
  /** Send the access token. Default true; false for the public calls (invitation lookup). */
  auth?: boolean;
  signal?: AbortSignal;
}

export const COMPANY_ID_PARAM = 'company_id';

function appendValue(params: URLSearchParams, key: string, value: QueryValue): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const v of value as ReadonlyArray<QueryScalar>) params.append(key, String(v));
    return;
  }
  params.append(key, String(value));
}

/**
 * Build the full URL of an API call. The path may carry its own query string; `query` is merged in
 * (undefined/null dropped, arrays repeated); company_id is appended unless opted out or already given.
 */
export function buildUrl(
  apiUrl: string,
  path: string,
  options: { query?: Query; companyId?: string | null; companyScoped?: boolean } = {},
): string {
  const [rawPath, pathQuery = ''] = path.split('?', 2) as [string, string?];
  const params = new URLSearchParams(pathQuery);
  for (const [k, v] of Object.entries(options.query ?? {})) appendValue(params, k, v);
  const scoped = options.companyScoped ?? true;
  if (scoped && options.companyId && !params.has(COMPANY_ID_PARAM)) params.append(COMPANY_ID_PARAM, options.companyId);
  const base = apiUrl.replace(/\/+$/, '');
  const cleanPath = rawPath.replace(/^\/+/, '');
  const qs = params.toString();
  return `${base}/${cleanPath}${qs ? `?${qs}` : ''}`;
}

export interface ApiClientDeps {
  apiUrl: string;
  /**
   * The session's access token, renewed when due. `undefined`: there is no session (signed out, or the refresh
   * token was refused); a throw: the renewal failed, the session may still be good (no network, service error).
   */
  getAccessToken: () => Promise<string | undefined>;
  getCompanyId: () => string | null;
  /** Called once per 401 (or when the session is over: no token, or a refresh the server refused for good). */
  onUnauthorized: () => void;
  fetch?: typeof fetch;
}

export interface ApiClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  del<T>(path: string, options?: RequestOptions): Promise<T>;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const doFetch = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    const auth = options.auth ?? true;
    const url = buildUrl(deps.apiUrl, path, {
      query: options.query,
      companyId: auth ? deps.getCompanyId() : null,
      companyScoped: auth ? options.companyScoped : false,
    });
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (auth) {
      let token: string | undefined;
      try {
        token = await deps.getAccessToken();
      } catch (err) {
        // A renewal that could not reach the server (a laptop waking before its Wi-Fi) or met a passing service
        // error leaves the tokens in place: the call fails like any other, and the next one renews again.
        if (!isSessionOver(err)) throw isNetworkError(err) || (typeof navigator !== 'undefined' && navigator.onLine === false) ? networkError() : new ApiError(503, 'TokenRefreshFailed', MSG.somethingWrong);
        token = undefined;
      }
      if (!token) {
        deps.onUnauthorized();
        throw new ApiError(401, 'Unauthorized', 'Your previous session has expired.');
      }
      headers.Authorization = `Bearer ${token}`;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let res: Response;
    try {
      res = await doFetch(url, { method, headers, body, signal: options.signal });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      throw networkError();
    }
    const payload = await readBody(res);
    if (!res.ok) {
      const error = parseApiError(res.status, payload, method);
      if (res.status === 401 && auth) deps.onUnauthorized();
      throw error;
    }
    return payload as T;
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    del: (path, options) => request('DELETE', path, options),
  };
}
