import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { batchWrite } from '../../lambdas/adapters/ddb/table-ops';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, signInOn } from '../support/browser';
import { seededDocument } from '../support/document-records';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/**
 * The list's upload-date filter counts the days of the browser's time zone, the days its rows are dated with: in
 * Vilnius (UTC+2 in March) a document uploaded at 01:30 local time on 10 March is listed for 10 March, one uploaded
 * at 00:30 on 11 March (still 10 March in UTC) only for 11 March.
 */
describe('upload-date filter in the browser time zone (Chromium, Europe/Vilnius)', () => {
  let page: Page;
  const user = newUser('listtz');

  const e2e = useBrowserStack('list-tz');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    const seeded = [
      { name: 'rytas-0130.jpg', created_at: '2026-03-09T23:30:00.000Z' },
      { name: 'naktis-0030.jpg', created_at: '2026-03-10T22:30:00.000Z' },
    ].map((d, i) =>
      seededDocument({ receipt_id: `TZLIST${String(i).padStart(8, '0')}`, scope: `C#${companyId}`, created_at: d.created_at, original_file_name: d.name, status: 'review' }),
    );
    await batchWrite(seeded.flatMap((d) => documentItemsWithIndex(d).map((Item) => ({ PutRequest: { Item } }))));
    page = await signInOn(await e2e.browser.newPage({ viewport: { width: 1440, height: 950 }, timezoneId: 'Europe/Vilnius' }), e2e.stack.url, user);
  });

  const rowsFor = async (day: string) => {
    await page.goto(`${e2e.stack.url}/receipts/inbox?from=${day}&to=${day}`);
    const rows = page.getByTestId('receipt-row');
    await until(async () => (await rows.count()) + (await page.getByTestId('receipts-empty').count())).toBeGreaterThan(0);
    return rows;
  };

  it('lists a document under the local day its row is dated with', async () => {
    const tenth = await rowsFor('2026-03-10');
    await until(() => tenth.count()).toBe(1);
    expect(await tenth.first().innerText()).toContain('rytas-0130.jpg');
    expect(await tenth.first().locator('.col-date').innerText()).toContain('10');
    await screenshot(page, 'list-tz-vilnius-10-mar');

    const eleventh = await rowsFor('2026-03-11');
    await until(() => eleventh.count()).toBe(1);
    expect(await eleventh.first().innerText()).toContain('naktis-0030.jpg');
    expect(await eleventh.first().locator('.col-date').innerText()).toContain('11');

    const ninth = await rowsFor('2026-03-09');
    await until(() => page.getByTestId('receipts-empty').count()).toBe(1);
    expect(await ninth.count()).toBe(0);
  });
});
