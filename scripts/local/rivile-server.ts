/**
 * Local stand-in for Rivile GAMA's REST API v2 (docs/integrations.md), served by the local stack under /_rivile
 * (RIVILE_API_URL) and usable on its own port in tests. It implements what the export uses, with GAMA's rules:
 * - `POST` with header `ApiKey` and JSON `{ method, params, data }`; an unknown key → 401;
 * - EDIT_N08 (clients), EDIT_N17 (goods/services), EDIT_I06 (document header with its I07 lines), with
 *   `params.oper` 'I' (insert) or 'U' (update); ONE record per call (an array is refused);
 * - an insert of an existing key answers 409 "… already exists"; an update of a record another API user created
 *   (the first 7 characters of the key) answers 403;
 * - I06 needs its client (N08) and every line's item (N17) to exist, dates as YYYY-MM-DD (the API guide's example), I06_OP_TIP 1/2/51/52;
 * - GET_N08_LIST, GET_N17_LIST, GET_I06_LIST: pages of 100 rows, `params.fil` as simple `COL='value' AND …`.
 * Errors: `{ error: { code, message } }` with a 4xx status. Request/response field names beyond these are not
 * confirmed against the real service.
 * Answers are XML between `<RET_DOK>` tags (an empty `<RET_DOK></RET_DOK>` when a list finds nothing) unless the
 * request sends `Accept: application/json`, as GAMA documents it ("Accept: Neprivalomas. Gražinamo rezultato
 * (response) formatas: application/xml (default), application/json", gidas.rivile.lt api_rest pages); the JSON body
 * of an answer (`{ N08: [...] }`) and the XML form of an error are this stand-in's, not documented.
 *
 * Tests only: `delays` makes the stand-in slow, as GAMA can be — `standIn.delays.GET_N17_LIST = 24_000` answers every
 * GET_N17_LIST call that many milliseconds late (the request is read and checked first; other methods answer at once).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

type Row = Record<string, unknown> & { _creator: string };
export interface RivileTables {
  N08: Row[];
  N17: Row[];
  I06: Row[];
}

const KEY_OF: Record<keyof RivileTables, (r: Record<string, unknown>) => string> = {
  N08: (r) => String(r.N08_KODAS_KS ?? ''),
  N17: (r) => String(r.N17_KODAS_PS ?? ''),
  I06: (r) => `${r.I06_OP_TIP}|${r.I06_KODAS_KS}|${r.I06_DOK_NR}`,
};

class RivileError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function xmlText(value: unknown): string {
  return String(value ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `{ N08: [{…}, {…}] }` as `<N08>…</N08><N08>…</N08>`: arrays repeat their tag, objects nest (I07 inside I06). */
function xmlOf(value: Record<string, unknown>): string {
  return Object.entries(value)
    .flatMap(([tag, v]) => (Array.isArray(v) ? v : [v]).map((item) => [tag, item] as const))
    .map(([tag, item]) => `<${tag}>${item && typeof item === 'object' ? xmlOf(item as Record<string, unknown>) : xmlText(item)}</${tag}>`)
    .join('');
}

function filterRows(rows: Row[], fil: unknown): Row[] {
  if (typeof fil !== 'string' || !fil.trim()) return rows;
  const conds = fil.split(/\s+AND\s+/i).map((c) => /^\s*([A-Z0-9_]+)\s*=\s*'((?:[^']|'')*)'\s*$/i.exec(c));
  if (conds.some((c) => !c)) throw new RivileError(400, '400', 'Unsupported filter');
  return rows.filter((r) => conds.every((c) => String(r[c![1]!.toUpperCase()] ?? '') === c![2]!.replace(/''/g, "'")));
}

