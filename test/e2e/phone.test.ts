import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { listRowDocument, writeDocuments } from '../support/document-records';
import { axOf, screenshot, signInOn, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };
const DOCS = 60;
const PHONE = { width: 360, height: 740 };
const LONG_NAME = 'Labai ilgas tiekejo pavadinimas uzdaroji akcine bendrove Baltijos Prekybos Centras ir partneriai';

/** The page's width as laid out (a page wider than the phone scrolls sideways and pushes pop-ups off its edge). */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

const box = async (page: Page, selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not drawn`);
  return b;
};

/** The side menu is drawn (an overlay on a phone) and how wide. */
const menuState = (page: Page) =>
  page.getByTestId('side-menu').evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { shown: r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden', width: Math.round(r.width) };
  });

/**
 * The web app on a 360 px phone (touch, Android Chrome's mobile emulation): no screen is wider than the phone, the
 * documents list shows each document as a readable two-line card that stays whole for screen readers, the side
 * menu is a closed overlay opened by the header's menu button, and the row checkboxes and switches are big
 * enough to tap. A desktop window keeps the side menu beside the content.
 */
describe('the web app on a phone in Chromium', () => {
  const user = newUser('phone');
  const ids = Array.from({ length: DOCS }, (_, i) => `DOCPHONE${String(DOCS - i).padStart(18, '0')}`);

  const e2e = useBrowserStack('phone');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    await writeDocuments(
      ids.map((id, i) => {
        const doc = listRowDocument(companyId, id, i, DOCS, i % 3 === 0 ? 'ready' : 'review');
        if (i === 2) doc.counterparty_name = LONG_NAME;
        return doc;
      }),
    );
  }, 120_000);

  async function phone(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await e2e.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await signInOn(await context.newPage(), e2e.stack.url, user, 'tap');
    await page.getByTestId('header-identity').waitFor(WAIT);
    return { context, page };
  }

  /** Goes to `path` through the address bar and waits for the screen's requests. */
  async function visit(page: Page, to: string, ready: string) {
    await page.goto(`${e2e.stack.url}${to}`);
    await page.locator(ready).first().waitFor(WAIT);
    await page.waitForLoadState('networkidle');
  }

  it('every screen of the tour fits a 360 px phone, pop-ups included; the active company stays named in the header', async () => {
    const { context, page } = await phone();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    // the header names the active company, cut with an ellipsis when long, not squeezed away
    const identity = await box(page, '[data-testid="header-identity"] .topbar-company');
    expect(identity.width).toBeGreaterThan(60);
    expect(identity.x + identity.width).toBeLessThanOrEqual(PHONE.width);
    // and the user after it in the room left, as on a wide screen (company, a dash, the user's name)
    expect(await page.locator('[data-testid="header-identity"] .topbar-user').isVisible()).toBe(true);
    expect(await page.getByTestId('header-identity').innerText()).toMatch(/ - \S/);
    await screenshot(page, 'phone-dashboard');

    await visit(page, '/receipts/inbox', '[data-testid="receipt-row"]');
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('button', { name: 'ADD' }).tap();
    await page.getByTestId('upload-modal').waitFor(WAIT);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    const upload = await box(page, '[data-testid="upload-modal"]');
    expect(upload.x).toBeGreaterThanOrEqual(0);
    expect(upload.x + upload.width).toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId('upload-modal').getByRole('button', { name: 'Close' }).tap();

    await page.getByTestId('receipt-row').nth(1).locator('label.row-check').tap();
    await expect.poll(() => page.getByTestId('selection-count').count(), WAIT).toBe(1);
    await page.getByRole('button', { name: 'Export' }).tap();
    await page.getByTestId('export-modal').waitFor(WAIT);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    const exported = await box(page, '[data-testid="export-modal"]');
    expect(exported.x).toBeGreaterThanOrEqual(0);
    expect(exported.x + exported.width).toBeLessThanOrEqual(PHONE.width);
    // nothing in it scrolls sideways (its format tabs wrap)
    expect(await page.getByTestId('export-modal').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone-export');

    await visit(page, '/suppliers', '[data-testid="md-add-form"]');
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    // the add form is one column on a phone: the selects show their placeholder, Upload XLSX stays in its card
    const form = await box(page, '[data-testid="md-add-form"]');
    const country = await box(page, '[data-testid="md-add-form"] [name="country"]');
    expect(country.width).toBeGreaterThan(200);
    const uploadXlsx = await box(page, '[data-testid="md-add-form"] button:has-text("Upload XLSX")');
    expect(uploadXlsx.x + uploadXlsx.width).toBeLessThanOrEqual(form.x + form.width);
    await screenshot(page, 'phone-suppliers');

    for (const [to, ready] of [
      ['/customers', '[data-testid="md-add-form"]'],
      ['/categories', '[data-testid="md-add-form"]'],
      ['/my-team', '.team-card'],
      ['/integration', 'label.switch'],
      ['/fields-configuration', 'label.switch'],
      ['/settings', '.settings-page'],
      ['/my-profile', '[data-testid="profile-form"]'],
    ] as const) {
      await visit(page, to, ready);
      expect(await pageWidth(page), to).toBeLessThanOrEqual(PHONE.width);
    }
    await context.close();
  });

  it('the documents list shows each document as a readable card; rows stay whole and named for screen readers', async () => {
    const { context, page } = await phone();
    await visit(page, '/receipts/inbox', '[data-testid="receipt-row"]');
    const rows = page.getByTestId('receipt-row');
    await expect.poll(() => rows.count(), WAIT).toBe(50);
    const sizes = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="receipt-row"]')].map((row) => ({
        height: row.getBoundingClientRect().height,
        party: row.querySelector('.col-party')!.getBoundingClientRect().width,
      })),
    );
    expect(sizes).toHaveLength(50);
    expect(Math.max(...sizes.map((s) => s.height))).toBeLessThanOrEqual(120);
    expect(Math.min(...sizes.map((s) => s.party))).toBeGreaterThanOrEqual(100);
    // the row's actions are in sight, not past the right edge of a table scrolled sideways
    const preview = await box(page, `[data-receipt-id="${ids[0]}"] button[aria-label="Preview scan-0.pdf"]`);
    expect(preview.x).toBeGreaterThanOrEqual(0);
    expect(preview.x + preview.width).toBeLessThanOrEqual(PHONE.width);
    const total = await box(page, `[data-receipt-id="${ids[0]}"] .col-total`);
    expect(total.x + total.width).toBeLessThanOrEqual(PHONE.width);
    // tap targets: the row checkbox (its label) is at least 24 x 24
    const check = await box(page, `[data-receipt-id="${ids[0]}"] label.row-check`);
    expect(Math.min(check.width, check.height)).toBeGreaterThanOrEqual(24);
    await screenshot(page, 'phone-documents-list');

    // screen readers: the rows loaded by scrolling are in the accessibility tree, the row and its buttons named
    await page.locator('.list-sentinel').scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count(), WAIT).toBe(DOCS);
    await page.evaluate(() => window.scrollTo(0, 0));
    const far = await axOf(page, `[data-receipt-id="${ids[55]}"]`);
    expect(far).toMatchObject({ role: 'row', name: 'Open scan-55.pdf' });
    expect(far.text).toContain('Supplier 55 UAB');
    expect(far.text).toContain('INV-55');
    expect(far.text).toContain('56.50');
    expect(far.cells).toBeGreaterThanOrEqual(6);
    expect(far.buttons).toEqual(expect.arrayContaining(['Preview scan-55.pdf', 'Flag scan-55.pdf']));
    // the column headers stay for screen readers (the cards show no header row)
    expect(await page.getByRole('columnheader', { name: 'Supplier / Customer' }).count()).toBe(1);
    // a tap on the card opens the document
    await rows.nth(1).locator('.col-party').tap();
    await page.waitForURL(/\/edit-receipt\//, WAIT);
    await context.close();
  });

  it('the side menu starts closed, opens by the menu button with labels and counts, and closes on a choice, a tap outside and Escape', async () => {
    const { context, page } = await phone();
    expect((await menuState(page)).shown).toBe(false);
    // the content has the whole width: ADD takes a tap
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await menuButton.tap();
    await expect.poll(async () => (await menuState(page)).shown, WAIT).toBe(true);
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    // open, it shows labels and counts (not icons with hover-only titles)
    const inbox = page.getByTestId('side-menu').getByRole('link', { name: /^Inbox/ });
    expect(await inbox.locator('.nav-label').isVisible()).toBe(true);
    expect(await page.getByTestId('badge-inbox').isVisible()).toBe(true);
    await screenshot(page, 'phone-menu-open');
    // choosing a screen closes it
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).tap();
    await page.waitForURL(/\/suppliers$/, WAIT);
    await expect.poll(async () => (await menuState(page)).shown, WAIT).toBe(false);
    // choosing the screen already shown closes it too
    await menuButton.tap();
    await expect.poll(async () => (await menuState(page)).shown, WAIT).toBe(true);
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).tap();
    await expect.poll(async () => (await menuState(page)).shown, WAIT).toBe(false);
    // a tap beside it closes it
    await menuButton.tap();
    await expect.poll(async () => (await menuState(page)).shown, WAIT).toBe(true);
    await page.touchscreen.tap(PHONE.width - 10, 500);
    await expect.poll(async () => (await menuState(page)).shown, WAIT).toBe(false);
    expect(page.url()).toMatch(/\/suppliers$/);
    // Escape closes it and gives the focus back to the menu button
    await menuButton.tap();
    await expect.poll(async () => (await menuState(page)).shown, WAIT).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await menuState(page)).shown, WAIT).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open menu');
    // after a reload it starts closed again
    await page.reload();
    await page.getByTestId('header-identity').waitFor(WAIT);
    expect((await menuState(page)).shown).toBe(false);
    // the Integration switches take a 24 x 24 tap
    await visit(page, '/integration', 'label.switch');
    const switches = await page.locator('label.switch').evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => Math.min(r.width, r.height)));
    expect(switches.length).toBeGreaterThan(0);
    expect(Math.min(...switches)).toBeGreaterThanOrEqual(24);
    await screenshot(page, 'phone-integration');
    await context.close();
  });

  it('a desktop window keeps the side menu open beside the content, without the menu button', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1400, height: 900 });
    expect(await menuState(page)).toEqual({ shown: true, width: 252 });
    expect(await page.getByRole('button', { name: 'Open menu' }).count()).toBe(0);
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).click();
    await page.waitForURL(/\/suppliers$/, WAIT);
    expect(await menuState(page)).toEqual({ shown: true, width: 252 });
    // the list keeps its columns
    await visit(page, '/receipts/inbox', '[data-testid="receipt-row"]');
    const header = await box(page, 'thead th.col-number');
    expect(header.width).toBeGreaterThan(40);
    await page.close();
  });
});
