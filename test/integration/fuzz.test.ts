/**
 * Malformed, wrongly typed, over-long and missing input for EVERY route of the route table, as a signed-in
 * company administrator who is also a platform administrator (so that every route's code runs past its
 * access check). The inputs are generated from the route table and each handler's zod schemas, so a new
 * route is covered without writing anything here. No answer may be a 5xx.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { registerUser } from '../../scripts/local/seed';
import { routes, type RouteDef } from '../../shared/routes';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { resetEnvCache } from '../../lambdas/runtime/env';
import { apiClient, newUser, signIn, startTestStack, uploadDocument, type TestStack } from '../support/local-stack';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: Json[];
  const?: Json;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  minimum?: number;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  minItems?: number;
  additionalProperties?: JsonSchema | boolean;
  format?: string;
  pattern?: string;
}
interface Schemas {
  body?: ZodType;
  query?: ZodType;
  path?: ZodType;
}

function toJsonSchema(schema: ZodType | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
  } catch {
    return {};
  }
}

/** Follows local $refs (#/$defs/… and #). */
function resolve(s: JsonSchema, root: JsonSchema): JsonSchema {
  if (!s.$ref) return s;
  if (s.$ref === '#') return root;
  const name = s.$ref.replace(/^#\/\$defs\//, '');
  return root.$defs?.[name] ?? {};
}

const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

/** A plausible value of the schema (the base the mutations start from). */
function sample(schema: JsonSchema, root: JsonSchema, depth = 0): Json {
  const s = resolve(schema, root);
  if (depth > 6) return null;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0]!;
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return sample(alt.find((a) => typeOf(resolve(a, root)) !== 'null') ?? alt[0]!, root, depth + 1);
  if (s.allOf?.length) return sample(s.allOf[0]!, root, depth + 1);
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = sample(v, root, depth + 1);
      return out;
    }
    case 'array':
      return s.items ? [sample(s.items, root, depth + 1)] : (s.prefixItems ?? []).map((p) => sample(p, root, depth + 1));
    case 'string':
      if (s.format === 'date') return '2024-01-31';
      if (s.format === 'date-time') return '2024-01-31T10:00:00.000Z';
      if (s.format === 'email') return 'someone@example.com';
      if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      return 'a'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return 'a';
  }
}

/** A string at its schema's maximum made of 4-byte characters (the most bytes a valid value can carry). */
const widest = (s: JsonSchema) => '\u{1D54F}'.repeat(Math.floor(Math.min(s.maxLength ?? 5000, 50_000) / 2));

/** Values that break a field of this schema: wrong types, over-long, over-full, and the widest valid value. */
function badValues(schema: JsonSchema, root: JsonSchema): Json[] {
  const s = resolve(schema, root);
  const values: Json[] = [null, {}, 'x'.repeat(100_000)];
  const t = typeOf(s);
  if (t === 'string') values.push(widest(s), ' '.repeat(s.maxLength ?? 10));
  if (t === 'array') {
    const item = s.items ? sample(s.items, root) : 'a';
    values.push(Array.from({ length: Math.min(s.maxItems ?? 5000, 5000) }, () => item));
    if (s.items && typeOf(resolve(s.items, root)) === 'string') values.push(Array.from({ length: Math.min(s.maxItems ?? 50, 50) }, () => widest(resolve(s.items!, root))));
  }
  if (t === 'integer' || t === 'number') values.push(1e308, -1, 0.5);
  return values;
}

/** Paths of fields to mutate: top-level fields, fields of objects and of the first element of arrays (bounded). */
function fieldPaths(schema: JsonSchema, root: JsonSchema, prefix: (string | number)[] = [], depth = 0): { path: (string | number)[]; schema: JsonSchema }[] {
  const s = resolve(schema, root);
  if (depth > 3) return [];
  const out: { path: (string | number)[]; schema: JsonSchema }[] = [];
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) {
    const first = alt.find((a) => typeOf(resolve(a, root)) !== 'null');
    return first ? fieldPaths(first, root, prefix, depth + 1) : [];
  }
  if (typeOf(s) === 'object') {
    for (const [k, v] of Object.entries(s.properties ?? {})) {
      out.push({ path: [...prefix, k], schema: v });
      out.push(...fieldPaths(v, root, [...prefix, k], depth + 1));
    }
  }
  if (typeOf(s) === 'array' && s.items) {
    out.push({ path: [...prefix, 0], schema: s.items });
    out.push(...fieldPaths(s.items, root, [...prefix, 0], depth + 1));
  }
  return out;
}

