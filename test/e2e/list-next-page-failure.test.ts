import type { Locator, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { listRowDocument, writeDocuments } from '../support/document-records';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };
const DOCS = 60;
const SUPPLIERS = 55;
/** Long enough for a list that retried at once (the old code: tens of requests a second) to show it. */
const QUIET_MS = 3_000;

/** Requests of one list path that ask for a page after the first (a `next` cursor in the query). */
/**
 * After the list's bottom was reached with its next page failing: the first request and the query client's 2 retries
 * of a 5xx or a network failure, then nothing while the screen stays open; the loaded rows stay, the failure row
 * shows `message`. Answers the failure row.
 */
async function stopsAfterRetries(page: Page, rows: Locator, next: { seen: unknown[] }, loaded: number, message: string): Promise<Locator> {
  await expect.poll(() => next.seen.length, WAIT).toBeGreaterThanOrEqual(3);
  const failed = page.getByTestId('list-more-error');
  await expect.poll(() => failed.count(), WAIT).toBe(1);
  await page.waitForTimeout(QUIET_MS);
  expect(next.seen).toHaveLength(3);
  expect(await rows.count()).toBe(loaded);
  expect(await failed.getByRole('alert').innerText()).toBe(message);
  return failed;
}

function nextPageRequests(page: Page, pathname: string) {
  const seen: string[] = [];
  const matches = (url: URL) => url.pathname === `/api${pathname}` && url.searchParams.has('next');
  page.on('request', (r: Request) => {
    if (matches(new URL(r.url()))) seen.push(r.url());
  });
  return { seen, matches };
}

/**
 * An infinite list whose next page fails (a 5xx, a 4xx, a dropped connection): the loaded rows stay, the list stops
 * asking (the query client's retries for 5xx and network failures, then nothing more), a 'Try again' row under the
 * rows loads the page. The documents list, the master data lists and the admin companies table share that bottom.
 */
describe('a failed next page of a list in Chromium', () => {
  const platformAdmin = { ...newUser('platform'), email: 'next-page-admin@example.com' };
  const user = newUser('nextpage');

  const e2e = useBrowserStack('next-page', { globalAdminEmails: [platformAdmin.email] });
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    await registerUser(e2e.stack, platformAdmin);
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    await writeDocuments(Array.from({ length: DOCS }, (_, i) => listRowDocument(companyId, `NEXTPAGE${String(DOCS - i).padStart(18, '0')}`, i, DOCS, 'review')));
    for (let i = 1; i <= SUPPLIERS; i++) {
      const res = await api.post(`/stakeholder?company_id=${companyId}`, { type: 'supplier', name: `Paged supplier ${String(i).padStart(2, '0')}`, code: `P${i}` });
      expect(res.status).toBe(201);
    }
  });

  it('documents: a 500 on the second page keeps the 50 rows, asks 3 times (2 retries) and no more, Try again loads it', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const next = nextPageRequests(page, '/receipts');
    await page.route(next.matches, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));

    await page.getByTestId('side-menu').getByRole('link', { name: /^Inbox/ }).click();
    const rows = page.getByTestId('receipt-row');
    await expect.poll(() => rows.count(), WAIT).toBe(50);
    await page.locator('.list-sentinel').scrollIntoViewIfNeeded();

    const failed = await stopsAfterRetries(page, rows, next, 50, 'Something went wrong');
    expect(await page.getByTestId('receipts-table').count()).toBe(1);
    expect(await failed.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    await failed.scrollIntoViewIfNeeded();
    await screenshot(page, 'list-next-page-failed');

    // the server answers again: Try again loads the page
    await page.unroute(next.matches);
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => rows.count(), WAIT).toBe(DOCS);
    expect(await failed.count()).toBe(0);
    expect(next.seen).toHaveLength(4);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('documents: a first page that fails still shows the error view with Try again', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    const anyPage = (url: URL) => url.pathname === '/api/receipts' && url.searchParams.has('limit');
    await page.route(anyPage, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
    await page.getByTestId('side-menu').getByRole('link', { name: /^Inbox/ }).click();
    const view = page.locator('.list-error');
    await expect.poll(() => view.count(), { timeout: 20_000 }).toBe(1);
    expect(await view.innerText()).toContain('Something went wrong');
    expect(await page.getByTestId('receipts-table').count()).toBe(0);
    expect(await page.getByTestId('list-more-error').count()).toBe(0);
    await page.unroute(anyPage);
    await view.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.getByTestId('receipt-row').count(), WAIT).toBe(50);
    await page.close();
  });

  it('suppliers: a dropped connection on the second page keeps the rows and stops asking, Try again loads it', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    const next = nextPageRequests(page, '/stakeholders');
    await page.route(next.matches, (route) => route.abort('connectionreset'));
    await page.goto(`${e2e.stack.url}/suppliers`);
    const rows = page.getByTestId('md-row');
    await expect.poll(() => rows.count(), WAIT).toBe(50);
    await page.locator('.list-sentinel').scrollIntoViewIfNeeded();

    // a network failure is retried twice like a 5xx, then the list waits for the user
    const failed = await stopsAfterRetries(page, rows, next, 50, 'No connection to the internet');

    await page.unroute(next.matches);
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => rows.count(), WAIT).toBe(SUPPLIERS);
    expect(await failed.count()).toBe(0);
    await page.close();
  });

  it('admin companies: a 400 on the next page is asked once, the rows stay, Try again loads it', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, platformAdmin);
    const next = nextPageRequests(page, '/admin/companies');
    // the table has two companies (one page): the first page is given a cursor so that the table asks for a second
    const firstPage = (url: URL) => url.pathname === '/api/admin/companies' && !url.searchParams.has('next');
    await page.route(firstPage, async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { items: unknown[]; next?: string | null };
      await route.fulfill({ response: res, json: { ...body, next: 'page-2' } });
    });
    let secondPage: 'fail' | 'empty' = 'fail';
    await page.route(next.matches, (route) =>
      secondPage === 'fail'
        ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ statusCode: 400, error: 'BadRequest', message: 'Invalid next' }) })
        : route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ items: [], next: null }) }),
    );
    await page.goto(`${e2e.stack.url}/admin`);
    const rows = page.getByTestId('admin-company-row');
    // a 4xx is not retried
    await expect.poll(() => next.seen.length, WAIT).toBeGreaterThanOrEqual(1);
    await page.waitForTimeout(QUIET_MS);
    expect(next.seen).toHaveLength(1);
    expect(await rows.count()).toBe(2);
    const failed = page.getByTestId('list-more-error');
    expect(await failed.count()).toBe(1);
    expect(await failed.getByRole('alert').innerText()).toBe('Invalid next');

    secondPage = 'empty';
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => failed.count(), WAIT).toBe(0);
    expect(next.seen).toHaveLength(2);
    expect(await rows.count()).toBe(2);
    await page.close();
  });
});
