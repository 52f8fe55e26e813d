import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/**
 * The edit screen walks the list it was opened from as the list shows it: opened from a searched list, Next,
 * Previous, n/total and the move after CONFIRM stay within the hits (stop 67's review audit, finding 1).
 */
describe('edit screen opened from a searched list in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  const ids: Record<string, string> = {};
  const user = newUser('walkfilter');
  const statusOf = async (id: string) => ((await api.get(`/receipts/${id}?company_id=${companyId}`)).body as { status: string }).status;

  const e2e = useBrowserStack('walk-filter');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // Uploaded one after the other, newest first in the list: beta-3, alpha-3, beta-2, alpha-2, beta-1, alpha-1
    for (const n of [1, 2, 3]) {
      for (const word of ['alpha', 'beta']) {
        ids[`${word}-${n}`] = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: `${word.toUpperCase()}-${n}` }), `${word}-${n}.pdf`);
      }
    }
  });

  it('Next, n/total and CONFIRM stay within the hits; after the last hit the screen goes back to the searched list', async () => {
    const status = await statusOf(ids['alpha-1']!);
    expect(await Promise.all(Object.values(ids).map(statusOf))).toEqual(Object.values(ids).map(() => status));
    expect(['ready', 'review']).toContain(status);

    const page: Page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const pager = () => page.getByTestId('pager-position').innerText();
    // (a wrong stop names the document the screen went to instead)
    const at = (key: string) =>
      page.waitForURL(new RegExp(`/edit-receipt/${ids[key]}\\?`), { timeout: 15_000 }).catch((e: Error) => {
        const shown = Object.keys(ids).find((k) => page.url().includes(`/edit-receipt/${ids[k]}?`)) ?? page.url();
        throw new Error(`expected ${key}, the screen shows ${shown}: ${e.message}`);
      });
    // the document is shown and its primary action can be used
    const ready = async () => {
      await until(() => page.getByTestId('field-form').count()).toBe(1);
      await until(() => page.getByTestId('status-actions').getByRole('button', { name: 'CONFIRM', exact: true }).isEnabled()).toBe(true);
    };

    await page.goto(`${e2e.stack.url}/receipts/${status}?q=alpha`);
    const rows = page.getByTestId('receipt-row');
    await until(() => rows.count()).toBe(3);
    // the second hit
    await rows.nth(1).click();
    await at('alpha-2');
    await ready();
    await until(pager).toBe('2/3');
    // the screen says the walk is of the search's hits
    expect(await page.getByTestId('walk-filter').innerText()).toBe('Filtered: “alpha”');
    await screenshot(page, 'edit-walk-filter-second-hit');

    // Alt+→ visits only hits; at the last one Next is off
    await page.keyboard.press('Alt+ArrowRight');
    await at('alpha-1');
    await ready();
    await until(pager).toBe('3/3');
    await until(() => page.getByRole('button', { name: 'Next document' }).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Alt+ArrowLeft');
    await at('alpha-2');
    await ready();
    await until(pager).toBe('2/3');

    // Alt+→ Alt+← pressed at once (the second before the next document's screen is shown): back where it started,
    // not two back (the ← was taken by the screen being left, whose previous is alpha-3)
    const visited: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) visited.push(Object.keys(ids).find((k) => f.url().includes(`/edit-receipt/${ids[k]}?`)) ?? f.url());
    });
    await page.keyboard.press('Alt+ArrowRight');
    await page.keyboard.press('Alt+ArrowLeft');
    await until(() => visited.join(' ')).toBe('alpha-1 alpha-2');
    await ready();
    await until(pager).toBe('2/3');

    // CONFIRM on a hit: on to the next hit, not to beta-1 (the next document of the whole list)
    await page.keyboard.press('Alt+Enter');
    await at('alpha-1');
    await ready();
    await until(pager).toBe('2/2');
    expect(await statusOf(ids['alpha-2']!)).not.toBe(status);
    // CONFIRM on the last hit: the walk wraps to the first hit left
    await page.keyboard.press('Alt+Enter');
    await at('alpha-3');
    await ready();
    await until(pager).toBe('1/1');
    // CONFIRM on the only hit left: back to the searched list
    await page.keyboard.press('Alt+Enter');
    await page.waitForURL(new RegExp(`/receipts/${status}\\?q=alpha$`), { timeout: 15_000 });
    await until(() => rows.count()).toBe(0);
    await screenshot(page, 'edit-walk-filter-back-to-list');

    // the documents outside the search were left as they were
    for (const n of [1, 2, 3]) expect(await statusOf(ids[`beta-${n}`]!)).toBe(status);
    for (const n of [1, 2, 3]) expect(await statusOf(ids[`alpha-${n}`]!)).not.toBe(status);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('after a merge the list is counted again: the merged document, read again into To Review, is counted where it is', async () => {
    // the three beta documents are left in the list (the test above confirmed the alpha ones)
    const status = await statusOf(ids['beta-1']!);
    const page: Page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${e2e.stack.url}/receipts/${status}`);
    const rows = page.getByTestId('receipt-row');
    await until(() => rows.count()).toBe(3);
    await rows.nth(2).click();
    await page.waitForURL(new RegExp(`/edit-receipt/${ids['beta-1']}\\?`), { timeout: 15_000 });
    const pager = () => page.getByTestId('pager-position').innerText();
    await until(pager).toBe('3/3');
    await page.getByTestId('tool-merge').click();
    const mergeOther = page.getByRole('button', { name: 'Merge beta-2.pdf' });
    await until(() => mergeOther.count()).toBe(1);
    await mergeOther.click();
    await page.getByTestId('merge-confirm-modal').getByRole('button', { name: 'Merge' }).click();
    await until(() => page.getByText('Documents merged').count()).toBe(1);
    // two invoices in one document make no ready one: it is read again into To Review. Walked in Ready, it is out of
    // that list, which holds beta-3 alone; walked in To Review, it is the second of two
    await until(() => statusOf(ids['beta-1']!)).toBe('review');
    await until(pager).toBe(status === 'ready' ? '–/1' : '2/2');
    await screenshot(page, 'edit-walk-after-merge');
    expect(errors).toEqual([]);
    await page.close();
  });
});