function withValue(base: Json, path: (string | number)[], value: Json): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const arr = Array.isArray(base) ? [...base] : [];
    arr[head] = withValue(arr[head] ?? null, rest, value);
    return arr;
  }
  const obj = base && typeof base === 'object' && !Array.isArray(base) ? { ...base } : {};
  obj[head!] = withValue(obj[head!] ?? null, rest, value);
  return obj;
}

function withoutField(base: Json, key: string): Json {
  if (!base || typeof base !== 'object' || Array.isArray(base)) return base;
  const { [key]: _dropped, ...rest } = base;
  return rest;
}

interface Case {
  route: RouteDef;
  what: string;
  path: string;
  query: Record<string, string>;
  raw?: string;
}

const PATH_VALUES = ['x'.repeat(256), '\u{1D54F}'.repeat(128), '..', ' ', '%00', '%2F%2F', '%F0%9F%98%80', '-1', 'null', 'COMPANY%23x'];

function fillPath(route: RouteDef, value: (name: string) => string): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = value(name);
    return /%[0-9A-F]{2}/i.test(v) ? v : encodeURIComponent(v);
  });
}

/** Every case of one route: body, query and path mutations around a plausible request. */
function casesOf(route: RouteDef, schemas: Schemas, companyId: string, knownId: string): Case[] {
  const out: Case[] = [];
  const bodySchema = toJsonSchema(schemas.body);
  const querySchema = toJsonSchema(schemas.query);
  const okPath = fillPath(route, () => knownId);
  const baseQuery: Record<string, string> = {};
  if (querySchema) {
    for (const [k, v] of Object.entries(querySchema.properties ?? {})) {
      const value = sample(v, querySchema);
      baseQuery[k] = typeof value === 'object' ? JSON.stringify(value) : String(value);
    }
  }
  baseQuery.company_id = companyId;
  const baseBody: Json = bodySchema ? sample(bodySchema, bodySchema) : {};
  const add = (what: string, c: Partial<Case>) => out.push({ route, what, path: okPath, query: baseQuery, ...c });

  add('plausible request', { raw: JSON.stringify(baseBody) });
  add('no query parameters', { query: {} });
  // GET sends no body: its cases are the query's and the path's.
  if (route.method !== 'GET') {
    for (const raw of ['{', 'null', '"text"', '{"__proto__":{"x":1}}', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]']) add(`body ${raw.slice(0, 12)}`, { raw });
  }
  if (bodySchema && route.method !== 'GET') {
    add('empty body object', { raw: '{}' });
    for (const key of bodySchema.required ?? []) add(`body without ${key}`, { raw: JSON.stringify(withoutField(baseBody, key)) });
    for (const field of fieldPaths(bodySchema, bodySchema).slice(0, 20)) {
      for (const bad of badValues(field.schema, bodySchema)) {
        add(`body ${field.path.join('.')} = ${JSON.stringify(bad).slice(0, 24)}`, { raw: JSON.stringify(withValue(baseBody, field.path, bad)) });
      }
    }
  }
  const queryKeys = new Set([...Object.keys(querySchema?.properties ?? {}), 'company_id']);
  for (const key of queryKeys) {
    for (const bad of ['', 'x'.repeat(2048), '\u{1D54F}'.repeat(512), '-1', '%00', 'NONE']) {
      add(`query ${key} = ${bad.slice(0, 12)}`, { query: { ...baseQuery, [key]: bad } });
    }
  }
  if (route.path.includes('{')) {
    for (const value of ['unknown-id', ...PATH_VALUES]) add(`path = ${value.slice(0, 12)}`, { path: fillPath(route, () => value) });
  }
  return out;
}

async function send(apiUrl: string, token: string, c: Case): Promise<{ status: number; text: string }> {
  const qs = new URLSearchParams(c.query).toString();
  const hasBody = c.route.method !== 'GET' && c.raw !== undefined;
  const res = await fetch(`${apiUrl}${c.path}${qs ? `?${qs}` : ''}`, {
    method: c.route.method,
    headers: { authorization: `Bearer ${token}`, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
    body: hasBody ? c.raw : undefined,
  });
  return { status: res.status, text: await res.text() };
}

/** Runs the cases `width` at a time. */
async function runAll<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]!);
      }
    }),
  );
  return results;
}

