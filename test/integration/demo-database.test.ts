/**
 * Local mode's demo accounting database (scripts/local/demo-database.ts, started by `npm start`): a real PostgreSQL
 * server with TLS whose certificate the demo company's SQL import checks, read through the real API with the
 * credentials `npm start` switches on, and its certificate kept across starts (the stored credentials name it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSqlCredential, startDemoDatabase, type DemoDatabase } from '../../scripts/local/demo-database';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { syncUntilDone } from '../support/master-data-sync';

describe('local mode: the demo accounting database', () => {
  let t: TestStack;
  let db: DemoDatabase | undefined;
  const certDir = mkdtempSync(path.join(tmpdir(), 'receipts-sql-demo-'));

  beforeAll(async () => {
    db = await startDemoDatabase({ port: 0, certDir });
    t = await startTestStack();
  }, 180_000);
  afterAll(async () => {
    await t?.stop();
    await db?.stop();
    rmSync(certDir, { recursive: true, force: true });
  });

  it('serves the default tables over TLS checked against its own certificate; the import brings them marked DB', async () => {
    expect(db!.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(demoSqlCredential(db!)).not.toHaveProperty('allow_unencrypted');
    const { api, companyId } = await registeredUser(t.stack, 'sqldemo');
    const on = await api.post(`/company/service?company_id=${companyId}`, { type: 'sql_import', enabled: true, credential: demoSqlCredential(db!) });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    // Another certificate than the server's is refused: the demo's import really checks it
    const other = await api.post(`/company/service?company_id=${companyId}`, {
      type: 'sql_import',
      enabled: true,
      credential: { ...demoSqlCredential(db!), ca_certificate: (await import('../support/db-test-cert')).DB_TEST_CERT },
    });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ details: [{ path: ['host'], message: expect.stringMatching(/^The certificate of 127\.0\.0\.1:\d+ was not accepted/) }] });

    const run = await syncUntilDone(api, companyId, 'sql_import');
    expect(run).toMatchObject({ outcome: 'done', error: null });
    expect(run.counts).toMatchObject({
      suppliers: { created: 4, rejected: 0 },
      customers: { created: 2, rejected: 0 },
      categories: { created: 3, rejected: 0 },
      items: { created: 3, rejected: 0 },
    });
    const suppliers = (await api.get(`/stakeholders?company_id=${companyId}&type=supplier&with_external_data=1&limit=50`)).body as { items: { name: string; external: boolean }[] };
    expect(suppliers.items.filter((s) => s.external).map((s) => s.name)).toContain('Nordic Cloud Services AB');
  });

  it('keeps its certificate for the next start, and the server and its rows are made again', async () => {
    const first = readFileSync(path.join(certDir, 'server.crt'), 'utf8');
    await db!.stop();
    db = await startDemoDatabase({ port: 0, certDir });
    expect(db.certificate).toBe(first);
    const { api, companyId } = await registeredUser(t.stack, 'sqldemo2');
    const on = await api.post(`/company/service?company_id=${companyId}`, { type: 'sql_import', enabled: true, credential: demoSqlCredential(db) });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
  }, 120_000);
});
