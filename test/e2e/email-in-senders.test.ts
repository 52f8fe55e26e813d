/**
 * Settings → Email-in, "Allowed senders", in Chromium: an administrator limits the company's Email-in to an address
 * and a domain (an invalid line is named before anything is sent), the saved list survives a reload; mail from a
 * sender not on the list arrives through the local SMTP server and is listed under Mail received with nothing taken
 * and the reason, mail from an address of the listed domain makes a document; a Basic member reads the list, and
 * sees an administrator's change at once.
 */
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, SCREENSHOT_DIR, signInOn, signInPage } from '../support/browser';
import { addMembership, apiClient, newUser, signIn, subOf } from '../support/local-stack';
import { textPdf } from '../support/text-pdf';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };
const PHONE = { width: 390, height: 844 };
const HINT = 'Only mail from these addresses or domains becomes documents. Leave empty to take mail from any sender.';
const NOT_ALLOWED = 'Not taken: the sender is not on the allowed senders list';

/** A picture of just the Email-in card, next to the full-page screenshots. */
async function cardShot(page: Page, name: string) {
  await page.getByTestId('settings-email-in-card').screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

describe('Settings: Email-in from allowed senders only', () => {
  const user = newUser('senders');
  const colleague = newUser('sendersbasic');
  let company = { company_id: '', email: '', name: '' };
  let adminApi: ReturnType<typeof apiClient>;

  /** Sends a mail with a one-page PDF to the company's Email-in address and waits until it is received and read. */
  async function sendMail(from: string, subject: string, filename: string | null) {
    const transport = nodemailer.createTransport({ host: e2e.stack.smtp.host, port: e2e.stack.smtp.port, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({
        from,
        to: company.email,
        subject,
        text: 'The invoice is attached.',
        attachments: filename ? [{ filename, content: Buffer.from(await textPdf([subject, 'Total 12.50 EUR'])) }] : [],
      });
    } finally {
      transport.close();
    }
    await e2e.stack.emailJobs.idle();
    await e2e.stack.jobs.idle(180_000);
  }

  const e2e = useBrowserStack('email-senders');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    await registerUser(e2e.stack, colleague);
    adminApi = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    company = ((await adminApi.get('/companies')).body as { items: (typeof company)[] }).items[0]!;
    await addMembership(subOf(await signIn(e2e.stack, colleague)), company.company_id, 'basic');
  }, 300_000);

  it('an administrator sets the senders (an invalid line named first), the list survives a reload; mail from others is not taken, from the listed domain it is', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1440, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const sent: unknown[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && new URL(r.url()).pathname.endsWith('/company/email-in')) sent.push(r.postDataJSON());
    });

    await page.goto(`${e2e.stack.url}/settings`);
    const card = page.getByTestId('settings-email-in-card');
    await card.waitFor(WAIT);
    expect(await card.getByRole('heading', { level: 2 }).innerText()).toBe('Email-in');
    expect(await card.getByTestId('settings-email-in').innerText()).toBe(company.email);
    const box = card.getByLabel('Allowed senders');
    expect(await box.inputValue()).toBe('');
    expect(await card.innerText()).toContain(HINT);
    const save = card.getByRole('button', { name: 'SAVE' });
    expect(await save.count()).toBe(0);

    // Two senders and a line that is neither: the line is named, nothing is sent
    await box.fill('Anna@Supplier.example\nbilling@\n@trusted.example');
    await save.click();
    const error = card.getByTestId('error-email_in_senders');
    await expect.poll(() => error.innerText().catch(() => ''), WAIT).toBe('Line 2: Enter an email address or a domain');
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
    await screenshot(page, 'settings-email-in-senders-error');
    await cardShot(page, 'settings-email-in-senders-error-card');

    // Fixed: saved, and shown as the server keeps it (lower case, without the domain's @)
    await box.fill('Anna@Supplier.example\n@trusted.example');
    expect(await error.count()).toBe(0);
    await save.click();
    await expect.poll(() => page.getByText('Allowed senders saved.').count(), WAIT).toBe(1);
    await expect.poll(() => box.inputValue(), WAIT).toBe('anna@supplier.example\ntrusted.example');
    expect(sent).toEqual([{ email_in_senders: ['Anna@Supplier.example', '@trusted.example'] }]);
    expect(await save.count()).toBe(0);
    const companies = (await adminApi.get('/companies')).body as { items: { company_id: string; email_in_senders: string[] }[] };
    expect(companies.items.find((c) => c.company_id === company.company_id)!.email_in_senders).toEqual(['anna@supplier.example', 'trusted.example']);

    await page.reload();
    await card.waitFor(WAIT);
    await expect.poll(() => box.inputValue(), WAIT).toBe('anna@supplier.example\ntrusted.example');
    await screenshot(page, 'settings-email-in-senders');
    await cardShot(page, 'settings-email-in-senders-card');

    // A stranger's mail is listed with nothing taken; a mail from an address of the listed domain makes a document
    await sendMail('Some Shop <shop@elsewhere.example>', 'From a stranger', 'stranger.pdf');
    await sendMail('Trusted Billing <billing@mail.trusted.example>', 'From the trusted supplier', 'trusted.pdf');
    await sendMail('Some Shop <shop@elsewhere.example>', 'A stranger says hello', null);
    await page.reload();
    const rows = page.getByTestId('settings-emails').getByTestId('settings-email');
    await expect.poll(() => rows.count(), WAIT).toBe(3);
    const [hello, trusted, stranger] = [rows.nth(0), rows.nth(1), rows.nth(2)];
    // A stranger's mail without attachments says why on its own
    expect(await hello.getByTestId('settings-email-refused').innerText()).toBe(NOT_ALLOWED);
    expect(await stranger.getByTestId('settings-email-refused').count()).toBe(0);
    expect(await stranger.innerText()).toContain('From a stranger');
    expect(await stranger.getByTestId('settings-email-outcome').innerText()).toBe('No document');
    expect(await stranger.getByRole('list', { name: 'Not taken from this email' }).innerText()).toBe(`stranger.pdf: ${NOT_ALLOWED}`);
    expect(await trusted.innerText()).toContain('From the trusted supplier');
    expect(await trusted.getByTestId('settings-email-outcome').innerText()).toBe('1 document');
    expect(await trusted.getByRole('link', { name: 'trusted.pdf' }).count()).toBe(1);
    expect(await trusted.getByRole('list', { name: 'Not taken from this email' }).count()).toBe(0);
    await screenshot(page, 'settings-email-in-senders-mail');
    // Show email says the same of the stranger's mail without attachments, and opens the trusted one's document
    await hello.getByRole('button', { name: 'Show email' }).click();
    const panel = page.getByTestId('email-panel');
    await expect.poll(() => panel.getByTestId('email-not-taken').innerText().catch(() => ''), WAIT).toBe(NOT_ALLOWED);
    await screenshot(page, 'settings-email-in-senders-panel');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count(), WAIT).toBe(0);
    await trusted.getByRole('button', { name: 'Show email' }).click();
    await expect.poll(() => panel.getByRole('link', { name: 'trusted.pdf' }).count(), WAIT).toBe(1);
    expect(await panel.getByTestId('email-not-taken').count()).toBe(0);
    await panel.getByRole('link', { name: 'trusted.pdf' }).click();
    await page.waitForURL(new RegExp(`/edit-receipt/[^?]+\\?company_id=${company.company_id}$`), WAIT);

    // The documents: only the trusted supplier's
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    const docs = page.getByTestId('receipt-row');
    await expect.poll(() => docs.count(), WAIT).toBe(1);
    expect(await docs.first().innerText()).toContain('trusted.pdf');
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);

  it('fits a phone: the editor with its line error, then saved', async () => {
    const context = await e2e.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await signInOn(await context.newPage(), e2e.stack.url, user, 'tap');
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${e2e.stack.url}/settings`);
    const card = page.getByTestId('settings-email-in-card');
    const box = card.getByLabel('Allowed senders');
    await expect.poll(() => box.inputValue(), WAIT).toBe('anna@supplier.example\ntrusted.example');
    await card.scrollIntoViewIfNeeded();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // The Email-in address is read whole on a phone (the Copy button goes under it).
    const address = card.getByTestId('settings-email-in');
    expect(await address.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'settings-email-in-senders-phone');
    await cardShot(page, 'settings-email-in-senders-phone-card');

    await box.fill('anna@supplier.example\ntrusted.example\nnot a sender');
    await card.getByRole('button', { name: 'SAVE' }).tap();
    await expect
      .poll(() => card.getByTestId('error-email_in_senders').innerText().catch(() => ''), WAIT)
      .toBe('Line 3: Enter an email address or a domain');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await cardShot(page, 'settings-email-in-senders-phone-error-card');
    await card.getByRole('button', { name: 'Cancel' }).tap();
    await expect.poll(() => box.inputValue(), WAIT).toBe('anna@supplier.example\ntrusted.example');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('a Basic member reads the list, without an editor, and sees an administrator’s change at once; their own Email-in address shows beside the company’s', async () => {
    // An administrator gave the member an Email-in address of their own (My Team's Edit User Details)
    const prefix = `own.${Date.now()}`;
    const colleagueId = subOf(await signIn(e2e.stack, colleague));
    expect((await adminApi.put(`/company/users/${colleagueId}?company_id=${company.company_id}`, { email_prefix: prefix })).status).toBe(200);
    const page = await signInPage(e2e.browser, e2e.stack.url, colleague, { width: 1440, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The shared company active: its live events reach this screen
    await page.evaluate((id) => window.localStorage.setItem('active_company', id), company.company_id);
    await page.goto(`${e2e.stack.url}/settings`);
    const select = page.locator('#settings-company');
    await select.waitFor(WAIT);
    const card = page.getByTestId('settings-email-in-card');
    const text = card.getByTestId('settings-email-in-senders');

    // The shared company: only from the listed senders, no editor
    await select.selectOption(company.company_id);
    await expect.poll(() => text.innerText().catch(() => ''), WAIT).toBe('Mail is taken only from: anna@supplier.example, trusted.example');
    expect(await card.locator('textarea').count()).toBe(0);
    expect(await card.getByRole('button', { name: 'SAVE' }).count()).toBe(0);
    await expect.poll(() => card.getByTestId('settings-own-email-in').innerText().catch(() => ''), WAIT).toBe(`${prefix}@in.receipts.local`);
    expect(await card.getByTestId('settings-email-in').innerText()).toBe(company.email);
    await screenshot(page, 'settings-email-in-senders-basic');
    await cardShot(page, 'settings-email-in-senders-basic-card');

    // An administrator's changes show without a reload: the list emptied (from anyone), then another list
    await expect.poll(() => page.getByTestId('live-status').getAttribute('data-status'), WAIT).toBe('open');
    const put = (senders: string[]) => adminApi.put(`/company/email-in?company_id=${company.company_id}`, { email_in_senders: senders });
    expect((await put([])).status).toBe(200);
    await expect.poll(() => text.innerText().catch(() => ''), WAIT).toBe('Mail is taken from any sender.');
    expect((await put(['trusted.example', 'other.example'])).status).toBe(200);
    await expect.poll(() => text.innerText().catch(() => ''), WAIT).toBe('Mail is taken only from: trusted.example, other.example');

    // Their own company, where they are the administrator: the editor
    await select.selectOption({ label: colleague.company });
    await expect.poll(() => card.getByLabel('Allowed senders').count(), WAIT).toBe(1);
    expect(await text.count()).toBe(0);
    // there, as its creator, the company's address is theirs: it is not shown twice
    expect(await card.getByTestId('settings-own-email-in').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
