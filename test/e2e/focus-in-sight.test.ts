import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInPage } from '../support/browser';
import { listRowDocument, writeDocuments } from '../support/document-records';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

/**
 * What the focused control shows once the browser has drawn it: null when it is in sight, else what sticky part of
 * the screen (the page's header, the edit screen's action bar, a list's header) is drawn over the middle of one of
 * its edges.
 */
async function focusCovered(page: Page): Promise<string | null> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null;
    if (!focused || focused === document.body) return null;
    // a checkbox drawn by its label is seen as the label
    const region = focused.getBoundingClientRect().height < 4 ? (focused.closest('label') ?? focused.parentElement!) : focused;
    const b = region.getBoundingClientRect();
    const [mx, my] = [(b.left + b.right) / 2, (b.top + b.bottom) / 2];
    const covers: string[] = [];
    for (const [x, y] of [[mx, b.top + 2], [mx, b.bottom - 2], [b.left + 2, my], [b.right - 2, my]] as const) {
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || region.contains(hit) || hit.contains(region)) continue;
      let el: Element | null = hit;
      while (el && getComputedStyle(el).position !== 'sticky') el = el.parentElement;
      if (el) covers.push(String((el as HTMLElement).className || el.tagName));
    }
    const name = focused.getAttribute('aria-label') ?? focused.getAttribute('name') ?? focused.textContent?.trim().slice(0, 24);
    return covers.length ? `${focused.tagName} ${name} under ${[...new Set(covers)].join(', ')}` : null;
  });
}

/**
 * The keyboard focus is never left under a sticky part of the screen (WCAG 2.4.11), in Chromium: Shift+Tab up a
 * scrolled documents list, and up the edit screen's form where its action bar sticks over the page's header (a
 * narrow window and a phone). Before, the rows and fields went under the header as the page scrolled up.
 */
describe('the keyboard focus stays in sight under sticky headers in Chromium', () => {
  let companyId: string;
  let docId: string;
  const user = newUser('focussight');
  const ids = Array.from({ length: 40 }, (_, i) => `DOCSIGHT${String(40 - i).padStart(18, '0')}`);

  const e2e = useBrowserStack('focus-sight');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    await writeDocuments(ids.map((id, i) => listRowDocument(companyId, id, i, ids.length, 'review')));
    docId = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'SIGHT-1' }), 'SIGHT-1.pdf');
  }, 120_000);

  /** From the screen's last control, `presses` times Shift+Tab: every control that took the focus was in sight. */
  async function walkUp(size: { width: number; height: number }, to: string, ready: string, presses: number): Promise<string[]> {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, size);
    await page.goto(`${e2e.stack.url}${to}`);
    await page.locator(ready).first().waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    await page.mouse.wheel(0, 20_000);
    const controls = page.locator('main a[href], main button:not([disabled]), main input:not([type=hidden]):not([disabled]), main select, main textarea');
    await controls.last().focus();
    const hidden: string[] = [];
    let moved = 0;
    for (let i = 0; i < presses; i++) {
      await page.keyboard.press('Shift+Tab');
      const covered = await focusCovered(page);
      if (covered) hidden.push(covered);
      if (await page.evaluate(() => window.scrollY > 0)) moved++;
    }
    // the walk went up a page that scrolls
    expect(moved).toBeGreaterThan(0);
    await screenshot(page, `focus-in-sight-${to.split('/')[1]}-${size.width}`);
    await page.close();
    return hidden;
  }

  it('Shift+Tab up a scrolled documents list keeps each row clear of the header', async () => {
    expect(await walkUp({ width: 1400, height: 700 }, '/receipts/review', '[data-testid="receipt-row"]', 60)).toEqual([]);
    expect(await walkUp({ width: 800, height: 600 }, '/receipts/review', '[data-testid="receipt-row"]', 60)).toEqual([]);
  });

  it("Shift+Tab up the edit screen's form keeps each field clear of the action bar and the header", async () => {
    const to = `/edit-receipt/${docId}?company_id=${companyId}`;
    expect(await walkUp({ width: 900, height: 600 }, to, '[data-testid="field-form"]', 40)).toEqual([]);
    expect(await walkUp({ width: 390, height: 700 }, to, '[data-testid="field-form"]', 40)).toEqual([]);
  });

  it("the edit screen's sticky action bar hides the whole page header beneath it, and the side menu's Collapse button stays inside the menu", async () => {
    for (const size of [{ width: 900, height: 600 }, { width: 390, height: 700 }]) {
      const page = await signInPage(e2e.browser, e2e.stack.url, user, size);
      await page.goto(`${e2e.stack.url}/edit-receipt/${docId}?company_id=${companyId}`);
      await page.locator('[data-testid="field-form"]').first().waitFor({ timeout: 15_000 });
      await page.mouse.move(size.width - 40, size.height / 2);
      await page.mouse.wheel(0, 500);
      await page.waitForTimeout(300);
      // Every row of pixels of the header's height, at the right of the screen: the action bar, never the header.
      const seen = await page.evaluate(() => {
        const header = document.querySelector('.topbar')!.getBoundingClientRect();
        const out: string[] = [];
        for (let y = header.top + 1; y < header.bottom; y += 2) {
          const hit = document.elementFromPoint(innerWidth - 24, y);
          out.push(hit?.closest('.er-topbar') ? 'bar' : hit?.closest('.topbar') ? `header at ${Math.round(y)}` : 'other');
        }
        return [...new Set(out)];
      });
      expect(seen).toEqual(['bar']);
      await screenshot(page, `edit-bar-over-header-${size.width}`);
      await page.close();
    }
    // A window so short that the side menu scrolls: its Collapse button lies inside the menu's padding, where the
    // menu's scrollbar never covers it or clips its focus ring.
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1400, height: 420 });
    await page.goto(`${e2e.stack.url}/receipts/review`);
    const collapse = page.getByRole('button', { name: 'Collapse menu' });
    await collapse.waitFor();
    const room = await collapse.evaluate((button) => {
      const nav = button.closest('nav')!;
      const n = nav.getBoundingClientRect();
      return { scrolls: nav.scrollHeight > nav.clientHeight, gap: n.right - parseFloat(getComputedStyle(nav).paddingRight) - button.getBoundingClientRect().right };
    });
    expect(room.scrolls).toBe(true);
    expect(room.gap).toBeGreaterThanOrEqual(0);
    await page.close();
  });
});
