/**
 * Settings' "Mail received" in Chromium: mails sent to the company's Email-in address through the local SMTP
 * server, listed newest first with the documents they made (each opening its edit screen) and the parts not taken;
 * Show email opens the mail's text; Show more pages on; a Basic member sees the list of the company they pick.
 */
import nodemailer from 'nodemailer';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_ATTACHMENT } from '../../shared/schemas/emails';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, signInOn, signInPage } from '../support/browser';
import { addMembership, apiClient, newUser, signIn, subOf } from '../support/local-stack';
import { textPdf } from '../support/text-pdf';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };
const PHONE = { width: 360, height: 740 };

/** The subjects of the listed mails, top to bottom. */
const subjects = (page: Page) => page.getByTestId('settings-emails').locator('.settings-email-subject').allInnerTexts();

describe('Settings: the mail received at the Email-in address', () => {
  const user = newUser('maillist');
  const colleague = newUser('maillistbasic');
  let company = { company_id: '', email: '', name: '' };

  const e2e = useBrowserStack('email-list');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    await registerUser(e2e.stack, colleague);
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    company = ((await api.get('/companies')).body as { items: (typeof company)[] }).items[0]!;
    await addMembership(subOf(await signIn(e2e.stack, colleague)), company.company_id, 'basic');

    // Three mails, one after the other (each received and processed before the next is sent)
    const transport = nodemailer.createTransport({ host: e2e.stack.smtp.host, port: e2e.stack.smtp.port, secure: false, ignoreTLS: true });
    const [local, domain] = company.email.split('@') as [string, string];
    const mails = [
      {
        to: company.email,
        subject: 'Your rides in March',
        text: 'Hello,\n\nyour receipts for March are attached.\n\nTaxi Vilnius',
        attachments: [{ filename: 'ride-2026-03-01.pdf', content: Buffer.from(await textPdf(['Taxi ride', 'Total 12.50 EUR'])) }],
      },
      {
        to: company.email,
        subject: 'Signed contract',
        text: 'The contract, signed.',
        attachments: [{ filename: 'contract.zip', content: Buffer.from('PK\x03\x04not really'), contentType: 'application/zip' }],
      },
      // a sales invoice (the +sales tag), without a subject
      {
        to: `${local}+sales@${domain}`,
        subject: '',
        text: 'Invoice attached.',
        attachments: [
          { filename: 'invoice-0042.pdf', content: Buffer.from(await textPdf(['Invoice 0042', 'Total 300.00 EUR'])) },
          // taken, but it cannot be read: it waits in Failed, and the mail says why
          { filename: 'invoice-0043.pdf', content: Buffer.from('%PDF-1.4 this is not really a pdf'), contentType: 'application/pdf' },
        ],
      },
    ];
    for (const mail of mails) {
      await transport.sendMail({ from: 'Taxi Vilnius <billing@taxi.example>', ...mail });
      await e2e.stack.emailJobs.idle();
      await e2e.stack.jobs.idle(180_000);
    }
    transport.close();
  }, 300_000);

  it('lists the mails newest first with their documents and the parts not taken; a document opens its edit screen; Show email opens the text; Show more pages on', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1440, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Two mails a page, so that Show more is needed for the third (GET /emails answers 20 a page)
    await page.route(
      (url) => url.pathname.endsWith('/emails'),
      (route) => {
        const url = new URL(route.request().url());
        url.searchParams.set('limit', '2');
        return route.continue({ url: url.toString() });
      },
    );

    // Act: Settings
    await page.goto(`${e2e.stack.url}/settings`);
    const card = page.getByTestId('settings-emails');
    await card.waitFor(WAIT);
    expect(await card.getByRole('heading', { level: 2 }).innerText()).toBe('Mail received');
    const list = card.getByRole('list', { name: 'Mail received' });
    const rows = list.getByTestId('settings-email');
    await expect.poll(() => rows.count(), WAIT).toBe(2);

    // Assess: newest first, two at a time, then the third after Show more
    expect(await subjects(page)).toEqual(['(no subject)', 'Signed contract']);
    const more = card.getByRole('button', { name: 'Show more' });
    await more.click();
    await expect.poll(() => rows.count(), WAIT).toBe(3);
    expect(await subjects(page)).toEqual(['(no subject)', 'Signed contract', 'Your rides in March']);
    await expect.poll(() => more.count(), WAIT).toBe(0);

    const [sales, contract, rides] = [rows.nth(0), rows.nth(1), rows.nth(2)];
    const salesText = await sales.innerText();
    expect(salesText).toContain('Sales');
    expect(salesText).toContain('2 documents');
    expect(salesText).toContain('invoice-0042.pdf');
    expect(await sales.getByRole('listitem').filter({ hasText: 'invoice-0043.pdf' }).innerText()).toContain('Failed: The PDF file is damaged and cannot be read');
    expect(await sales.getByRole('listitem').filter({ hasText: 'invoice-0042.pdf' }).innerText()).not.toContain('Failed');
    // the address as the mail was sent to it, with its +sales tag
    expect(salesText).toContain(company.email.replace('@', '+sales@'));
    expect(await contract.getByTestId('settings-email-outcome').innerText()).toBe('No document');
    const notTaken = contract.getByRole('list', { name: 'Not taken from this email' });
    expect(await notTaken.innerText()).toContain('contract.zip: This file type is not allowed');
    expect(await contract.innerText()).not.toContain('Sales');
    const ridesText = await rides.innerText();
    expect(ridesText).toContain('1 document');
    expect(ridesText).toContain('Taxi Vilnius <billing@taxi.example>');
    expect(ridesText).toContain(company.email);
    expect(ridesText).toMatch(/\d{2} \w{3} \d{2} \d{2}:\d{2}/);
    expect(ridesText).not.toContain('Receiving');
    await screenshot(page, 'settings-mail-received');

    // A document's name opens its edit screen with its company
    await rides.getByRole('link', { name: 'ride-2026-03-01.pdf' }).click();
    await page.waitForURL(new RegExp(`/edit-receipt/[^?]+\\?company_id=${company.company_id}$`), WAIT);
    await page.getByTestId('edit-receipt').waitFor(WAIT);
    expect(await page.locator('.er-title strong').first().innerText()).toBe('ride-2026-03-01.pdf');

    // Back to Settings: Show email opens the mail with its text
    await page.goBack();
    await page.waitForURL(/\/settings$/, WAIT);
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThanOrEqual(2);
    const ridesAgain = rows.filter({ hasText: 'Your rides in March' });
    if ((await ridesAgain.count()) === 0) await card.getByRole('button', { name: 'Show more' }).click();
    await ridesAgain.getByRole('button', { name: 'Show email' }).click();
    const panel = page.getByTestId('email-panel');
    await expect.poll(() => panel.getByText('your receipts for March are attached.', { exact: false }).count(), WAIT).toBe(1);
    expect(await panel.innerText()).toContain('Your rides in March');
    await screenshot(page, 'settings-mail-received-panel');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count(), WAIT).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('a Basic member sees the mail of the company picked on Settings; a company without mail says so; it fits a phone', async () => {
    const context = await e2e.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await signInOn(await context.newPage(), e2e.stack.url, colleague, 'tap');
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${e2e.stack.url}/settings`);
    const select = page.locator('#settings-company');
    await select.waitFor(WAIT);
    const card = page.getByTestId('settings-emails');

    // The colleague's own company: no mail yet
    await select.selectOption({ label: colleague.company });
    await expect
      .poll(() => card.getByTestId('settings-emails-empty').innerText().catch(() => ''), WAIT)
      .toBe('No mail received yet. Documents e-mailed to this address appear here.');

    // The shared company: its three mails, Show email offered
    await select.selectOption(company.company_id);
    const rows = card.getByTestId('settings-email');
    await expect.poll(() => rows.count(), WAIT).toBe(3);
    expect(await subjects(page)).toEqual(['(no subject)', 'Signed contract', 'Your rides in March']);
    expect(await rows.nth(1).innerText()).toContain('This file type is not allowed');
    expect(await card.getByRole('button', { name: 'Show email' }).count()).toBe(3);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-mail-received-phone');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('a mail without an attachment says why it became no document, as its notice does', async () => {
    const transport = nodemailer.createTransport({ host: e2e.stack.smtp.host, port: e2e.stack.smtp.port, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'Taxi Vilnius <billing@taxi.example>', to: company.email, subject: 'Receipts follow', text: 'The receipts follow tomorrow.' });
    transport.close();
    await e2e.stack.emailJobs.idle();
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1440, height: 900 });
    await page.goto(`${e2e.stack.url}/settings`);
    const newest = page.getByTestId('settings-emails').getByTestId('settings-email').first();
    await expect.poll(() => newest.locator('.settings-email-subject').innerText().catch(() => ''), WAIT).toBe('Receipts follow');
    expect(await newest.getByTestId('settings-email-outcome').innerText()).toBe('No document');
    expect(await newest.getByTestId('settings-email-no-attachment').innerText()).toBe(NO_ATTACHMENT);
    // a mail whose part says why shows that reason, not this one
    expect(await page.getByTestId('settings-email-no-attachment').count()).toBe(1);
    await newest.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-mail-received-no-attachment');
    await page.close();
  });
});
