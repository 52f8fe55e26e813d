/**
 * Rivile GAMA's REST API v2 client (docs/integrations.md): one endpoint, `POST <base URL>` with the header
 * `ApiKey` and a JSON body `{ method, params, data }`. The base URL is RIVILE_API_URL (default the real
 * https://api.manorivile.lt/client/v2; local mode and tests point it at scripts/local/rivile-server.ts).
 *
 * Answers: 2xx with the JSON result; errors carry `{ error: { code, message } }` (or a plain message). 401/403
 * and 4xx validation answers are permanent; 408, 429, 5xx and network failures are transient.
 */
import { TargetError, type RivileApi } from '../../core/integrations/ports';
import { env } from '../../runtime/env';

const TIMEOUT_MS = 20_000;

function errorText(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const e = (body as { error?: unknown; errorMessage?: unknown; message?: unknown }).error ?? body;
    if (typeof e === 'string') return e;
    const m = (e as { message?: unknown; errorMessage?: unknown }).message ?? (e as { errorMessage?: unknown }).errorMessage;
    if (typeof m === 'string' && m) return m;
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300);
  return `Rivile answered ${status}`;
}

export function rivileClient(baseUrl: () => string = () => env().RIVILE_API_URL): RivileApi {
  return {
    async call(apiKey, method, params, data, options) {
      let res: Response;
      const timeout = AbortSignal.timeout(TIMEOUT_MS);
      try {
        res = await fetch(baseUrl(), {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ApiKey: apiKey },
          body: JSON.stringify({ method, params, ...(data ? { data } : {}) }),
          signal: options?.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
        });
      } catch (error) {
        const name = (error as Error)?.name;
        const late = name === 'TimeoutError' || timeout.aborted || Boolean(options?.signal?.aborted);
        throw new TargetError(late ? 'Rivile did not answer in time' : 'Rivile cannot be reached', true);
      }
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        /* keep the text */
      }
      if (res.ok && !(body && typeof body === 'object' && 'error' in body)) return body;
      const transient = res.status === 408 || res.status === 429 || res.status >= 500;
      throw new TargetError(errorText(body, res.status), transient);
    },
  };
}
