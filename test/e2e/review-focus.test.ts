import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** The focused element: its id, test id, receipt id (a list row) and tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { id: a?.id || null, testId: a?.dataset.testid ?? null, receiptId: a?.dataset.receiptId ?? null, tag: a?.tagName ?? null, text: (a?.textContent ?? '').trim() };
  });

/**
 * A bookkeeper reviewing documents by keyboard: a document opens with the focus on the field to correct (or its
 * first field), also after CONFIRM moved on; Back puts the focus on the row of the document last open; the list's
 * "Skip to documents" link; Alt+F flags.
 */
describe('the review loop by keyboard in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  const ids: Record<'old' | 'mid' | 'new', string> = { old: '', mid: '', new: '' };
  const user = newUser('review');
  const q = () => `company_id=${companyId}`;

  const e2e = useBrowserStack('review-focus');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // the inbox lists them newest first: new, mid, old
    for (const [key, number] of [
      ['old', ''],
      ['mid', 'RF-00002'],
      ['new', 'RF-00003'],
    ] as const) {
      ids[key] = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: number || 'RF-00001' }), `rf-${key}.pdf`);
      // the oldest has no Invoice number (a required field); the others are valid
      const c = (await api.get(`/receipts/${ids[key]}/content?${q()}`)).body as ContentResponse;
      const put = await api.put(`/receipts/${ids[key]}/content?${q()}`, { version: c.version, items: [{ id: 'document_id', value: number }] });
      expect(put.status).toBe(200);
      expect((put.body as ContentResponse).errors.map((e) => e.id)).toEqual(number ? [] : ['document_id']);
    }
  });

  const inbox = async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    await until(() => page.getByTestId('receipt-row').count()).toBe(3);
    return page;
  };
  const rowOf = (page: Page, id: string) => page.locator(`[data-testid="receipt-row"][data-receipt-id="${id}"]`);
  const openByKeyboard = async (page: Page, id: string) => {
    await rowOf(page, id).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/edit-receipt/${id}\\?`));
    await until(() => page.getByTestId('field-document_id').count()).toBe(1);
  };

  it('a document opened from the list by keyboard has the focus on its empty required Invoice number, and says which document it is', async () => {
    const page = await inbox();
    await openByKeyboard(page, ids.old);
    await until(async () => (await focused(page)).id).toBe('field-document_id');
    expect(await page.getByTestId('field-document_id').getAttribute('aria-invalid')).toBe('true');
    await until(() => page.getByTestId('document-announcement').innerText()).toContain('rf-old.pdf');
    await screenshot(page, 'review-focus-invalid-field');
    await page.close();
  });

  it('CONFIRM by Alt+Enter moves on with the focus on the next document field to correct; Back focuses the row of the document last open', async () => {
    const page = await inbox();
    await openByKeyboard(page, ids.mid);
    // a valid document: its first field
    const first = await page.locator('[role="tabpanel"] [data-field-input]').first().getAttribute('id');
    await until(async () => (await focused(page)).id).toBe(first);
    await until(() => page.getByRole('button', { name: 'CONFIRM', exact: true }).isEnabled()).toBe(true);
    await page.keyboard.press('Alt+Enter');
    // the walk goes on to the next (older) document of the inbox, whose Invoice number is empty
    await page.waitForURL(new RegExp(`/edit-receipt/${ids.old}\\?`), { timeout: 15_000 });
    await until(async () => (await focused(page)).id).toBe('field-document_id');
    await until(() => page.getByTestId('document-announcement').innerText()).toContain('rf-old.pdf');

    // the edit screen's Back: the list, the focus on the row of the document last open (not the one opened)
    await page.getByTestId('edit-receipt').getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL(/\/receipts\/inbox$/);
    await until(async () => (await focused(page)).receiptId).toBe(ids.old);
    await screenshot(page, 'review-focus-back-row');
    await page.close();
  });

  it("the browser's Back from a document focuses its row; a list opened afresh does not", async () => {
    const page = await inbox();
    await openByKeyboard(page, ids.new);
    await page.goBack();
    await page.waitForURL(/\/receipts\/inbox$/);
    await until(async () => (await focused(page)).receiptId).toBe(ids.new);
    // from the side menu: a fresh visit, the focus is not taken to a row
    await page.getByTestId('side-menu').getByRole('link', { name: /^Dashboard/ }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('side-menu').getByRole('link', { name: /^Inbox/ }).click();
    await page.waitForURL(/\/receipts\/inbox$/);
    await until(() => page.getByTestId('receipt-row').count()).toBe(3);
    await page.waitForTimeout(500);
    expect((await focused(page)).testId).not.toBe('receipt-row');
    await page.close();
  });

  it('from the list title, Tab reaches Skip to documents, the first stop of the list; Enter on it focuses the first row', async () => {
    const page = await inbox();
    await page.getByTestId('page-title').evaluate((el) => {
      (el as HTMLElement).tabIndex = -1;
      (el as HTMLElement).focus();
    });
    let tabs = 0;
    while ((await focused(page)).testId !== 'list-skip-link' && tabs < 3) {
      await page.keyboard.press('Tab');
      tabs++;
    }
    expect(await focused(page)).toMatchObject({ testId: 'list-skip-link', text: 'Skip to documents' });
    // shown once focused
    const box = await page.getByTestId('list-skip-link').boundingBox();
    expect(box && box.width > 20 && box.height > 10).toBe(true);
    await screenshot(page, 'review-focus-skip-link');
    // the first Tab stop of the list page
    expect(await page.getByTestId('receipts-page').evaluate((el) => el.querySelector('a[href], button, input, select, [tabindex="0"]')?.getAttribute('data-testid'))).toBe('list-skip-link');
    await page.keyboard.press('Enter');
    const firstRow = await page.getByTestId('receipt-row').first().getAttribute('data-receipt-id');
    await until(async () => (await focused(page)).receiptId).toBe(firstRow);
    await page.close();
  });

  it('Alt+F flags and unflags the document (aria-pressed), and the Keys panel lists it', async () => {
    const page = await inbox();
    await openByKeyboard(page, ids.new);
    const flag = page.getByRole('button', { name: 'Flag', exact: true });
    expect(await flag.getAttribute('aria-pressed')).toBe('false');
    // (the screen reads the document and its content again after a flag: a second press goes on the new version)
    const readAgain = (what: RegExp) => page.waitForResponse((r) => r.request().method() === 'GET' && what.test(r.url()));
    const reads = Promise.all([readAgain(new RegExp(`/api/receipts/${ids.new}/content\\?`)), readAgain(new RegExp(`/api/receipts/${ids.new}\\?`))]);
    await page.keyboard.press('Alt+f');
    await until(() => flag.getAttribute('aria-pressed')).toBe('true');
    await reads;
    await page.keyboard.press('Alt+f');
    await until(() => flag.getAttribute('aria-pressed')).toBe('false');
    await page.getByTestId('tool-help').click();
    await until(() => page.getByTestId('help-panel').innerText()).toContain('Alt+F');
    await page.close();
  });

  it('a focus the user moved while the document loaded stays where it is', async () => {
    const page = await inbox();
    // the document's content waits until the user has moved on from the page title
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route(new RegExp(`/api/receipts/${ids.new}/content\\?`), async (route) => {
      await held;
      await route.continue();
    });
    await rowOf(page, ids.new).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/edit-receipt/${ids.new}\\?`));
    // the edit screen is there, its document loading (not the list still shown while the screen's code arrives)
    await until(() => page.getByRole('status', { name: 'Loading document' }).count()).toBe(1);
    await page.keyboard.press('Tab');
    const moved = await focused(page);
    expect(moved.tag).not.toBe('BODY');
    release();
    await until(() => page.getByTestId('field-document_id').count()).toBe(1);
    await page.waitForTimeout(500);
    expect(await focused(page)).toEqual(moved);
    await page.close();
  });

  it('a read-only (archived) document keeps the focus off its fields', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    await page.goto(`${e2e.stack.url}/edit-receipt/${ids.mid}?${q()}`);
    await until(() => page.getByTestId('field-document_id').isDisabled()).toBe(true);
    await page.waitForTimeout(500);
    expect((await focused(page)).tag).not.toBe('INPUT');
    await page.close();
  });
});
