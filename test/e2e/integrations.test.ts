/** The Integration screen in Chromium: FTP switched on through the credentials pop-up, then REVIEW AND SEND. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { startLocalFtpServer, type LocalFtpServer } from '../../scripts/local/ftp-server';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { recordPopups, screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const FTP_PASSWORD = 'Browser-Ftp-Pass-42';

describe('Integration screen in Chromium', () => {
  let ftp: LocalFtpServer;
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  let receiptId: string;
  const bulkIds: string[] = [];
  let copyId: string;
  const user = newUser('integrator');

  const e2e = useBrowserStack('integrations');
  beforeAll(async () => {
    ftp = await startLocalFtpServer({ root: path.join(e2e.dataDir, 'ftp-home'), user: 'acme', password: FTP_PASSWORD });
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // A document sent from its edit screen, and two sent together from the list
    const complete = async (id: string, number: string) => {
      const c = (await api.get(`/receipts/${id}/content?company_id=${companyId}`)).body as ContentResponse;
      const put = await api.put(`/receipts/${id}/content?company_id=${companyId}`, {
        version: c.version,
        items: [
          { id: 'document_id', value: number },
          { id: 'supplier_name', value: SAMPLE_INVOICE.supplier },
          { id: 'supplier_code', value: SAMPLE_INVOICE.supplierCode },
          { id: 'issue_date', value: SAMPLE_INVOICE.date },
        ],
      });
      expect(put.status).toBe(200);
    };
    receiptId = await uploadDocument(e2e.stack, api, companyId, await invoicePdf(), 'to-send.pdf');
    await complete(receiptId, SAMPLE_INVOICE.number);
    for (const n of [1, 2]) {
      const id = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: `BULK-${n}` }), `bulk-${n}.pdf`);
      await complete(id, `BULK-${n}`);
      bulkIds.push(id);
    }
    // The same file as bulk-1 uploaded again: a possible copy, marked Duplicate
    copyId = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'BULK-1' }), 'bulk-1 again.pdf');
  }, 240_000);
  afterAll(async () => {
    await ftp?.stop();
  });

  const signedInPage = () => signInPage(e2e.browser, e2e.stack.url, user, { width: 1400, height: 900 });

  it('switches FTP on through the pop-up, sends a document with REVIEW AND SEND and shows "Exported" in its history', async () => {
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Integration' }).click();
    await page.waitForURL(/\/integration$/);
    await page.getByTestId('integration-page').waitFor();
    await screenshot(page, 'integration');

    // Switching FTP on opens the credentials pop-up; errors show once a field is touched.
    await page.getByTestId('toggle-ftp_export').click({ force: true });
    const popup = page.getByTestId('credentials-popup');
    await popup.waitFor();
    await popup.locator('input[name="host"]').focus();
    await popup.locator('input[name="user"]').focus();
    expect(await popup.getByTestId('error-host').innerText()).toBe('Required field');
    // A wrong password: the server's answer on the Host field, the toggle stays off.
    await popup.locator('input[name="host"]').fill(ftp.host);
    await popup.locator('input[name="user"]').fill('acme');
    await popup.locator('input[name="password"]').fill('not-the-password');
    await popup.locator('input[name="port"]').fill(String(ftp.port));
    await popup.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => popup.getByTestId('error-host').innerText(), { timeout: 20_000 }).toMatch(/530/);
    await screenshot(page, 'credentials-popup');
    expect(await page.getByTestId('toggle-ftp_export').isChecked()).toBe(false);

    await popup.locator('input[name="password"]').fill(FTP_PASSWORD);
    await popup.getByRole('button', { name: 'SAVE' }).click();
    await popup.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => page.getByTestId('toggle-ftp_export').isChecked()).toBe(true);

    // The edit screen now offers REVIEW AND SEND.
    await page.goto(`${e2e.stack.url}/edit-receipt/${receiptId}?company_id=${companyId}`);
    const send = page.getByRole('button', { name: 'REVIEW AND SEND' });
    await send.waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'CONFIRM' }).count()).toBe(0);
    await expect.poll(() => send.isEnabled(), { timeout: 10_000 }).toBe(true);
    // On a 320 px phone the label stays inside its button, and the button on the screen
    await page.setViewportSize({ width: 320, height: 640 });
    const fits = () =>
      send.evaluate((b) => {
        const r = b.getBoundingClientRect();
        return { clipped: b.scrollWidth > b.clientWidth, onScreen: r.left >= 0 && r.right <= window.innerWidth };
      });
    await expect.poll(fits).toEqual({ clipped: false, onScreen: true });
    await screenshot(page, 'review-and-send-320');
    await page.setViewportSize({ width: 1400, height: 900 });
    await send.click();
    await page.waitForURL((u) => !u.pathname.includes(receiptId), { timeout: 20_000 });
    await e2e.stack.exportJobs.idle(60_000);

    // The files are on the FTP server, and the document's history says so.
    const month = path.join(ftp.root, readdirSync(ftp.root)[0]!, SAMPLE_INVOICE.date.slice(0, 7));
    expect(readdirSync(month).sort()).toEqual([`${receiptId}.xml`, `${receiptId}_to-send.pdf`]);
    await page.goto(`${e2e.stack.url}/edit-receipt/${receiptId}?company_id=${companyId}`);
    await page.getByTestId('tool-history').click();
    await expect.poll(() => page.getByTestId('history-panel').innerText(), { timeout: 20_000 }).toContain('Exported to FTP');
    await screenshot(page, 'exported-history');

    // Two documents selected in the list and sent together: the list says so, and both are on the FTP server
    const popups = await recordPopups(page.context());
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    for (const name of ['bulk-1.pdf', 'bulk-2.pdf', 'bulk-1 again.pdf']) await page.getByRole('checkbox', { name: `Select ${name}` }).check({ force: true });
    await page.getByRole('button', { name: 'Tools' }).click();
    await page.getByRole('menuitem', { name: 'Send' }).click();
    // The selection holds a possible copy: the list asks first, and can send the others without it
    const copies = page.getByTestId('confirm-send-copies');
    await expect
      .poll(() => copies.innerText())
      .toContain('1 of the 3 selected documents looks like a copy of one uploaded before (it is marked Duplicate). Send it anyway?');
    // its three buttons inside the pop-up
    const inside = await copies.evaluate((dialog) => {
      const box = dialog.getBoundingClientRect();
      return [...dialog.querySelectorAll('button')].every((b) => {
        const r = b.getBoundingClientRect();
        return r.left >= box.left && r.right <= box.right;
      });
    });
    expect(inside).toBe(true);
    await screenshot(page, 'documents-bulk-send-copies');
    await copies.getByRole('button', { name: 'Send the other 2' }).click();
    await expect.poll(async () => (await popups(page)).includes('2 documents sent'), { timeout: 30_000 }).toBe(true);
    await screenshot(page, 'documents-bulk-sent');
    // the copy is left unsent, and still selected
    expect(await page.getByRole('checkbox', { name: 'Select bulk-1 again.pdf' }).isChecked()).toBe(true);
    await e2e.stack.exportJobs.idle(60_000);
    const sent = readdirSync(month);
    for (const id of bulkIds) expect(sent).toContain(`${id}.xml`);
    expect(sent).not.toContain(`${copyId}.xml`);
    await expect.poll(() => page.getByTestId('receipt-row').filter({ hasText: 'bulk-1.pdf' }).getByTestId('row-status').innerText(), { timeout: 15_000 }).toBe('Archive');

    // Switching FTP off deletes its credentials: it asks first; Back keeps it on
    await page.goto(`${e2e.stack.url}/integration`);
    const ftpSwitch = page.getByTestId('toggle-ftp_export');
    await expect.poll(() => ftpSwitch.isChecked(), { timeout: 15_000 }).toBe(true);
    const question = page.getByTestId('switch-off-modal');
    await ftpSwitch.click({ force: true });
    await expect
      .poll(() => question.innerText())
      .toContain('Switch FTP export off? Its stored credentials are deleted: switching it on again asks for them.');
    await screenshot(page, 'integration-switch-off');
    await question.getByRole('button', { name: 'Back' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await ftpSwitch.isChecked()).toBe(true);
    await ftpSwitch.click({ force: true });
    await question.getByRole('button', { name: 'Switch off' }).click();
    await expect.poll(() => ftpSwitch.isChecked(), { timeout: 15_000 }).toBe(false);
    expect(((await api.get('/companies')).body as { items: { company_id: string; ftp_export?: boolean }[] }).items.find((c) => c.company_id === companyId)?.ftp_export).toBeFalsy();
    await page.close();
  }, 240_000);
  it('the Rivile export and import pop-ups each say what their key is for', async () => {
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Integration' }).click();
    await page.getByTestId('integration-page').waitFor();
    const popup = page.getByTestId('credentials-popup');
    await page.getByTestId('toggle-rivile_export').click({ force: true });
    await popup.waitFor();
    expect(await popup.innerText()).toContain('Documents are created as that user');
    await popup.getByRole('button', { name: 'Cancel' }).click();
    await popup.waitFor({ state: 'detached' });
    await page.getByTestId('toggle-rivile_import').click({ force: true });
    await popup.waitFor();
    const text = await popup.innerText();
    expect(text).toContain("They are imported into this company's suppliers, customers and items");
    expect(text).not.toContain('Documents are created');
    await screenshot(page, 'rivile-import-popup');
    await popup.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('toggle-rivile_import').isChecked()).toBe(false);
    await page.close();
  });
});
