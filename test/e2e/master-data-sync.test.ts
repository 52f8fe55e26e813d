/** The Integration screen in Chromium: SQL import switched on against a real PostgreSQL, Sync now, status shown. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalPostgres, type LocalPostgres } from '../../scripts/local/postgres';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, signInPage } from '../support/browser';
import { DB_TEST_CERT, DB_TEST_KEY } from '../support/db-test-cert';
import { newUser } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const DB_PASSWORD = 'Browser-Db-Pass-77';

describe('SQL import on the Integration screen in Chromium', () => {
  let db: LocalPostgres;
  const user = newUser('sqlimporter');

  const e2e = useBrowserStack('sql');
  beforeAll(async () => {
    // The server offers TLS with a self-signed certificate, as many an office's database server does.
    db = await startLocalPostgres({ portRange: [48100, 48900], tls: { cert: DB_TEST_CERT, key: DB_TEST_KEY } });
    const root = await db.admin();
    await root.query(`CREATE ROLE shop LOGIN PASSWORD '${DB_PASSWORD}'`);
    await root.query('CREATE DATABASE shop OWNER shop');
    await root.end();
    const c = await db.admin('shop');
    await c.query(`CREATE TABLE suppliers (code text PRIMARY KEY, name text, vat_code text, address text, city text, postcode text, country text, email text)`);
    await c.query(`INSERT INTO suppliers VALUES ('T1', 'Baltijos Prekyba UAB', 'LT100001234567', 'Konstitucijos pr. 7', 'Vilnius', '09308', 'LT', 'info@baltprek.lt'), ('T2', 'Kuro Tiekimas UAB', NULL, NULL, 'Kaunas', NULL, 'LT', NULL)`);
    await c.query(`CREATE TABLE customers (LIKE suppliers)`);
    await c.query(`INSERT INTO customers VALUES ('P1', 'Nemuno Statyba AB', 'LT100005555555', NULL, 'Klaipėda', NULL, 'LT', NULL)`);
    await c.query(`CREATE TABLE categories (code text PRIMARY KEY, name text)`);
    await c.query(`INSERT INTO categories VALUES ('FUEL', 'Fuel')`);
    await c.query(`CREATE TABLE items (code text PRIMARY KEY, name text)`);
    await c.query(`INSERT INTO items VALUES ('DYZ', 'Dyzelinas')`);
    await c.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO shop');
    await c.end();
    await registerUser(e2e.stack, user);
  }, 180_000);
  afterAll(async () => {
    await db?.stop();
  });

  it('switches SQL on through its pop-up (a wrong password stays off), syncs now and shows what it imported', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1400, height: 1000 });
    await page.getByRole('link', { name: 'Integration' }).click();
    await page.getByTestId('integration-page').waitFor();

    await page.getByTestId('toggle-sql_import').click({ force: true });
    const popup = page.getByTestId('sql-credentials-popup');
    await popup.waitFor();
    await popup.locator('input[name="host"]').fill(db.host);
    await popup.locator('input[name="user"]').fill('shop');
    await popup.locator('input[name="password"]').fill('not-the-password');
    await popup.locator('input[name="port"]').fill(String(db.port));
    await popup.locator('input[name="database"]').fill('shop');
    // The certificate is checked by default: a self-signed one is refused, with what to do about it
    const trust = popup.getByRole('checkbox', { name: 'Trust the server certificate' });
    expect(await trust.isChecked()).toBe(false);
    // A server without TLS is refused unless allowed: the box is off, and offered only where the engine may lack TLS
    const plain = popup.getByRole('checkbox', { name: 'Allow an unencrypted connection' });
    expect(await plain.isChecked()).toBe(false);
    await popup.getByLabel('Engine').selectOption('mssql');
    expect(await plain.count()).toBe(0);
    await popup.getByLabel('Engine').selectOption('postgres');
    expect(await plain.isChecked()).toBe(false);
    await popup.getByRole('button', { name: 'SAVE' }).click();
    const hostError = popup.getByTestId('error-host');
    await hostError.waitFor();
    expect(await hostError.innerText()).toMatch(/^The certificate of 127\.0\.0\.1:\d+ was not accepted \(self-signed certificate\)\. Tick Trust the server certificate only/);
    await screenshot(page, 'sql-import-certificate-refused');
    expect(await page.getByTestId('toggle-sql_import').isChecked()).toBe(false);
    // The server's own authority pasted: checked as PEM in the form, then the certificate is accepted and the login is
    // what the server refuses
    const authority = popup.getByLabel('Certificate authority (optional)');
    await authority.fill('MIIB copied without its lines');
    await popup.getByRole('button', { name: 'SAVE' }).click();
    await expect
      .poll(() => popup.getByTestId('error-ca_certificate').innerText(), { timeout: 15_000 })
      .toBe('Paste the certificate as PEM text, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----');
    await authority.fill(DB_TEST_CERT);
    await popup.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => hostError.innerText(), { timeout: 15_000 }).toMatch(/password authentication failed/);
    await screenshot(page, 'sql-import-wrong-password');
    expect(await page.getByTestId('toggle-sql_import').isChecked()).toBe(false);

    await popup.locator('input[name="password"]').fill(DB_PASSWORD);
    await popup.getByRole('button', { name: 'SAVE' }).click();
    await popup.waitFor({ state: 'detached' });
    expect(await page.getByTestId('toggle-sql_import').isChecked()).toBe(true);
    const panel = page.getByTestId('import-status-sql_import');
    await panel.waitFor();
    expect(await page.getByTestId('sql-connection').innerText()).toContain(`PostgreSQL · ${db.host} · shop`);

    await page.getByTestId('sync-now-sql_import').click();
    const counts = page.getByTestId('import-counts-sql_import');
    await counts.waitFor();
    await page
      .getByTestId('import-last-run-sql_import')
      .getByText('Done')
      .waitFor()
      .catch(async (error: unknown) => {
        await screenshot(page, 'sql-import-status-failed');
        throw error;
      });
    await screenshot(page, 'sql-import-status');
    expect(await counts.innerText()).toContain('Suppliers: 2 new, 0 updated, 0 unchanged');
    expect(await counts.innerText()).toContain('Customers: 1 new');
    expect(await page.getByTestId('import-last-run-sql_import').innerText()).toMatch(/sync now\) — Done/);

    await page.getByTestId('toggle-sql-mapping').click();
    await page.getByTestId('sql-mapping').waitFor();
    expect(await page.getByTestId('mapping-suppliers-table').inputValue()).toBe('suppliers');
    await page.getByTestId('mapping-items-enabled').uncheck();
    await page.getByTestId('save-sql-mapping').click();
    await page.getByText('Mapping saved; the next sync reads with it.').waitFor();
    await screenshot(page, 'sql-import-mapping');

    // A column the database does not have: the save is refused on that field, and nothing is saved
    await page.getByTestId('mapping-suppliers-name').fill('no_such_col');
    await page.getByTestId('save-sql-mapping').click();
    const refusal = 'Suppliers Name column: column "no_such_col" does not exist';
    await expect.poll(() => page.getByTestId('sql-mapping-error').innerText(), { timeout: 15_000 }).toBe(refusal);
    expect(await page.getByTestId('error-suppliers.name').innerText()).toBe(refusal);
    expect(await page.getByTestId('mapping-suppliers-name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('sql-mapping-saved').count()).toBe(0);
    await screenshot(page, 'sql-import-mapping-refused');
    await page.getByTestId('mapping-suppliers-name').fill('name');
    expect(await page.getByTestId('error-suppliers.name').count()).toBe(0);

    // A column renamed in the database after the mapping was saved: the run fails and says which mapping, in red
    const error = page.getByTestId('import-error-sql_import');
    const source = await db.admin('shop');
    await source.query('ALTER TABLE suppliers RENAME COLUMN name TO supplier_name');
    await page.getByTestId('sync-now-sql_import').click();
    await expect.poll(() => page.getByTestId('import-last-run-sql_import').innerText(), { timeout: 20_000 }).toMatch(/— Failed$/);
    await expect.poll(() => error.innerText()).toMatch(/^Last error \(.+\): Suppliers mapping \(table suppliers\): column "name" does not exist/);
    expect(await error.getAttribute('role')).toBe('alert');
    // Put right, the next run is done and the error is told as behind it, no longer as the import's state
    await source.query('ALTER TABLE suppliers RENAME COLUMN supplier_name TO name');
    await source.end();
    await page.getByTestId('sync-now-sql_import').click();
    await expect.poll(() => page.getByTestId('import-last-run-sql_import').innerText(), { timeout: 20_000 }).toMatch(/— Done$/);
    await expect.poll(() => error.innerText()).toMatch(/^Earlier error \(.+\), before the last run: Suppliers mapping \(table suppliers\): column "name" does not exist/);
    expect(await error.getAttribute('role')).toBeNull();
    await screenshot(page, 'sql-import-error-behind');

    await page.getByRole('link', { name: 'Suppliers' }).click();
    await page.getByText('Baltijos Prekyba UAB').waitFor();
    await screenshot(page, 'sql-import-suppliers');

    // Switched off, its credentials are deleted: the status keeps the last run, says it is off, and no longer shows
    // the connection, its mapping or Sync now
    await page.getByRole('link', { name: 'Integration' }).click();
    const sqlSwitch = page.getByTestId('toggle-sql_import');
    await expect.poll(() => sqlSwitch.isChecked(), { timeout: 15_000 }).toBe(true);
    await sqlSwitch.click({ force: true });
    await page.getByTestId('switch-off-modal').getByRole('button', { name: 'Switch off' }).click();
    await expect.poll(() => sqlSwitch.isChecked(), { timeout: 15_000 }).toBe(false);
    await expect
      .poll(() => page.getByTestId('import-off-sql_import').innerText(), { timeout: 15_000 })
      .toBe('Switched off. Its last run is kept below; switch it on under Import to run it again.');
    expect(await page.getByTestId('import-last-run-sql_import').innerText()).toMatch(/— Done$/);
    expect(await page.getByTestId('sql-connection').count()).toBe(0);
    expect(await page.getByTestId('toggle-sql-mapping').count()).toBe(0);
    expect(await page.getByTestId('sync-now-sql_import').count()).toBe(0);
    await screenshot(page, 'sql-import-switched-off');
  }, 120_000);
});
