/** Email-in in Chromium: a mail sent to the company's address through the local SMTP server, its documents, the email side panel. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { screenshot } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };
const JPEG = readFileSync(path.resolve(import.meta.dirname, '../../scripts/local/demo/shop-receipt.jpg'));

async function onePagePdf(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 760 - i * 24, size: 14, font }));
  return Buffer.from(await pdf.save());
}

describe('email-in: the email side panel of a document that came by mail', () => {
  const user = newUser('mailpanel');

  const e2e = useBrowserStack('email');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
  });

  it('opens the panel from the list: subject, from, arrival with relative time, attached documents, message text', async () => {
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const company = ((await api.get('/companies')).body as { items: { company_id: string; email: string }[] }).items[0]!;
    const transport = nodemailer.createTransport({ host: e2e.stack.smtp.host, port: e2e.stack.smtp.port, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: 'Taxi Vilnius <billing@taxi.example>',
      to: company.email,
      subject: 'Your rides in March',
      text: 'Hello,\n\nyour receipts for March are attached.\n<script>alert("x")</script>\n\nTaxi Vilnius',
      html: '<p>Hello,</p><p>your receipts for March are attached.</p><img src="cid:ride">',
      attachments: [
        { filename: 'ride-2026-03-01.pdf', content: await onePagePdf(['Taxi ride', 'Total 12.50 EUR']) },
        { filename: 'ride photo.jpg', content: JPEG, cid: 'ride', contentDisposition: 'inline' },
        { filename: 'terms.txt', content: 'terms and conditions' },
      ],
    });
    transport.close();
    await e2e.stack.emailJobs.idle();
    await e2e.stack.jobs.idle(180_000);

    const page = await e2e.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(`${e2e.stack.url}/signin`);
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    const rows = page.getByTestId('receipt-row');
    await expect.poll(() => rows.count(), WAIT).toBe(2);

    const row = rows.filter({ hasText: 'ride-2026-03-01.pdf' });
    await row.getByRole('button', { name: 'Email details' }).click();
    const panel = page.getByTestId('email-panel');
    await expect.poll(() => panel.getByText('Your rides in March').count(), WAIT).toBe(1);
    const text = await panel.innerText();
    expect(text).toContain('Taxi Vilnius <billing@taxi.example>');
    expect(text).toMatch(/Arrived\s+\d{2} \w{3} \d{2} \d{2}:\d{2} \((less than a minute|\d+ minutes?) ago\)/);
    expect(text).toContain('2 attached documents');
    expect(text).toContain('ride-2026-03-01.pdf');
    expect(text).toContain('ride photo.jpg');
    expect(text).toContain('terms.txt');
    expect(text).toContain('This file type is not allowed');
    expect(text).toContain('your receipts for March are attached.');
    // The message is text: markup in it is shown, never run.
    expect(text).toContain('<script>alert("x")</script>');
    expect(await panel.locator('script').count()).toBe(0);
    expect(text).toContain('SPF none · DKIM none · DMARC none');
    await screenshot(page, 'email-panel');
    expect(errors).toEqual([]);

    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count(), WAIT).toBe(0);
    await page.close();
  }, 300_000);
});
