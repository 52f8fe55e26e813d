import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** The focused element, described: its tag, test id, accessible label and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return {
      tag: a?.tagName ?? null,
      testId: a?.dataset.testid ?? null,
      label: a?.getAttribute('aria-label') ?? null,
      text: (a?.textContent ?? '').trim(),
      inDialog: Boolean(a?.closest('[role="dialog"]')),
    };
  });
const onBody = async (page: Page) => (await focused(page)).tag === 'BODY';

/**
 * Keyboard and screen-reader use: the focus is never dropped to <body> when the control used is disabled while it
 * works, removed or swapped; a skip link; a reachable Show password; a visible focus on fields; toasts that wait.
 */
describe('focus kept for keyboard users in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  let docId: string;
  const user = newUser('focus');

  const e2e = useBrowserStack('focus');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    for (const name of ['Alpha Supplies', 'Beta Supplies', 'Gamma Supplies']) {
      expect((await api.post(`/stakeholder?company_id=${companyId}`, { type: 'supplier', name, code: `30${name.length}0${name.charCodeAt(0)}` })).status).toBe(201);
    }
    docId = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'FO-1' }), 'focus-1.pdf');
  });

  const page = (size = { width: 1500, height: 950 }) => signInPage(e2e.browser, e2e.stack.url, user, size);

  it('the first Tab stop is Skip to content, shown when focused; Enter moves the focus to the main content', async () => {
    const p = await page();
    await p.getByTestId('page-title').waitFor();
    await p.keyboard.press('Tab');
    expect((await focused(p)).testId).toBe('skip-link');
    expect((await focused(p)).text).toBe('Skip to content');
    const box = await p.getByTestId('skip-link').boundingBox();
    expect(box && box.y >= 0 && box.height > 0).toBe(true);
    await screenshot(p, 'focus-skip-link');
    await p.keyboard.press('Enter');
    expect(await p.evaluate(() => document.activeElement?.id)).toBe('main');
    // the next Tab goes into the content, not back to the side menu
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
    await p.close();
  });

  it('Show password is reached with Tab after the password field, and a focused field has a 2px outline', async () => {
    const p = await e2e.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await p.goto(`${e2e.stack.url}/signin`);
    const password = p.locator('input[name="password"]');
    await password.waitFor();
    await p.locator('input[name="email"]').focus();
    await p.keyboard.press('Tab');
    expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);
    const ring = await password.evaluate((el) => {
      const cs = getComputedStyle(el);
      return { style: cs.outlineStyle, width: cs.outlineWidth, color: cs.outlineColor };
    });
    expect(ring.style).toBe('solid');
    expect(ring.width).toBe('2px');
    expect(ring.color).toBe('rgb(37, 99, 235)');
    await screenshot(p, 'focus-input-focused');
    await p.keyboard.press('Tab');
    expect((await focused(p)).label).toBe('Show password');
    await p.keyboard.press('Enter');
    expect(await password.getAttribute('type')).toBe('text');
    await p.close();
  });

  it('a toast waits while hovered and goes 3 s after; an error toast waits while focused', async () => {
    const p = await e2e.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await p.clock.install();
    await p.goto(`${e2e.stack.url}/signin`);
    await p.locator('input[name="email"]').fill(user.email);
    await p.locator('input[name="password"]').fill(user.password);
    await p.getByRole('button', { name: 'LOG IN' }).click();
    await p.waitForURL(/\/dashboard$/, { timeout: 20_000 });
    await p.goto(`${e2e.stack.url}/suppliers`);
    const rows = p.getByTestId('md-row');
    await until(() => rows.count()).toBe(3);
    // a success toast (Supplier deleted) held by the pointer
    await rows.filter({ hasText: 'Gamma Supplies' }).getByRole('button', { name: 'Delete Gamma Supplies' }).click();
    await p.getByTestId('md-delete-modal').getByRole('button', { name: 'Delete' }).click();
    const toast = p.getByTestId('info-popup');
    await until(() => toast.count()).toBe(1);
    await toast.hover();
    await p.clock.runFor(10_000);
    expect(await toast.count()).toBe(1);
    await p.mouse.move(5, 5);
    await p.clock.runFor(3_100);
    await until(() => toast.count()).toBe(0);
    // an error toast: the server refuses the delete
    await until(() => rows.count()).toBe(2);
    await p.route(
      (url) => url.pathname.includes('stakeholder'),
      (route) =>
        route.request().method() === 'DELETE'
          ? route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'conflict', message: 'In use by a document' } }) })
          : route.continue(),
    );
    await rows.first().getByRole('button', { name: /^Delete / }).click();
    await p.getByTestId('md-delete-modal').getByRole('button', { name: 'Delete' }).click();
    const alert = p.locator('[data-testid="info-popup"][role="alert"]');
    await until(() => alert.count()).toBe(1);
    await alert.getByRole('button', { name: 'Dismiss' }).focus();
    await p.clock.runFor(60_000);
    expect(await alert.count()).toBe(1);
    await alert.getByRole('button', { name: 'Dismiss' }).blur();
    await p.clock.runFor(3_100);
    await until(() => alert.count()).toBe(0);
    await p.close();
  });

  it('deleting a supplier by keyboard puts the focus on the next row Delete, the last one on the list title', async () => {
    const p = await page();
    await p.goto(`${e2e.stack.url}/suppliers`);
    const rows = p.getByTestId('md-row');
    await until(() => rows.count()).toBeGreaterThan(1);
    const names = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    await rows.first().locator('.md-row-delete').focus();
    await p.keyboard.press('Enter');
    const modal = p.getByTestId('md-delete-modal');
    await until(() => modal.count()).toBe(1);
    await modal.getByRole('button', { name: 'Delete' }).focus();
    await p.keyboard.press('Enter');
    await until(() => rows.count()).toBe(names.length - 1);
    await until(async () => (await focused(p)).label).toBe(`Delete ${names[1]}`);
    // the only row left: the list title takes the focus
    for (let left = names.length - 1; left > 0; left--) {
      await p.keyboard.press('Enter');
      await until(() => modal.count()).toBe(1);
      await modal.getByRole('button', { name: 'Delete' }).focus();
      await p.keyboard.press('Enter');
      await until(() => rows.count()).toBe(left - 1);
      if (left > 1) await until(async () => (await focused(p)).label).toMatch(/^Delete /);
    }
    await until(async () => (await focused(p)).tag).toBe('H2');
    expect(await onBody(p)).toBe(false);
    await p.close();
  });

  it('Tools, Move to Archive by keyboard keeps the focus on Tools; the list toolbar Delete leaves it on the page', async () => {
    const second = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'FO-2' }), 'focus-2.pdf');
    const status = ((await api.get(`/receipts/${second}?company_id=${companyId}`)).body as { status: string }).status;
    const p = await page();
    await p.goto(`${e2e.stack.url}/receipts/${status}`);
    const row = p.locator('[data-testid="receipt-row"]', { hasText: 'focus-2.pdf' });
    await until(() => row.count()).toBe(1);
    await row.locator('input[type="checkbox"]').check({ force: true });
    const tools = p.getByRole('button', { name: 'Tools' });
    await tools.focus();
    await p.keyboard.press('Enter');
    const menu = p.getByRole('menu');
    await until(() => menu.count()).toBe(1);
    const items = await p.getByRole('menuitem').allInnerTexts();
    const archive = items.findIndex((t) => /Archive/.test(t));
    expect(archive).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < archive; i++) await p.keyboard.press('ArrowDown');
    await p.keyboard.press('Enter');
    await until(() => row.count()).toBe(0);
    // nothing selected now: Tools says it is unavailable and keeps the focus
    expect(await tools.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await tools.getAttribute('aria-disabled')).toBe('true');
    // Enter on an unavailable Tools opens nothing
    await p.keyboard.press('Enter');
    expect(await menu.count()).toBe(0);
    // the list toolbar Delete: its pop-up closes with the button disabled (nothing selected), the focus not on <body>
    await p.goto(`${e2e.stack.url}/receipts/archive`);
    const archived = p.locator('[data-testid="receipt-row"]', { hasText: 'focus-2.pdf' });
    await until(() => archived.count()).toBe(1);
    await archived.locator('input[type="checkbox"]').check({ force: true });
    await p.getByRole('toolbar', { name: 'Document actions' }).getByRole('button', { name: 'Delete' }).focus();
    await p.keyboard.press('Enter');
    const modal = p.getByTestId('delete-receipts-modal');
    await until(() => modal.count()).toBe(1);
    await modal.getByRole('button', { name: 'Delete' }).focus();
    await p.keyboard.press('Enter');
    await until(() => modal.count()).toBe(0);
    await until(() => archived.count()).toBe(0);
    expect(await onBody(p)).toBe(false);
    await p.close();
  });

  it('on the edit screen: Edit Grid hands the focus to Cancel and back; Lines Move up and Delete row keep it in the rows', async () => {
    const p = await page();
    await p.goto(`${e2e.stack.url}/edit-receipt/${docId}?company_id=${companyId}`);
    await until(() => p.getByTestId('field-form').count()).toBe(1);
    await p.getByTestId('grid-edit').focus();
    await p.keyboard.press('Enter');
    await until(async () => (await focused(p)).testId).toBe('grid-cancel');
    await p.keyboard.press('Enter');
    await until(async () => (await focused(p)).testId).toBe('grid-edit');

    // two line items at least
    await p.getByTestId('tool-line-items').click();
    const rows = p.getByTestId('popup-row');
    await until(() => rows.count()).toBeGreaterThan(0);
    while ((await rows.count()) < 3) {
      const before = await rows.count();
      await p.getByRole('dialog').getByRole('button', { name: 'Add row' }).click();
      await until(() => rows.count()).toBe(before + 1);
    }
    // Add row: the focus goes to the new row's first cell, to type in at once
    const before = await rows.count();
    await p.getByRole('dialog').getByRole('button', { name: 'Add row' }).click();
    await until(() => rows.count()).toBe(before + 1);
    await until(async () => (await focused(p)).label).toMatch(new RegExp(`, row ${before + 1}$`));
    expect((await focused(p)).inDialog).toBe(true);
    const firstCell = () => rows.nth(0).locator('[data-field-input]').first().getAttribute('aria-label');
    // Move up on the second row: it becomes the first, its Move up unavailable but still focused
    await rows.nth(1).getByRole('button', { name: 'Move up' }).focus();
    const count = await rows.count();
    await p.keyboard.press('Enter');
    await until(() => rows.nth(0).getByRole('button', { name: 'Move up' }).getAttribute('aria-disabled')).toBe('true');
    // the focus follows the row to the top, on its Move up (now unavailable)
    await until(() => rows.nth(0).getByRole('button', { name: 'Move up' }).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await firstCell()).toMatch(/row 1$/);
    // Delete row: the next row Delete row takes the focus
    await rows.nth(0).getByRole('button', { name: 'Delete row' }).focus();
    await p.keyboard.press('Enter');
    await until(() => rows.count()).toBe(count - 1);
    await until(async () => (await focused(p)).label).toBe('Delete row');
    expect((await focused(p)).inDialog).toBe(true);
    await p.close();
  });

  it('an Integration Display switch keeps the focus while it saves', async () => {
    const p = await page();
    await p.goto(`${e2e.stack.url}/integration`);
    const toggle = p.getByTestId('toggle-display_imported_categories');
    await toggle.waitFor();
    // Its name says the section once ("Display Display only …" before), an export's names its section.
    expect(await toggle.getAttribute('aria-label')).toBe('Display only imported categories');
    expect(await p.getByRole('switch', { name: 'Export Rivile', exact: true }).count()).toBe(1);
    const was = await toggle.isChecked();
    await toggle.focus();
    await p.keyboard.press('Space');
    await until(() => toggle.isChecked()).toBe(!was);
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await until(() => toggle.getAttribute('aria-busy')).toBeNull();
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await p.close();
  });

  it('cancelling an invitation on My Team gives the focus to the next card, not to the page start', async () => {
    for (const [name, email] of [['Ona', `ona.${user.email}`], ['Jonas', `jonas.${user.email}`]] as const) {
      const res = await api.post(`/invitation?company_id=${companyId}`, { name, surname: 'Kitas', email, role: 'basic', company_id: companyId });
      expect(res.status).toBeLessThan(300);
    }
    const p = await page();
    await p.goto(`${e2e.stack.url}/my-team`);
    const cards = p.getByTestId('invitation-card');
    await until(() => cards.count()).toBe(2);
    // (each asks first: the question's Cancel Invitation is the second button, Back the first)
    const confirm = async () => {
      await until(() => p.getByTestId('cancel-invitation-modal').count()).toBe(1);
      await until(async () => (await focused(p)).text).toBe('Back');
      await p.keyboard.press('Tab');
      await until(async () => (await focused(p)).text).toBe('Cancel Invitation');
      await p.keyboard.press('Enter');
    };
    await cards.first().getByRole('button', { name: 'Cancel Invitation' }).focus();
    await p.keyboard.press('Enter');
    await confirm();
    await until(() => cards.count()).toBe(1);
    await until(async () => (await focused(p)).text).toBe('Cancel Invitation');
    expect(await p.getByTestId('cancel-invitation-modal').count()).toBe(0);
    await p.keyboard.press('Enter');
    await confirm();
    await until(() => cards.count()).toBe(0);
    await until(() => onBody(p)).toBe(false);
    await p.close();
  });

  it('in the export pop-up, Enter after Rename gives the focus back to Rename; Remove to the next field', async () => {
    const status = ((await api.get(`/receipts/${docId}?company_id=${companyId}`)).body as { status: string }).status;
    const p = await page();
    await p.goto(`${e2e.stack.url}/receipts/${status}`);
    const row = p.locator('[data-testid="receipt-row"]', { hasText: 'focus-1.pdf' });
    await until(() => row.count()).toBe(1);
    await row.locator('input[type="checkbox"]').check({ force: true });
    await p.getByRole('toolbar', { name: 'Document actions' }).getByRole('button', { name: 'Export' }).click();
    const fields = p.getByTestId('export-field');
    await until(() => fields.count()).toBeGreaterThan(2);
    const rename = fields.first().getByRole('button', { name: /^Rename / });
    await rename.focus();
    await p.keyboard.press('Enter');
    await until(async () => (await focused(p)).tag).toBe('INPUT');
    await p.keyboard.type(' X');
    await p.keyboard.press('Enter');
    await until(async () => (await focused(p)).label ?? '').toMatch(/^Rename .* X$/);
    const count = await fields.count();
    const second = await fields.nth(1).getByRole('button', { name: /^Remove / }).getAttribute('aria-label');
    await fields.first().getByRole('button', { name: /^Remove / }).focus();
    await p.keyboard.press('Enter');
    await until(() => fields.count()).toBe(count - 1);
    await until(async () => (await focused(p)).label).toBe(second);
    await p.close();
  });
});
