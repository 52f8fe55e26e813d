import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInOn, signInPage } from '../support/browser';
import { findContentItem } from '../support/content-items';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/**
 * A line item's Description in the Lines pop-up offers the company's items as it is typed in, in Chromium: chosen
 * with the keyboard (arrows, Enter; Escape closes the list and leaves the pop-up open), saved as the item's name;
 * free text stays. The list floats over the grid: never cut off by its scrolling area, at desktop and phone width.
 */
describe("a line item's description offers the company's items in Chromium", () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  const ids: Record<string, string> = {};
  const user = newUser('lineitems');
  const q = () => `company_id=${companyId}`;
  const content = async (id: string) => (await api.get(`/receipts/${id}/content?${q()}`)).body as ContentResponse;
  const descriptions = async (id: string) =>
    findContentItem((await content(id)).content, 'line_items')!.children.map((r) => r.children.find((x) => x.schema_id === 'description')?.content?.value ?? '');

  /** A document of the company with `rows` line items at least. */
  async function documentWithLines(number: string, rows: number): Promise<string> {
    const id = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number }), `${number}.pdf`);
    let c = await content(id);
    while (findContentItem(c.content, 'line_items')!.children.length < rows) {
      const res = await api.post(`/receipts/${id}/content/line_items?${q()}`, { version: c.version, after: null });
      expect(res.status).toBe(201);
      c = res.body as ContentResponse;
    }
    return id;
  }

  const e2e = useBrowserStack('line-items');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    ids.short = await documentWithLines('ITEMS-1', 3);
    ids.long = await documentWithLines('ITEMS-2', 20);
    ids.phone = await documentWithLines('ITEMS-3', 3);
    // The items come after the uploads: recognition renamed no line after them.
    for (const item of [
      { name: 'Office Chair Ergo', words: ['chair'] },
      { name: 'Office Desk Oak', words: ['desk'] },
    ]) {
      expect((await api.post(`/item?${q()}`, item)).status).toBe(201);
    }
  });

  const descriptionCell = (page: Page, row: number) => page.locator(`input[name$=".description"][aria-label$=", row ${row}"]`);

  async function openDocument(page: Page, id: string) {
    await page.goto(`${e2e.stack.url}/edit-receipt/${id}?company_id=${companyId}`);
    await until(() => page.getByTestId('field-form').count()).toBe(1);
  }

  /** Opens the Lines pop-up from the form's Line items. */
  async function openPopup(page: Page, press: 'click' | 'tap' = 'click') {
    const open = page.getByTestId('open-line_items');
    await open.scrollIntoViewIfNeeded();
    await open[press]();
    await until(() => page.getByTestId('popup-line_items').count()).toBe(1);
  }

  /** A 360 px touch phone signed in, the document `id` open and its Lines pop-up opened by a tap. */
  async function phoneWithPopup(id: string) {
    const ctx = await e2e.browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await ctx.newPage();
    await signInOn(page, e2e.stack.url, user, 'tap');
    await openDocument(page, id);
    // The side menu may open over the screen on a phone: out of the way
    const collapse = page.getByRole('button', { name: 'Collapse menu' });
    if (await collapse.isVisible()) await collapse.tap();
    await openPopup(page, 'tap');
    return { ctx, page };
  }

  /** The list is all in sight: inside the window, and the topmost thing at its corners is the list itself. */
  async function expectListInSight(page: Page, list: Locator) {
    const box = (await list.boundingBox())!;
    const view = page.viewportSize()!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(view.width);
    expect(box.y + box.height).toBeLessThanOrEqual(view.height);
    const corners = [
      [box.x + 4, box.y + 4],
      [box.x + box.width - 4, box.y + 4],
      [box.x + 4, box.y + box.height - 4],
      [box.x + box.width - 4, box.y + box.height - 4],
    ];
    for (const [x, y] of corners) {
      expect(await page.evaluate(({ x, y }) => Boolean(document.elementFromPoint(x, y)?.closest('[data-testid="item-suggestions"]')), { x: x!, y: y! })).toBe(true);
    }
  }

  it('typing part of a name offers the items; arrows and Enter choose one, Escape closes the list only; the name is saved', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await openDocument(page, ids.short!);
    await openPopup(page);
    const cell = descriptionCell(page, 2);
    expect(await cell.getAttribute('role')).toBe('combobox');
    await cell.click();
    await cell.fill('');
    await cell.pressSequentially('offi');
    const options = page.getByTestId('item-suggestion');
    await until(() => options.allInnerTexts()).toEqual(['Office Chair Ergo', 'Office Desk Oak']);
    expect(await cell.getAttribute('aria-expanded')).toBe('true');
    // nothing is active until an arrow key: Enter chooses nothing
    expect(await cell.getAttribute('aria-activedescendant')).toBeNull();
    await expectListInSight(page, page.getByTestId('item-suggestions'));
    await screenshot(page, 'edit-line-item-suggestions');
    await page.screenshot({ path: path.join(path.dirname(await screenshot(page, 'edit-line-item-suggestions')), 'edit-line-item-suggestions-viewport.png') });

    // Escape closes the list, not the pop-up; typing on opens it again
    await page.keyboard.press('Escape');
    await until(() => page.getByTestId('item-suggestions').count()).toBe(0);
    expect(await page.getByTestId('popup-line_items').count()).toBe(1);
    await cell.pressSequentially('ce');
    await until(() => options.count()).toBe(2);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await until(() => page.locator('[data-testid="item-suggestion"][aria-selected="true"]').innerText()).toBe('Office Desk Oak');
    await page.keyboard.press('Enter');
    await until(() => cell.inputValue()).toBe('Office Desk Oak');
    await until(() => page.getByTestId('item-suggestions').count()).toBe(0);
    expect(await page.getByTestId('popup-line_items').count()).toBe(1);

    // free text stays: a description that names no item is kept as typed
    const free = descriptionCell(page, 3);
    await free.click();
    await free.fill('Delivery fee');
    await page.waitForTimeout(800);
    expect(await page.getByTestId('item-suggestions').count()).toBe(0);
    await until(() => descriptions(ids.short!)).toEqual([expect.any(String), 'Office Desk Oak', 'Delivery fee']);

    // reloaded: the item's name is the line's description
    await page.reload();
    await until(() => page.getByTestId('field-form').count()).toBe(1);
    await openPopup(page);
    await until(() => descriptionCell(page, 2).inputValue()).toBe('Office Desk Oak');
    expect(await descriptionCell(page, 3).inputValue()).toBe('Delivery fee');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the last rows' list is not cut off by the grid's scrolling area; a click chooses too", async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });
    await openDocument(page, ids.long!);
    await openPopup(page);
    const wrap = page.locator('.er-table-wrap');
    await wrap.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const cell = descriptionCell(page, 20);
    await until(() => cell.count()).toBe(1);
    await cell.click();
    await cell.fill('');
    await cell.pressSequentially('desk');
    const list = page.getByTestId('item-suggestions');
    await until(() => page.getByTestId('item-suggestion').allInnerTexts()).toEqual(['Office Desk Oak']);
    await expectListInSight(page, list);
    await screenshot(page, 'edit-line-item-suggestions-last-row');
    await page.getByTestId('item-suggestion').click();
    await until(() => cell.inputValue()).toBe('Office Desk Oak');
    await until(async () => (await descriptions(ids.long!))[19]).toBe('Office Desk Oak');
    await page.close();
  });

  it('at phone width a cell that takes the focus is never under the row tools that stay in sight', async () => {
    const { ctx, page } = await phoneWithPopup(ids.short!);
    const wrap = page.getByTestId('popup-line_items').locator('.er-table-wrap');
    const tools = page.getByTestId('popup-line_items').locator('td.er-col-tools').first();
    const inputs = page.getByTestId('popup-line_items').locator('tbody tr').first().locator('input');
    const count = await inputs.count();
    // The grid is wider than the phone: it scrolls sideways
    expect(await wrap.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    const clear = async (input: Locator) => {
      const box = (await input.boundingBox())!;
      const toolsBox = (await tools.boundingBox())!;
      const wrapBox = (await wrap.boundingBox())!;
      return box.x >= wrapBox.x - 0.5 && box.x + box.width <= toolsBox.x + 0.5;
    };
    // Scrolled to its end, then each cell taken by the keyboard from the last one back to the first
    await wrap.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await inputs.nth(count - 1).focus();
    for (let i = count - 1; i >= 0; i--) {
      if (i < count - 1) await page.keyboard.press('Shift+Tab');
      await until(() => inputs.nth(i).evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await clear(inputs.nth(i)), `cell ${i}`).toBe(true);
    }
    // and forwards from the first
    for (let i = 1; i < count; i++) {
      await page.keyboard.press('Tab');
      await until(() => inputs.nth(i).evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await clear(inputs.nth(i)), `cell ${i}`).toBe(true);
    }
    await screenshot(page, 'edit-line-item-phone-focus');
    // A row half under the header that stays in sight: its cell taking the focus comes out from under it
    await page.getByTestId('popup-line_items').getByRole('button', { name: 'Close' }).first().tap();
    await openDocument(page, ids.long!);
    await openPopup(page, 'tap');
    const longWrap = page.getByTestId('popup-line_items').locator('.er-table-wrap');
    const head = page.getByTestId('popup-line_items').locator('thead th').first();
    const cell = descriptionCell(page, 6);
    await longWrap.evaluate((el) => {
      el.scrollIntoView({ block: 'start' });
      el.scrollTop = 0;
    });
    const rowTop = (await cell.boundingBox())!.y - (await longWrap.boundingBox())!.y;
    const headHeight = (await head.boundingBox())!.height;
    await longWrap.evaluate((el, to) => (el.scrollTop = to), rowTop - headHeight + 12);
    await cell.focus();
    await until(async () => (await cell.boundingBox())!.y >= (await head.boundingBox())!.y + headHeight - 0.5).toBe(true);
    await ctx.close();
  });

  it('at phone width the list stays inside the screen over the pop-up', async () => {
    const { ctx, page } = await phoneWithPopup(ids.phone!);
    const cell = descriptionCell(page, 1);
    await cell.scrollIntoViewIfNeeded();
    await cell.tap();
    await cell.fill('');
    await cell.pressSequentially('chair');
    await until(() => page.getByTestId('item-suggestion').allInnerTexts()).toEqual(['Office Chair Ergo']);
    await expectListInSight(page, page.getByTestId('item-suggestions'));
    await page.screenshot({ path: path.join(path.dirname(await screenshot(page, 'edit-line-item-suggestions-phone')), 'edit-line-item-suggestions-phone-viewport.png') });
    await page.getByTestId('item-suggestion').tap();
    await until(() => cell.inputValue()).toBe('Office Chair Ergo');
    await until(async () => (await descriptions(ids.phone!))[0]).toBe('Office Chair Ergo');
    await ctx.close();
  });
});
