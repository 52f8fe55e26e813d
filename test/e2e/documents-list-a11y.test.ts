import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { listRowDocument, writeDocuments } from '../support/document-records';
import { axOf, screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };
const DOCS = 90;

/** WCAG contrast of each text-bearing element under `selector`, the text's colour faded by its own and its ancestors' opacity. */
const contrasts = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const rgba = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = (c: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
    };
    const background = (el: Element | null): number[] => {
      const layers: number[][] = [];
      for (let e = el; e; e = e.parentElement) {
        const b = rgba(getComputedStyle(e).backgroundColor);
        if (b.length === 4 && b[3] === 0) continue;
        layers.push(b);
        if (b.length === 3 || b[3] === 1) break;
      }
      let base = [255, 255, 255];
      for (const l of layers.reverse()) {
        const a = l.length === 4 ? l[3]! : 1;
        base = base.map((v, i) => l[i]! * a + v * (1 - a));
      }
      return base;
    };
    const out: Array<{ text: string; ratio: number }> = [];
    for (const host of document.querySelectorAll(sel)) {
      for (const el of [host, ...host.querySelectorAll('*')]) {
        const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent?.trim() ?? '').join('');
        if (!text || el.getClientRects().length === 0) continue;
        const cs = getComputedStyle(el);
        let opacity = 1;
        for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
        const bg = background(el);
        const c = rgba(cs.color);
        const a = (c.length === 4 ? c[3]! : 1) * opacity;
        const fg = bg.map((v, i) => c[i]! * a + v * (1 - a));
        const [l1, l2] = [lum(fg), lum(bg)];
        out.push({ text, ratio: Math.round(((Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05)) * 100) / 100 });
      }
    }
    return out;
  }, selector);

/**
 * The documents list for assistive technology: rows loaded by scrolling carry their cells and texts in the
 * accessibility tree wherever the window is, the rows and their buttons name their document, and the greyed rows
 * and the side menu's zero counts keep 4.5:1.
 */
describe('documents list accessibility in Chromium', () => {
  const user = newUser('a11ylist');
  const ids = Array.from({ length: DOCS }, (_, i) => `DOCA11Y${String(DOCS - i).padStart(19, '0')}`);

  const e2e = useBrowserStack('list-a11y');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    const doc = (id: string, i: number, status: 'review' | 'saving') => listRowDocument(companyId, id, i, DOCS, status);
    await writeDocuments([...ids.map((id, i) => doc(id, i, 'review')), doc('DOCA11YSAVING0000000000000', 999, 'saving')]);
  });

  it('a row past the first page is in the accessibility tree with its cells and texts, out of sight or not', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    await page.goto(`${e2e.stack.url}/receipts/review`);
    const rows = page.getByTestId('receipt-row');
    await expect.poll(() => rows.count(), WAIT).toBe(50);
    await page.locator('.list-sentinel').scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count(), WAIT).toBe(DOCS);
    // back at the top: row 81 is far below the window
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(500);
    const far = await axOf(page, `[data-receipt-id="${ids[80]}"]`);
    expect(far.cells).toBeGreaterThanOrEqual(8);
    expect(far.text).toContain('Supplier 80 UAB');
    expect(far.text).toContain('INV-80');
    expect(far.text).toContain('scan-80.pdf');
    expect(far).toMatchObject({ role: 'row', name: 'Open scan-80.pdf' });
    expect(far.buttons).toEqual(expect.arrayContaining(['Preview scan-80.pdf', 'Flag scan-80.pdf']));
    // and a row of the first page, in sight
    const near = await axOf(page, `[data-receipt-id="${ids[1]}"]`);
    expect(near).toMatchObject({ role: 'row', name: 'Open scan-1.pdf' });
    expect(near.text).toContain('Supplier 1 UAB');
    // at the bottom, the first rows are out of sight and still whole
    await page.locator(`[data-receipt-id="${ids[DOCS - 1]}"]`).scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    expect((await axOf(page, `[data-receipt-id="${ids[60]}"]`)).text).toContain('Supplier 60 UAB');
    expect((await axOf(page, `[data-receipt-id="${ids[5]}"]`)).cells).toBeGreaterThanOrEqual(8);
    await page.close();
  });

  it('a saving row is greyed with 4.5:1 text, and the side menu zero counts have 4.5:1 on their link, the active one too', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    await page.goto(`${e2e.stack.url}/receipts/saving`);
    await expect.poll(() => page.locator('[data-testid="receipt-row"].is-greyed').count(), WAIT).toBe(1);
    const saving = await contrasts(page, '[data-testid="receipt-row"].is-greyed');
    expect(saving.map((c) => c.text)).toEqual(expect.arrayContaining(['Supplier 999 UAB', 'scan-999.pdf']));
    expect(saving.filter((c) => c.ratio < 4.5)).toEqual([]);
    await screenshot(page, 'documents-list-saving-row');
    // Failed has no document: its zero count sits on the active link
    await page.goto(`${e2e.stack.url}/receipts/failed`);
    await expect.poll(() => page.getByTestId('receipts-empty').count(), WAIT).toBe(1);
    const badges = await contrasts(page, '.badge-muted');
    expect(badges.length).toBeGreaterThan(1);
    expect(badges.filter((c) => c.ratio < 4.5)).toEqual([]);
    const activeZero = await page.locator('.nav-link.active .badge-muted, .nav-sublink.active .badge-muted').count();
    expect(activeZero).toBeGreaterThan(0);
    await page.close();
  });
});
