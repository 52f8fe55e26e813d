import path from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInOn } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { findContentItem } from '../support/content-items';
import { useBrowserStack } from '../support/e2e-stack';

type Point = { x: number; y: number };

/**
 * The edit screen on a phone or tablet (touch, not mouse): a swipe on the page image pans it and never writes into
 * the focused field; reading an area of the page by touch is an explicit mode (Select on image); the sticky action
 * bar takes one row with the primary action in sight and the other actions in a More menu. Touches are real CDP
 * touch events (Input.dispatchTouchEvent), not mouse events.
 */
describe('edit-receipt screen on touch devices', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  let docId: string;
  const user = newUser('toucher');
  const q = () => `company_id=${companyId}`;
  const content = async () => (await api.get(`/receipts/${docId}/content?${q()}`)).body as ContentResponse;
  const storedTotal = async () => findContentItem((await content()).content, 'amount_total')!.content!.value;
  const setTotal = async (value: string) => {
    const put = await api.put(`/receipts/${docId}/content?${q()}`, { version: (await content()).version, items: [{ id: 'amount_total', value }] });
    expect(put.status).toBe(200);
  };

  const e2e = useBrowserStack('edit-touch');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    docId = await uploadDocument(e2e.stack, api, companyId, await invoicePdf(SAMPLE_INVOICE), 'touch.pdf');
  });

  /** A signed-in phone (or tablet): touch only, mobile viewport. */
  async function touchDevice(width = 360, height = 740): Promise<{ ctx: BrowserContext; page: Page; cdp: CDPSession; selects: string[] }> {
    const ctx = await e2e.browser.newContext({ viewport: { width, height }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await ctx.newPage();
    const selects: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/content\/[^/]+\/select/.test(r.url())) selects.push(r.url());
    });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await signInOn(page, e2e.stack.url, user, 'tap');
    await page.goto(`${e2e.stack.url}/edit-receipt/${docId}?company_id=${companyId}`);
    await expect.poll(() => page.getByTestId('ocr-box').count()).toBeGreaterThan(20);
    // The side menu may open over the screen on a phone: out of the way
    const collapse = page.getByRole('button', { name: 'Collapse menu' });
    if (width <= 720 && (await collapse.isVisible())) await collapse.tap();
    return { ctx, page, cdp: await ctx.newCDPSession(page), selects };
  }

  /** One finger from `from` to `to`, in small steps, as a real touch. */
  async function drag(page: Page, cdp: CDPSession, from: Point, to: Point) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
    for (let i = 1; i <= 12; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x + ((to.x - from.x) * i) / 12, y: from.y + ((to.y - from.y) * i) / 12 }] });
      await page.waitForTimeout(16);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }

  /** A point on page 1 with no word under it, inside the part of the pages pane that is on the screen. */
  async function blankPoint(page: Page): Promise<Point> {
    const pt = await page.evaluate(() => {
      const pane = document.querySelector('.er-left')!.getBoundingClientRect();
      const img = document.querySelector('[data-testid="page-1"] .er-page-inner')!.getBoundingClientRect();
      const top = Math.max(pane.top, img.top, 0) + 40;
      const bottom = Math.min(pane.bottom, img.bottom, window.innerHeight) - 40;
      for (let y = bottom; y > top; y -= 9)
        for (let x = img.left + 10; x < img.right - 10; x += 9) {
          const el = document.elementFromPoint(x, y);
          if (el?.classList.contains('er-page-inner')) return { x, y };
        }
      return null;
    });
    expect(pt).not.toBeNull();
    return pt!;
  }

  /** Total focused by a tap; the pages pane brought on screen, at its top. */
  async function focusTotalThenGoToPage(page: Page) {
    const total = page.getByTestId('field-amount_total');
    await total.tap();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('field-amount_total');
    await page.locator('.er-left').evaluate((el) => {
      el.scrollTop = 0;
      window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 120);
    });
    await page.waitForTimeout(300);
    return total;
  }

  const scrolled = (page: Page) => page.evaluate(() => Math.round(window.scrollY + document.querySelector('.er-left')!.scrollTop));

  it('a one-finger swipe on the page image pans it and leaves the focused field as it is', async () => {
    await setTotal('260.25');
    const { ctx, page, cdp, selects } = await touchDevice();
    const total = await focusTotalThenGoToPage(page);
    expect(await total.inputValue()).toBe('260.25');
    const before = await scrolled(page);
    const from = await blankPoint(page);
    await drag(page, cdp, from, { x: from.x + 20, y: from.y - 200 });
    await page.waitForTimeout(800);
    expect(await scrolled(page)).toBeGreaterThan(before + 50);
    // and a swipe that starts on a printed word pans as well, without reading it
    const word = page.locator(`[data-testid="ocr-box"][data-text="${SAMPLE_INVOICE.total}"]`).first();
    await word.scrollIntoViewIfNeeded();
    const box = (await word.boundingBox())!;
    await drag(page, cdp, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, { x: box.x + box.width / 2 + 10, y: box.y - 150 });
    await page.waitForTimeout(1500);
    expect(selects).toEqual([]);
    expect(await storedTotal()).toBe('260.25');
    expect(await total.inputValue()).toBe('260.25');
    // (pinch-zoom is the browser's: the image lets it through, no longer touch-action none)
    expect(await page.locator('[data-testid="page-1"] .er-page-inner').evaluate((el) => getComputedStyle(el).touchAction)).toMatch(/pinch-zoom|auto|manipulation/);
    await screenshot(page, 'edit-touch-360-after-swipe');
    await ctx.close();
  });

  it('reads an area of the page by touch only in the Select on image mode; an area without text changes nothing', async () => {
    await setTotal('999.00');
    const { ctx, page, cdp, selects } = await touchDevice();
    const total = await focusTotalThenGoToPage(page);
    const toggle = page.getByRole('button', { name: 'Select on image' });
    await toggle.tap();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('[data-testid="page-1"] .er-page-inner').evaluate((el) => getComputedStyle(el).touchAction)).toBe('none');
    // An area with no word in it: nothing is sent, the field keeps its value, and the screen says why
    const blank = await blankPoint(page);
    await drag(page, cdp, blank, { x: blank.x + 25, y: blank.y - 25 });
    await expect.poll(() => page.getByText('No text found in the selected area').count()).toBe(1);
    expect(selects).toEqual([]);
    // An area around the printed total: read into Total
    const word = page.locator(`[data-testid="ocr-box"][data-text="${SAMPLE_INVOICE.total}"]`).first();
    await word.scrollIntoViewIfNeeded();
    const box = (await word.boundingBox())!;
    await drag(page, cdp, { x: box.x - 6, y: box.y - 5 }, { x: box.x + box.width + 6, y: box.y + box.height + 5 });
    await expect.poll(() => selects.length).toBe(1);
    await expect.poll(storedTotal).toBe(SAMPLE_INVOICE.total);
    await expect.poll(() => total.inputValue()).toBe(SAMPLE_INVOICE.total);
    await screenshot(page, 'edit-touch-360-area-read');
    // Off again: a drag on the image pans
    await toggle.tap();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await ctx.close();
  });

  it('does not write an area into a field the user left while the pick was on its way', async () => {
    await setTotal('999.00');
    const { ctx, page, cdp, selects } = await touchDevice();
    const total = page.getByTestId('field-amount_total');
    await total.tap();
    // A typed value makes the pick save it first; that save is held until the user has moved to another field
    await total.fill('555.00');
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let saves = 0;
    await page.route(
      (url) => url.pathname.endsWith(`/receipts/${docId}/content`),
      async (route) => {
        if (route.request().method() === 'PUT') {
          saves += 1;
          await held;
        }
        await route.continue();
      },
    );
    await page.getByRole('button', { name: 'Select on image' }).tap();
    const word = page.locator(`[data-testid="ocr-box"][data-text="${SAMPLE_INVOICE.total}"]`).first();
    await word.scrollIntoViewIfNeeded();
    const box = (await word.boundingBox())!;
    await drag(page, cdp, { x: box.x - 6, y: box.y - 5 }, { x: box.x + box.width + 6, y: box.y + box.height + 5 });
    await expect.poll(() => saves).toBe(1);
    await page.getByTestId('field-document_id').focus();
    release();
    await expect.poll(storedTotal).toBe('555.00');
    await page.waitForTimeout(1500);
    expect(selects).toEqual([]);
    expect(await storedTotal()).toBe('555.00');
    await ctx.close();
  });

  it('keeps the sticky action bar to one row at 360 px, the primary action in sight, the others in a More menu', async () => {
    const { ctx, page } = await touchDevice();
    const bar = page.locator('.er-topbar');
    const confirm = bar.getByRole('button', { name: 'CONFIRM' });
    const check = async () => {
      const b = (await bar.boundingBox())!;
      expect(b.height).toBeLessThanOrEqual(72);
      const c = (await confirm.boundingBox())!;
      expect(c.x).toBeGreaterThanOrEqual(0);
      expect(c.x + c.width).toBeLessThanOrEqual(360);
      expect(c.y).toBeGreaterThanOrEqual(0);
      // nothing over it
      expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent, { x: c.x + c.width / 2, y: c.y + c.height / 2 })).toContain('CONFIRM');
    };
    await check();
    // The screen is no wider than the phone, SHOW KEYS included.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const keys = (await page.getByRole('button', { name: 'SHOW KEYS' }).boundingBox())!;
    expect(keys.x + keys.width).toBeLessThanOrEqual(360);
    await screenshot(page, 'edit-touch-360-bar');
    // While the form scrolls under it
    await page.getByTestId('field-amount_total').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    await page.waitForTimeout(300);
    await check();
    expect((await bar.boundingBox())!.y).toBeLessThanOrEqual(1);
    await page.screenshot({ path: path.join(path.dirname(await screenshot(page, 'edit-touch-360-form')), 'edit-touch-360-form-viewport.png') });
    // The More menu by touch: the other status actions and the tools
    const more = bar.getByRole('button', { name: 'More' });
    await more.tap();
    const menu = page.getByRole('menu', { name: 'More' });
    const labels = await menu.getByRole('menuitem').allInnerTexts();
    expect(labels).toEqual(expect.arrayContaining(['REJECT', 'Review', 'Archive', 'Flag', 'Export', 'Delete', 'Duplicates']));
    await page.screenshot({ path: path.join(path.dirname(await screenshot(page, 'edit-touch-360-more')), 'edit-touch-360-more-viewport.png') });
    await menu.getByRole('menuitem', { name: 'Duplicates' }).tap();
    await expect.poll(() => page.getByRole('menu', { name: 'More' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // and by keyboard: Enter opens it on its first item, arrows move, Escape closes it back on the button
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('REJECT');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu', { name: 'More' }).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('More');
    await ctx.close();
  });

  it('on a tablet the image zooms with the viewer buttons and the bar stays one row', async () => {
    const { ctx, page } = await touchDevice(768, 1024);
    const img = page.locator('[data-testid="page-1"] .er-page-inner');
    const w0 = (await img.boundingBox())!.width;
    await page.getByRole('button', { name: 'Zoom in' }).tap();
    await expect.poll(async () => (await img.boundingBox())!.width).toBeGreaterThan(w0 * 1.3);
    expect(await page.locator('.er-left').evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await screenshot(page, 'edit-touch-768-zoomed');
    await page.getByRole('button', { name: 'Zoom out' }).tap();
    await expect.poll(async () => Math.round((await img.boundingBox())!.width)).toBe(Math.round(w0));
    expect((await page.locator('.er-topbar').boundingBox())!.height).toBeLessThanOrEqual(72);
    await page.screenshot({ path: path.join(path.dirname(await screenshot(page, 'edit-touch-768')), 'edit-touch-768-viewport.png') });
    await ctx.close();
  });

  it('with a mouse a drag on the page still reads the area into the focused field, and an empty area changes nothing', async () => {
    await setTotal('999.00');
    const page = await e2e.browser.newPage({ viewport: { width: 1500, height: 950 } });
    const selects: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/content\/[^/]+\/select/.test(r.url())) selects.push(r.url());
    });
    await page.goto(`${e2e.stack.url}/signin`);
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
    await page.goto(`${e2e.stack.url}/edit-receipt/${docId}?company_id=${companyId}`);
    await expect.poll(() => page.getByTestId('ocr-box').count()).toBeGreaterThan(20);
    const total = page.getByTestId('field-amount_total');
    await total.click();
    const mouseDrag = async (from: Point, to: Point) => {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
      await page.mouse.move(to.x, to.y, { steps: 4 });
      await page.mouse.up();
    };
    const blank = await blankPoint(page);
    await mouseDrag(blank, { x: blank.x + 30, y: blank.y - 30 });
    await expect.poll(() => page.getByText('No text found in the selected area').count()).toBe(1);
    expect(selects).toEqual([]);
    expect(await total.inputValue()).toBe('999.00');
    const word = page.locator(`[data-testid="ocr-box"][data-text="${SAMPLE_INVOICE.total}"]`).first();
    await word.scrollIntoViewIfNeeded();
    const box = (await word.boundingBox())!;
    await mouseDrag({ x: box.x - 6, y: box.y - 5 }, { x: box.x + box.width + 6, y: box.y + box.height + 5 });
    await expect.poll(() => total.inputValue()).toBe(SAMPLE_INVOICE.total);
    await expect.poll(storedTotal).toBe(SAMPLE_INVOICE.total);
    expect(selects.length).toBe(1);
    await page.close();
  });
});
