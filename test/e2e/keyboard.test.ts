import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** The focused element: its test id, role, aria-label and whether it is inside a dialog. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { testId: a?.dataset.testid ?? null, role: a?.getAttribute('role') ?? null, label: a?.getAttribute('aria-label') ?? null, inDialog: Boolean(a?.closest('[role="dialog"]')), tag: a?.tagName ?? null };
  });

/**
 * Keyboard and screen-reader use in Chromium: the supplier's name is a combobox; the edit screen's shortcuts wait
 * while a pop-up is open; Tab stays in a pop-up; the side panels take and give back the focus; the Tools menu.
 */
describe('keyboard use in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  let docId: string;
  const user = newUser('keys');
  const receipt = async () => (await api.get(`/receipts/${docId}?company_id=${companyId}`)).body as { status: string };

  const e2e = useBrowserStack('keyboard');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    const supplier = await api.post(`/stakeholder?company_id=${companyId}`, { type: 'supplier', name: 'Known Trading', code: '304050607' });
    expect(supplier.status).toBe(201);
    docId = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, supplier: 'UAB Other Party', supplierCode: '308888888', number: 'KB-1' }), 'keys.pdf');
  });

  async function openDocument(): Promise<Page> {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    await page.goto(`${e2e.stack.url}/edit-receipt/${docId}?company_id=${companyId}`);
    await until(() => page.getByTestId('field-form').count()).toBe(1);
    return page;
  }

  it("the supplier's name is a combobox: ArrowDown and Enter choose a suggestion (name and code), Escape closes the list", async () => {
    const page = await openDocument();
    const name = page.getByTestId('field-supplier_name');
    await name.fill('Know');
    const suggestions = page.getByTestId('stakeholder-suggestion');
    await until(() => suggestions.count()).toBe(1);
    expect(await name.getAttribute('role')).toBe('combobox');
    expect(await name.getAttribute('aria-expanded')).toBe('true');
    const listId = await name.getAttribute('aria-controls');
    expect(await page.locator(`[id="${listId}"]`).getAttribute('role')).toBe('listbox');
    // Escape closes the list and leaves the document open; ArrowDown opens it again
    await name.press('Escape');
    await until(() => suggestions.count()).toBe(0);
    expect(await name.getAttribute('aria-expanded')).toBe('false');
    expect(page.url()).toContain(`/edit-receipt/${docId}`);
    await name.press('ArrowDown');
    await until(() => suggestions.count()).toBe(1);
    expect(await name.getAttribute('aria-activedescendant')).toBeNull();
    await name.press('ArrowDown');
    const active = await name.getAttribute('aria-activedescendant');
    expect(active).toBe(await suggestions.first().getAttribute('id'));
    expect(await suggestions.first().getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'keyboard-supplier-suggestion-active');
    await name.press('Enter');
    await until(() => name.inputValue()).toBe('Known Trading');
    expect(await page.getByTestId('field-supplier_code').inputValue()).toBe('304050607');
    await until(() => suggestions.count()).toBe(0);
    expect((await focused(page)).testId).toBe('field-supplier_name');
    // Retyped into another supplier's name, the picked one's code goes with it (it would link Known Trading again)
    await name.fill('KNOWN-TRADING.');
    expect(await page.getByTestId('field-supplier_code').inputValue()).toBe('304050607');
    await name.fill('Another Vendor UAB');
    await until(() => page.getByTestId('field-supplier_code').inputValue()).toBe('');
    await until(async () => {
      const c = (await api.get(`/receipts/${docId}/content?company_id=${companyId}`)).body as { content: unknown };
      return JSON.stringify(c.content).includes('304050607');
    }).toBe(false);
    await page.close();
  });

  it('with the Delete confirmation open, Alt+V does nothing to the document; Tab stays in the pop-up; Escape closes only it', async () => {
    const page = await openDocument();
    const before = (await receipt()).status;
    const url = page.url();
    await page.getByTestId('delete').click();
    const dialog = page.getByTestId('delete-confirm');
    await until(() => dialog.count()).toBe(1);
    await page.keyboard.press('Alt+v');
    await page.keyboard.press('Alt+h');
    await page.waitForTimeout(1500);
    expect(page.url()).toBe(url);
    expect(await dialog.count()).toBe(1);
    expect(await page.getByTestId('help-panel').count()).toBe(0);
    expect((await receipt()).status).toBe(before);

    // Tab from the last control goes round to the first, Shift+Tab back to the last
    await dialog.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ inDialog: true, label: 'Close' });
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toMatchObject({ inDialog: true });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect((await focused(page)).inDialog).toBe(true);
    }
    await screenshot(page, 'keyboard-delete-confirm-trapped');
    await page.keyboard.press('Escape');
    await until(() => dialog.count()).toBe(0);
    expect(page.url()).toBe(url);
    // the focus is back on the Delete button of the screen
    expect((await focused(page)).testId).toBe('delete');
    await page.close();
  });

  it("the Lines pop-up's cells are named by their column and row; a field's error is announced", async () => {
    const page = await openDocument();
    const date = page.getByTestId('field-issue_date');
    await date.fill('31/31/2020');
    await date.press('Tab');
    const error = page.getByTestId('error-issue_date');
    await until(() => error.count()).toBe(1);
    expect(await error.getAttribute('role')).toBe('alert');
    await page.getByTestId('tool-line-items').click();
    const rows = page.getByTestId('popup-row');
    await until(() => rows.count()).toBeGreaterThan(0);
    const names = await rows.first().locator('[data-field-input]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n).toMatch(/^\S.*, row 1$/);
    await screenshot(page, 'keyboard-lines-popup');
    await page.close();
  });

  it('the Item Details and Advanced tabs: one Tab stop, arrows select and focus the other, the fields are their labelled tab panel', async () => {
    const page = await openDocument();
    const tabs = page.getByRole('tablist', { name: 'Fields' }).getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['Item Details', 'Advanced']);
    expect(await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('tabindex')))).toEqual(['0', '-1']);
    const panel = page.getByRole('tabpanel');
    expect(await panel.getAttribute('aria-labelledby')).toBe(await tabs.nth(0).getAttribute('id'));
    expect(await panel.getByTestId('field-supplier_name').count()).toBe(1);
    await tabs.nth(0).focus();
    await page.keyboard.press('ArrowRight');
    await until(() => tabs.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await tabs.nth(1).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await panel.getAttribute('aria-labelledby')).toBe(await tabs.nth(1).getAttribute('id'));
    expect(await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('tabindex')))).toEqual(['-1', '0']);
    await page.keyboard.press('Home');
    await until(() => tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    expect(await tabs.nth(0).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.close();
  });

  it('the Flag button is a toggle: its name stays Flag and aria-pressed says whether the document is flagged', async () => {
    const page = await openDocument();
    const flag = page.getByRole('button', { name: 'Flag', exact: true });
    expect(await flag.getAttribute('aria-pressed')).toBe('false');
    await flag.click();
    await until(() => flag.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'Unflag' }).count()).toBe(0);
    await flag.click();
    await until(() => flag.getAttribute('aria-pressed')).toBe('false');
    await page.close();
  });

  it('Alt+Enter on a form its buttons refuse says why and takes the focus to the first field to correct', async () => {
    const page = await openDocument();
    const date = page.getByTestId('field-issue_date');
    const before = await date.inputValue();
    await date.fill('31/31/2020');
    await date.press('Tab');
    await until(() => page.getByTestId('error-issue_date').count()).toBe(1);
    await until(() => page.getByRole('button', { name: 'CONFIRM', exact: true }).isDisabled()).toBe(true);
    await page.getByTestId('field-supplier_name').focus();
    await page.keyboard.press('Alt+Enter');
    await until(() => page.getByTestId('info-popup').allInnerTexts()).toContain('Failed to update the receipt. Please check if all mandatory fields are filled.');
    expect(await date.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await receipt()).status).not.toBe('archive');
    // put the date back, so the other tests find the document as it was
    await date.fill(before);
    await date.press('Tab');
    await until(() => page.getByTestId('error-issue_date').count()).toBe(0);
    await page.close();
  });

  it('Tab from the Category goes on to the Notes, never to nowhere while its list of categories closes', async () => {
    for (let i = 1; i <= 14; i++) expect((await api.post(`/category?company_id=${companyId}`, { name: `Keyboard category ${String(i).padStart(2, '0')}` })).status).toBe(201);
    const page = await openDocument();
    const category = page.getByTestId('select-category').locator('input');
    await category.focus();
    // the list is open and long enough to scroll
    await until(() => page.getByRole('listbox', { name: 'Category' }).getByRole('option').count()).toBeGreaterThan(10);
    expect(await page.getByRole('listbox', { name: 'Category' }).evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await page.keyboard.press('Tab');
    await until(() => page.evaluate(() => (document.activeElement as HTMLTextAreaElement | null)?.name ?? document.activeElement?.tagName)).toBe('notes');
    await page.keyboard.press('Shift+Tab');
    await until(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name ?? document.activeElement?.tagName)).toBe('category');
    await page.close();
  });

  it('notes typed and the Review button clicked at once: the notes are stored first, then the action is made on their version', async () => {
    const page = await openDocument();
    const notes = page.getByTestId('field-notes').getByLabel('Notes');
    await notes.fill('Typed, then Review clicked at once');
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/notes')) puts.push(r.url());
    });
    // the click leaves the box (its save starts on the mouse-down) and asks for the action in the same moment
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await until(() => page.getByTestId('info-popup').allInnerTexts()).toContain('Document saved for review');
    expect(await page.getByTestId('info-popup').allInnerTexts()).not.toContain('The document was changed by someone else');
    expect(puts).toHaveLength(1);
    const stored = (await api.get(`/receipts/${docId}?company_id=${companyId}`)).body as { status: string; notes: string };
    expect(stored).toMatchObject({ status: 'review', notes: 'Typed, then Review clicked at once' });
    await page.close();
  });

  it('the Preview side panel takes the focus, keeps Tab inside and gives the focus back on Escape', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    await page.goto(`${e2e.stack.url}/receipts/${(await receipt()).status}`);
    const row = page.locator('[data-testid="receipt-row"]', { hasText: 'keys.pdf' });
    await until(() => row.count()).toBe(1);
    const preview = row.getByRole('button', { name: 'Preview' });
    await preview.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('preview-panel');
    await until(() => panel.count()).toBe(1);
    expect((await focused(page)).testId).toBe('preview-panel');
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect((await focused(page)).inDialog).toBe(true);
    }
    await screenshot(page, 'keyboard-preview-panel');
    await page.keyboard.press('Escape');
    await until(() => panel.count()).toBe(0);
    expect(await preview.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.close();
  });

  it('the Tools menu: arrows, Home and End move among the items; Escape, Tab and a choice close it, the focus back on Tools', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    await page.goto(`${e2e.stack.url}/receipts/${(await receipt()).status}`);
    const row = page.locator('[data-testid="receipt-row"]', { hasText: 'keys.pdf' });
    await until(() => row.count()).toBe(1);
    await row.locator('input[type="checkbox"]').check({ force: true });
    const tools = page.getByRole('button', { name: 'Tools' });
    const menu = page.getByRole('menu');
    const items = await (async () => {
      await tools.focus();
      await page.keyboard.press('Enter');
      await until(() => menu.count()).toBe(1);
      return page.getByRole('menuitem').allInnerTexts();
    })();
    expect(items.length).toBeGreaterThan(1);
    const current = () => page.evaluate(() => document.activeElement?.textContent ?? null);
    expect(await current()).toBe(items[0]);
    await page.keyboard.press('ArrowDown');
    expect(await current()).toBe(items[1]);
    await page.keyboard.press('End');
    expect(await current()).toBe(items[items.length - 1]);
    await page.keyboard.press('ArrowDown');
    expect(await current()).toBe(items[0]);
    await page.keyboard.press('ArrowUp');
    expect(await current()).toBe(items[items.length - 1]);
    await page.keyboard.press('Home');
    expect(await current()).toBe(items[0]);
    await screenshot(page, 'keyboard-tools-menu');
    // Escape: closed, the focus on Tools
    await page.keyboard.press('Escape');
    await until(() => menu.count()).toBe(0);
    expect(await tools.evaluate((el) => el === document.activeElement)).toBe(true);
    // Tab: closed, the focus goes on past Tools (not into the list of items, not to the page's start)
    await page.keyboard.press('Enter');
    await until(() => menu.count()).toBe(1);
    await page.keyboard.press('Tab');
    await until(() => menu.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement !== document.body && document.activeElement?.getAttribute('aria-label') !== 'Tools')).toBe(true);
    // a choice: done, the focus on Tools
    await tools.focus();
    await page.keyboard.press('Enter');
    await until(() => menu.count()).toBe(1);
    const flag = items.indexOf('Flag');
    expect(flag).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < flag; i++) await page.keyboard.press('ArrowDown');
    expect(await current()).toBe('Flag');
    await page.keyboard.press('Enter');
    await until(() => menu.count()).toBe(0);
    await until(() => row.getByTestId('row-flag').getAttribute('aria-pressed')).toBe('true');
    expect(await tools.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.close();
  });
});
