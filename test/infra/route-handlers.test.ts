/**
 * The route table and lambdas/ agree: every route names an existing handler file that exports `handler`,
 * and every handler file under lambdas/http/ is named by a route. Other entry points (WebSocket, triggers,
 * jobs) exist too. This is what makes "one Lambda per route" safe to derive from shared/routes.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as routeModule from '../../shared/routes';
import { routeKey, routes, triggerHandlers, websocketRoutes } from '../../shared/routes';
import { KNOWN_JOBS, allHandlers, handlerEntries, jobHandlersOf } from '../../infra/build/handler-entries';
import { LAMBDAS_DIR, handlerSourcePath } from '../../infra/build/paths';

/** A module is a handler file when it exports `handler` (export const/function/class, or export { … as handler }). */
const EXPORTS_HANDLER = /export\s+(?:const|let|var|async\s+function|function)\s+handler\b|export\s*\{[^}]*\bhandler\b[^}]*\}/;

function tsFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return tsFilesUnder(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function handlerNameOf(file: string): string {
  return relative(LAMBDAS_DIR, file).split(sep).join('/').replace(/\.ts$/, '');
}

describe('route table ↔ lambdas/', () => {
  it.each(routes.map((r) => [routeKey(r), r.handler]))('%s has its handler file lambdas/%s.ts exporting `handler`', (_key, handler) => {
    const file = handlerSourcePath(handler);
    expect(existsSync(file), `lambdas/${handler}.ts is missing`).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(EXPORTS_HANDLER);
  });

  it('every handler file under lambdas/http/ is named by a route', () => {
    const routed = new Set(routes.map((r) => r.handler));
    const handlerFiles = tsFilesUnder(join(LAMBDAS_DIR, 'http')).filter((f) => EXPORTS_HANDLER.test(readFileSync(f, 'utf8')));
    expect(handlerFiles.length).toBeGreaterThan(0);
    const unrouted = handlerFiles.map(handlerNameOf).filter((h) => !routed.has(h));
    expect(unrouted, 'handler files without a route in shared/routes.ts').toEqual([]);
  });

  it('routes are unique by method and path, and paths use API Gateway syntax', () => {
    const keys = routes.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of routes) expect(r.path).toMatch(/^\/[A-Za-z0-9\-_/{}.]*$/);
  });

  it.each([
    ...websocketRoutes.map((w) => [`WebSocket ${w.routeKey}`, w.handler]),
    ...Object.entries(triggerHandlers).map(([name, h]) => [`trigger ${name}`, h]),
    ...Object.entries(jobHandlersOf(routeModule)).map(([name, h]) => [`job ${name}`, h]),
  ])('%s has its handler file lambdas/%s.ts exporting `handler`', (_what, handler) => {
    const file = handlerSourcePath(handler!);
    expect(existsSync(file), `lambdas/${handler}.ts is missing`).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(EXPORTS_HANDLER);
  });

  it('the WebSocket API has $connect, $disconnect and $default', () => {
    expect(websocketRoutes.map((w) => w.routeKey)).toEqual(expect.arrayContaining(['$connect', '$disconnect', '$default']));
  });
});

describe('entry points derived from shared/routes.ts', () => {
  it('allHandlers lists every route, WebSocket, trigger and job handler once', () => {
    const entries = handlerEntries();
    const all = allHandlers(entries);
    expect(new Set(all).size).toBe(all.length);
    for (const r of routes) expect(all).toContain(r.handler);
    for (const w of websocketRoutes) expect(all).toContain(w.handler);
    expect(all).toContain(triggerHandlers.postConfirmation);
    expect(all).toContain(triggerHandlers.preSignUp);
    for (const h of Object.values(entries.jobs)) expect(all).toContain(h);
  });

  it('jobHandlersOf: an absent export means no jobs', () => {
    expect(jobHandlersOf({ routes: [] })).toEqual({});
  });

  it('jobHandlersOf: processDocument is taken as the queue consumer', () => {
    expect(jobHandlersOf({ jobHandlers: { processDocument: 'jobs/process-document' } })).toEqual({
      processDocument: 'jobs/process-document',
    });
    expect(Object.keys(KNOWN_JOBS)).toContain('processDocument');
  });

  it('jobHandlersOf: a job infra cannot wire, or a malformed export, fails loudly', () => {
    expect(() => jobHandlersOf({ jobHandlers: { nightlyReport: 'jobs/nightly' } })).toThrow(/no event source in infra/);
    expect(() => jobHandlersOf({ jobHandlers: ['jobs/process-document'] })).toThrow(/must be an object/);
    expect(() => jobHandlersOf({ jobHandlers: { processDocument: '' } })).toThrow(/handler path/);
  });
});
