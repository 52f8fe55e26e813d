import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { listRowDocument, writeDocuments } from '../support/document-records';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };
const DOCS = 160;

/** The row's distance from the window's top, and the window's offset. */
const placeOf = (page: Page, receiptId: string) =>
  page.evaluate((id) => {
    const row = document.querySelector(`[data-receipt-id="${id}"]`);
    return { top: row ? Math.round(row.getBoundingClientRect().top) : null, scrollY: Math.round(window.scrollY) };
  }, receiptId);

/**
 * The documents list with more rows than a screen (a year's documents are thousands): every loaded row is
 * rendered, selection works on loaded rows, and Back from a document — the edit screen's and
 * the browser's — shows the list where it was, without reading its pages again.
 */
describe('documents list with many rows in Chromium', () => {
  const user = newUser('rows');
  const ids = Array.from({ length: DOCS }, (_, i) => `DOCLIST${String(DOCS - i).padStart(19, '0')}`);

  const e2e = useBrowserStack('list');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // newest first: ids[0] is the newest
    await writeDocuments(ids.map((id, i) => listRowDocument(companyId, id, i, DOCS, i % 3 === 0 ? 'ready' : 'review')));
  });

  it('selects among loaded rows, and Back from a document comes back to the same row without reading the list again', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    // the live channel listens (once open it reads again what the sign-in read before it: not counted below)
    await expect.poll(() => page.getByTestId('live-status').getAttribute('data-status'), WAIT).toBe('open');
    const listReads: string[] = [];
    // the list's pages (the edit screen reads its neighbours with a created_at bound)
    page.on('request', (r) => {
      if (/\/api\/receipts\?/.test(r.url()) && r.url().includes('limit=50') && !r.url().includes('created_at_')) listReads.push(r.url());
    });
    await page.getByTestId('side-menu').getByRole('link', { name: /^Inbox/ }).click();
    const rows = page.getByTestId('receipt-row');
    await expect.poll(() => rows.count(), WAIT).toBe(50);
    while ((await rows.count()) < DOCS) {
      const before = await rows.count();
      await page.locator('.list-sentinel').scrollIntoViewIfNeeded();
      await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(before);
    }
    expect(listReads).toHaveLength(4);

    // every loaded row is rendered, out of sight too (content-visibility: auto left the rows it skipped empty in
    // Chromium's accessibility tree: documents-list-a11y.test.ts); they are there for the keyboard, find in page and the tests
    expect(await rows.first().evaluate((el) => getComputedStyle(el).contentVisibility)).toBe('visible');
    expect(await rows.nth(60).evaluate((el) => getComputedStyle(el).contentVisibility)).toBe('visible');
    expect(await rows.nth(60).getAttribute('tabindex')).toBe('0');

    // one checkbox, then the header's Select all (the loaded rows), then none
    // (not forced: a row coming into sight is rendered in the next frame, the check waits until it takes the click)
    await rows.nth(3).locator('input[type="checkbox"]').check();
    await expect.poll(() => page.getByTestId('selection-count').innerText(), WAIT).toBe('1 selected');
    expect(await rows.nth(3).getAttribute('class')).toContain('is-selected');
    await page.getByRole('checkbox', { name: 'Select all' }).check({ force: true });
    await expect.poll(() => page.getByTestId('selection-count').innerText(), WAIT).toBe(`${DOCS} selected`);
    expect(await rows.nth(DOCS - 1).locator('input[type="checkbox"]').isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Select all' }).uncheck({ force: true });
    await expect.poll(() => page.getByTestId('selection-count').count(), WAIT).toBe(0);

    // a shift-click selects the rows from the one last clicked; a shift-click that unticks lets its range go
    await rows.nth(2).locator('input[type="checkbox"]').check();
    await rows.nth(7).locator('input[type="checkbox"]').click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('selection-count').innerText(), WAIT).toBe('6 selected');
    expect(await rows.nth(5).locator('input[type="checkbox"]').isChecked()).toBe(true);
    expect(await rows.nth(8).locator('input[type="checkbox"]').isChecked()).toBe(false);
    await rows.nth(4).locator('input[type="checkbox"]').click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('selection-count').innerText(), WAIT).toBe('2 selected');
    await page.getByRole('checkbox', { name: 'Select all' }).check({ force: true });
    await page.getByRole('checkbox', { name: 'Select all' }).uncheck({ force: true });
    await expect.poll(() => page.getByTestId('selection-count').count(), WAIT).toBe(0);

    // a row far down: open it, the edit screen's Back
    const target = ids[130]!;
    const row = page.locator(`[data-receipt-id="${target}"]`);
    await row.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -200));
    await page.waitForTimeout(300);
    const before = await placeOf(page, target);
    expect(before.scrollY).toBeGreaterThan(5000);
    await row.locator('.col-party').click();
    await page.waitForURL(/\/edit-receipt\//, WAIT);
    await expect.poll(() => page.getByTestId('field-form').count(), WAIT).toBe(1);
    // opened from the whole inbox: no filter is said beside n/total
    expect(await page.getByTestId('walk-filter').count()).toBe(0);
    const readsBeforeBack = listReads.length;
    await page.getByTestId('edit-receipt').getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL(/\/receipts\/inbox$/, WAIT);
    await expect.poll(() => rows.count(), WAIT).toBe(DOCS);
    await expect.poll(async () => (await placeOf(page, target)).top, WAIT).toBe(before.top);
    await page.waitForTimeout(1000);
    expect(listReads.slice(readsBeforeBack)).toEqual([]);
    await screenshot(page, 'documents-list-back');

    // the browser's Back
    await row.locator('.col-party').click();
    await page.waitForURL(/\/edit-receipt\//, WAIT);
    await expect.poll(() => page.getByTestId('field-form').count(), WAIT).toBe(1);
    const readsBeforeBrowserBack = listReads.length;
    await page.goBack();
    await page.waitForURL(/\/receipts\/inbox$/, WAIT);
    await expect.poll(async () => (await placeOf(page, target)).top, WAIT).toBe(before.top);
    // the live channel keeps the cached pages current: none of them was read again
    await page.waitForTimeout(1000);
    expect(listReads.slice(readsBeforeBrowserBack)).toEqual([]);
    await page.close();
  });
});