export interface RivileStandIn {
  tables: RivileTables;
  /** API keys accepted (the first 7 characters are the GAMA user). */
  keys: Set<string>;
  /** Every call received, for tests: method and key's user. */
  calls: { method: string; user: string }[];
  /** Tests only: milliseconds to wait before answering a call of the method (a slow GAMA); none by default. */
  delays: Partial<Record<string, number>>;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createRivileStandIn(opts: { keys?: string[]; file?: string } = {}): RivileStandIn {
  const tables: RivileTables =
    opts.file && existsSync(opts.file) ? (JSON.parse(readFileSync(opts.file, 'utf8')) as RivileTables) : { N08: [], N17: [], I06: [] };
  const keys = new Set(opts.keys ?? []);
  const calls: { method: string; user: string }[] = [];
  const delays: Partial<Record<string, number>> = {};
  const save = () => {
    if (opts.file) writeFileSync(opts.file, JSON.stringify(tables));
  };

  const edit = (table: keyof RivileTables, params: Record<string, unknown>, data: Record<string, unknown> | undefined, user: string) => {
    const record = data?.[table];
    if (Array.isArray(record)) throw new RivileError(400, '400', 'One record per call');
    if (!record || typeof record !== 'object') throw new RivileError(400, '400', `data.${table} is required`);
    const r = record as Record<string, unknown>;
    const oper = String(params.oper ?? 'I').toUpperCase();
    const key = KEY_OF[table](r);
    if (table === 'N08' && (!r.N08_KODAS_KS || !r.N08_PAV)) throw new RivileError(400, '400', 'N08_KODAS_KS and N08_PAV are required');
    if (table === 'N17' && (!r.N17_KODAS_PS || !r.N17_PAV)) throw new RivileError(400, '400', 'N17_KODAS_PS and N17_PAV are required');
    if (table === 'I06') {
      if (!['1', '2', '51', '52'].includes(String(r.I06_OP_TIP))) throw new RivileError(400, '400', 'I06_OP_TIP must be 1, 2, 51 or 52');
      if (!r.I06_DOK_NR) throw new RivileError(400, '400', 'I06_DOK_NR is required');
      for (const f of ['I06_OP_DATA', 'I06_DOK_DATA']) if (!/^\d{4}-\d{2}-\d{2}$/.test(String(r[f] ?? ''))) throw new RivileError(400, '400', `${f} must be YYYY-MM-DD`);
      if (!tables.N08.some((c) => c.N08_KODAS_KS === r.I06_KODAS_KS)) throw new RivileError(400, '400', `Client ${String(r.I06_KODAS_KS)} does not exist`);
      const lines = r.I07;
      if (!Array.isArray(lines) || lines.length === 0) throw new RivileError(400, '400', 'I07 lines are required');
      for (const l of lines as Record<string, unknown>[]) {
        if (!tables.N17.some((i) => i.N17_KODAS_PS === l.I07_KODAS)) throw new RivileError(400, '400', `Item ${String(l.I07_KODAS)} does not exist`);
      }
    }
    const existing = tables[table].findIndex((x) => KEY_OF[table](x) === key);
    if (oper === 'I') {
      if (existing >= 0) throw new RivileError(409, '409', `Record ${key} already exists`);
      const row: Row = { ...r, _creator: user };
      tables[table].push(row);
      save();
      return { [table]: stripCreator(row) };
    }
    if (oper === 'U') {
      if (existing < 0) throw new RivileError(404, '404', `Record ${key} not found`);
      if (tables[table][existing]!._creator !== user && params.allowOtherUsers !== true) {
        throw new RivileError(403, '403', `Record ${key} was created by another user`);
      }
      tables[table][existing] = { ...tables[table][existing]!, ...r };
      save();
      return { [table]: stripCreator(tables[table][existing]!) };
    }
    throw new RivileError(400, '400', `Unknown oper ${oper}`);
  };

  const list = (table: keyof RivileTables, params: Record<string, unknown>) => {
    const page = Math.max(1, Number(params.pagenumber ?? 1) || 1);
    const rows = filterRows(tables[table], params.fil);
    return { [table]: rows.slice((page - 1) * 100, page * 100).map(stripCreator) };
  };

  return {
    tables,
    keys,
    calls,
    delays,
    async handle(req, res) {
      const json = String(req.headers.accept ?? '').includes('application/json');
      const send = (status: number, body: Record<string, unknown>) => {
        if (json) {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
          return;
        }
        res.writeHead(status, { 'content-type': 'application/xml; charset=utf-8' });
        res.end(`<?xml version='1.0' encoding='UTF-8' ?>\n<RET_DOK>${xmlOf(body)}</RET_DOK>`);
      };
      try {
        if (req.method !== 'POST') throw new RivileError(405, '405', 'Only POST');
        const apiKey = String(req.headers.apikey ?? '');
        if (!keys.has(apiKey)) throw new RivileError(401, '401', 'Invalid API key');
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        let body: { method?: string; params?: Record<string, unknown>; data?: Record<string, unknown> };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        } catch {
          throw new RivileError(400, '400', 'Malformed JSON');
        }
        const user = apiKey.slice(0, 7);
        const method = String(body.method ?? '');
        calls.push({ method, user });
        const params = body.params ?? {};
        const handlers: Record<string, () => Record<string, unknown>> = {
          EDIT_N08: () => edit('N08', params, body.data, user),
          EDIT_N17: () => edit('N17', params, body.data, user),
          EDIT_I06: () => edit('I06', params, body.data, user),
          GET_N08_LIST: () => list('N08', params),
          GET_N17_LIST: () => list('N17', params),
          GET_I06_LIST: () => list('I06', params),
        };
        const run = handlers[method];
        if (!run) throw new RivileError(400, '400', `Unknown method ${method}`);
        const delay = delays[method] ?? 0;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay).unref());
        if (res.destroyed) return;
        send(200, run());
      } catch (error) {
        if (error instanceof RivileError) send(error.status, { error: { code: error.code, message: error.message } });
        else send(500, { error: { code: '500', message: 'Internal error' } });
      }
    },
  };
}

function stripCreator(row: Row): Record<string, unknown> {
  const { _creator: _ignored, ...rest } = row;
  return rest;
}

/** The stand-in on its own loopback port (tests). */
export async function startRivileServer(opts: { keys?: string[]; port?: number } = {}): Promise<RivileStandIn & { url: string; close(): Promise<void> }> {
  const standIn = createRivileStandIn({ keys: opts.keys });
  const server: Server = createServer((req, res) => void standIn.handle(req, res));
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...standIn,
    url: `http://127.0.0.1:${port}/client/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