describe('every route of the route table under malformed input', () => {
  let t: TestStack;
  let token: string;
  let companyId: string;
  let documentId: string;
  const user = newUser('fuzz');
  beforeAll(async () => {
    // DELETE routes get a company of their own each (DELETE /company removes it), so the cap is raised.
    process.env.MAX_COMPANIES_PER_USER = '1000';
    resetEnvCache();
    t = await startTestStack({ globalAdminEmails: [user.email] });
    await registerUser(t.stack, user);
    token = await signIn(t.stack, user);
    const api = apiClient(t.stack.apiUrl, token);
    const companies = (await api.get('/companies')).body as { items: { company_id: string }[] };
    companyId = companies.items[0]!.company_id;
    // One real document, so that the routes of a document run past their look-up.
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.addPage([595, 842]).drawText('Invoice 1 total 12.10 EUR', { x: 50, y: 780, size: 14, font });
    const { request } = await uploadDocument(api, { company_id: companyId, original_file_name: 'fuzz.pdf' }, await pdf.save());
    expect(request.status).toBe(200);
    await t.stack.jobs.idle();
    const list = (await api.get(`/receipts?company_id=${companyId}`)).body as { items: { receipt_id: string }[] };
    documentId = list.items[0]!.receipt_id;
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    delete process.env.MAX_COMPANIES_PER_USER;
    resetEnvCache();
  });

  it('answers no 5xx to any generated input, on any route', async () => {
    const api = apiClient(t.stack.apiUrl, token);
    const shared: Case[] = [];
    const deleting: Case[][] = [];
    for (const route of routes) {
      const mod = (await import(/* @vite-ignore */ path.resolve('lambdas', `${route.handler}.ts`))) as { handler: { schemas?: Schemas } };
      expect(mod.handler.schemas, `${route.handler} is built with httpHandler`).toBeDefined();
      if (route.method !== 'DELETE') {
        shared.push(...casesOf(route, mod.handler.schemas!, companyId, documentId));
        continue;
      }
      const own = await api.post('/company', { company_name: `Fuzz ${route.path} UAB`, code: `${deleting.length + 1}` });
      expect(own.status).toBe(201);
      deleting.push(casesOf(route, mod.handler.schemas!, (own.body as { company_id: string }).company_id, documentId));
    }
    const cases = [...shared, ...deleting.flat()];
    // Every route is exercised, with many cases each.
    expect(new Set(cases.map((c) => `${c.route.method} ${c.route.path}`)).size).toBe(routes.length);
    const results = [
      ...(await runAll(shared, 8, (c) => send(t.stack.apiUrl, token, c))),
      ...(await runAll(deleting, 6, async (list) => {
        const out: { status: number; text: string }[] = [];
        for (const c of list) out.push(await send(t.stack.apiUrl, token, c));
        return out;
      })).flat(),
    ];
    const failures = cases
      .map((c, i) => ({ c, r: results[i]! }))
      .filter(({ r }) => r.status >= 500)
      .map(({ c, r }) => `${c.route.method} ${c.route.path} [${c.what}] → ${r.status} ${r.text.slice(0, 300)}`);
    expect(failures).toEqual([]);
    // The answers are the API's: validation and access errors, not only successes.
    expect(results.some((r) => r.status === 400 || r.status === 422)).toBe(true);
  }, 300_000);
});
