import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/**
 * In the all-companies view the list holds every company's documents, newest first across them; the edit screen
 * opened from it walks that list: Next and Previous go on to a document of another company (opened with its company,
 * which becomes the active one), n/total counts every company's, and CONFIRM moves on across companies too.
 */
describe('edit screen opened from the all-companies view in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  const company: Record<'first' | 'second', string> = { first: '', second: '' };
  const ids: Record<string, string> = {};
  const companyOf: Record<string, string> = {};
  const user = newUser('walkall');
  const statusOf = async (key: string) => ((await api.get(`/receipts/${ids[key]}?company_id=${companyOf[key]}`)).body as { status: string }).status;

  const e2e = useBrowserStack('walk-all');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    company.first = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    const created = await api.post('/company', { company_name: 'Walk Second UAB', code: '300200101' });
    expect(created.status).toBeLessThan(300);
    company.second = (created.body as { company_id: string }).company_id;
    // Uploaded one after the other, newest first in the all-companies list: second-2, first-2, second-1, first-1
    for (const n of [1, 2]) {
      for (const which of ['first', 'second'] as const) {
        const key = `${which}-${n}`;
        companyOf[key] = company[which];
        ids[key] = await uploadDocument(e2e.stack, api, company[which], await invoicePdf({ ...SAMPLE_INVOICE, number: `${which.toUpperCase()}-${n}` }), `${key}.pdf`);
      }
    }
  });

  it('Next, Previous, n/total and CONFIRM go from one company to the other', async () => {
    const status = await statusOf('first-1');
    expect(await Promise.all(Object.keys(ids).map(statusOf))).toEqual(Object.keys(ids).map(() => status));
    expect(['ready', 'review']).toContain(status);

    const page: Page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.getByText('VIEW ALL COMPANIES').click();
    await until(() => page.getByTestId('header-identity').innerText()).toContain('All - ');
    // the dashboard marks no company as the one worked in
    await until(() => page.locator('.company-card[aria-current="true"]').count()).toBe(0);
    expect(await page.locator('.company-card').getByText('Active', { exact: true }).count()).toBe(0);
    await screenshot(page, 'dashboard-all-companies');

    const pager = () => page.getByTestId('pager-position').innerText();
    // the document, opened with its own company
    const at = (key: string) =>
      page.waitForURL(new RegExp(`/edit-receipt/${ids[key]}\\?company_id=${companyOf[key]}$`), { timeout: 15_000 }).catch((e: Error) => {
        const shown = Object.keys(ids).find((k) => page.url().includes(`/edit-receipt/${ids[k]}?`)) ?? page.url();
        throw new Error(`expected ${key}, the screen shows ${shown} (${page.url()}): ${e.message}`);
      });
    const ready = async () => {
      await until(() => page.getByTestId('field-form').count()).toBe(1);
      await until(() => page.getByTestId('status-actions').getByRole('button', { name: 'CONFIRM', exact: true }).isEnabled()).toBe(true);
    };

    await page.goto(`${e2e.stack.url}/receipts/${status}`);
    const rows = page.getByTestId('receipt-row');
    await until(() => rows.count()).toBe(4);

    // A CSV of every company's documents: an added field "Company" tells them apart (the default columns name none)
    await page.getByRole('checkbox', { name: 'Select all' }).check({ force: true });
    await page.getByRole('toolbar', { name: 'Document actions' }).getByRole('button', { name: 'Export' }).click();
    const exportModal = page.getByTestId('export-modal');
    await exportModal.locator('input[name="new_field"]').fill('Company');
    await exportModal.getByRole('button', { name: 'Add', exact: true }).click();
    await until(() => exportModal.getByTestId('export-field').last().getAttribute('data-key')).toBe('company');
    await screenshot(page, 'export-all-companies-company-field');
    const [download] = await Promise.all([page.waitForEvent('download'), exportModal.getByRole('button', { name: 'EXPORT' }).click()]);
    const csv = readFileSync(await download.path()).toString('utf8').replace(/^\ufeff/, '').trim().split(/\r\n/);
    expect(csv[0]).toBe('USER,TYPE,DATE,CURRENCY,STATUS,TOTAL,TAX,SUPPLIER,CATEGORY,NOTES,COMPANY');
    expect(csv.slice(1).map((line) => line.split(',').pop())).toEqual(['Walk Second UAB', 'walkall company 1', 'Walk Second UAB', 'walkall company 1']);
    await page.getByRole('checkbox', { name: 'Select all' }).uncheck({ force: true });

    await rows.nth(0).click();
    await at('second-2');
    await ready();
    await until(pager).toBe('1/4');
    expect(await page.getByTestId('receipt-company').innerText()).toBe('Walk Second UAB');

    // Next: the first company's document (before, the walk read only the second company's list: 1/2, then second-1)
    await page.getByRole('button', { name: 'Next document' }).click();
    await at('first-2');
    await ready();
    await until(pager).toBe('2/4');
    // the screen says whose document it is
    await until(() => page.getByTestId('receipt-company').innerText()).toBe('walkall company 1');
    await screenshot(page, 'edit-walk-all-companies-next');
    await page.keyboard.press('Alt+ArrowRight');
    await at('second-1');
    await ready();
    await until(pager).toBe('3/4');
    await page.keyboard.press('Alt+ArrowLeft');
    await at('first-2');
    await ready();
    await until(pager).toBe('2/4');
    // still the all-companies view: Back returns to the list of every company
    expect(await page.getByTestId('header-identity').innerText()).toContain('All - ');

    // CONFIRM: on to the next document of the list, of the other company (before, back to the list)
    await page.keyboard.press('Alt+Enter');
    await at('second-1');
    await ready();
    await until(pager).toBe('2/3');
    expect(await statusOf('first-2')).not.toBe(status);
    await page.keyboard.press('Alt+Enter');
    await at('first-1');
    await ready();
    await until(pager).toBe('2/2');
    // the list's last one: the walk wraps to its first, of the other company
    await page.keyboard.press('Alt+Enter');
    await at('second-2');
    await ready();
    await until(pager).toBe('1/1');
    // second-1's CONFIRM added its supplier to the second company: second-2 no longer calls it new
    await until(() => page.getByTestId('field-form').getByText('NOTE: new Supplier & Customer').count()).toBe(0);
    await screenshot(page, 'edit-walk-all-companies-confirmed');

    expect(await statusOf('second-2')).toBe(status);
    for (const key of ['first-2', 'second-1', 'first-1']) expect(await statusOf(key)).not.toBe(status);
    expect(errors).toEqual([]);
    await page.close();
  });
});
