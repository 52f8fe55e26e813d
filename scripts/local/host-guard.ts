import type { IncomingMessage } from 'node:http';

/** What a refused request is answered with. */
export interface Refusal {
  status: 421 | 403;
  text: string;
}

export interface LocalRequestGuardOptions {
  /** The address the server listens on and names itself by (the stack's HOST, 127.0.0.1 by default). */
  host: string;
  port: number;
  /** Paths whose state-changing requests must come from the app's own origin when they carry an Origin. */
  originChecked: (pathname: string) => boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * DNS rebinding: a web page at evil.example whose name resolves to 127.0.0.1 is same-origin with a local
 * server that answers any Host. The guard answers only the names the server is reached by (127.0.0.1, localhost,
 * [::1] and its HOST, with its port): anything else gets 421. A state-changing request to the stand-ins
 * (`originChecked`) and every WebSocket upgrade that carries an Origin other than the server's own gets 403.
 * Clients without a browser (the SDKs, curl) send no Origin. Returns undefined for a request to serve.
 */
export function localRequestGuard(opts: LocalRequestGuardOptions): (req: IncomingMessage) => Refusal | undefined {
  const own = (opts.host.includes(':') ? `[${opts.host}]` : opts.host).toLowerCase();
  const hosts = new Set<string>();
  for (const name of new Set(['127.0.0.1', 'localhost', '[::1]', own])) {
    hosts.add(`${name}:${opts.port}`);
    if (opts.port === 80) hosts.add(name);
  }
  const origin = `http://${own}${opts.port === 80 ? '' : `:${opts.port}`}`;
  return (req) => {
    if (!hosts.has((req.headers.host ?? '').toLowerCase())) return { status: 421, text: 'Misdirected Request: unknown Host\n' };
    const from = req.headers.origin;
    if (from === undefined || from.toLowerCase() === origin) return undefined;
    const pathname = (req.url ?? '/').split('?')[0]!;
    const changing = req.headers.upgrade !== undefined || (!SAFE_METHODS.has((req.method ?? 'GET').toUpperCase()) && opts.originChecked(pathname));
    return changing ? { status: 403, text: 'Forbidden: foreign Origin\n' } : undefined;
  };
}
