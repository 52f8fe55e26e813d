/** The master-data imports' integration tests: a PostgreSQL source database, "sync now" to the end, whole paged lists. */
import type pg from 'pg';
import { expect } from 'vitest';
import { startLocalPostgres, type LocalPostgres } from '../../scripts/local/postgres';
import type { SyncRunView } from '../../shared/schemas/master-data-sync';
import type { apiClient } from './local-stack';

type Api = ReturnType<typeof apiClient>;

/**
 * A throwaway PostgreSQL server with a login role `user` owning the database `database` (made with `createOptions`,
 * e.g. an encoding), and a superuser client on that database for filling it (the caller ends it).
 */
export async function postgresSource(o: {
  user: string;
  password: string;
  database: string;
  createOptions?: string;
  tls?: { cert: string; key: string };
}): Promise<{ db: LocalPostgres; source: pg.Client }> {
  const db = await startLocalPostgres({ portRange: [48100, 48900], tls: o.tls });
  try {
    const root = await db.admin();
    await root.query(`CREATE ROLE ${o.user} LOGIN PASSWORD '${o.password}'`);
    await root.query(`CREATE DATABASE ${o.database} OWNER ${o.user}${o.createOptions ? ` ${o.createOptions}` : ''}`);
    await root.end();
    return { db, source: await db.admin(o.database) };
  } catch (e) {
    await db.stop();
    throw e;
  }
}

/** "Sync now" of the import `type` until the run is done (a run stops at its time budget and the next one continues it). */
export async function syncUntilDone(api: Api, companyId: string, type: string): Promise<SyncRunView> {
  for (;;) {
    const r = await api.post(`/company/service/imports/sync?company_id=${companyId}`, { type });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const run = r.body as SyncRunView;
    if (run.outcome !== 'partial') return run;
  }
}

/** Every item of a paged list (`url` with its query), 50 a page. */
export async function allPages<T>(api: Api, url: string): Promise<T[]> {
  const out: T[] = [];
  let next: string | null = null;
  do {
    const r = await api.get(`${url}&limit=50${next ? `&next=${encodeURIComponent(next)}` : ''}`);
    expect(r.status).toBe(200);
    const page = r.body as { items: T[]; next: string | null };
    out.push(...page.items);
    next = page.next;
  } while (next);
  return out;
}
