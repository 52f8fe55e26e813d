import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };

/**
 * Duplicates: a second file of one invoice (a scan of the printed PDF, not the same bytes) is listed by the list's
 * Duplicates switch, as a same file uploaded again is, and its Duplicates pop-up says why the other is listed.
 */
describe('duplicates in Chromium', () => {
  const user = newUser('dups');
  const e2e = useBrowserStack('duplicates');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    await uploadDocument(e2e.stack, api, companyId, await invoicePdf(), 'invoice.pdf');
    const scanned = { ...SAMPLE_INVOICE, lines: SAMPLE_INVOICE.lines.map((l, i) => (i === 0 ? { ...l, description: 'Paper A4, 80 g' } : l)) };
    await uploadDocument(e2e.stack, api, companyId, await invoicePdf(scanned), 'invoice scanned.pdf');
  }, 180_000);

  it('the Duplicates switch lists the later file of the same supplier, number and total; its pop-up names the earlier one and why', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user, { width: 1400, height: 900 });
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    const rows = page.getByTestId('receipt-row');
    await expect.poll(() => rows.count(), WAIT).toBe(2);
    // the later file is marked in the list, the earlier one is not
    await expect.poll(() => rows.filter({ hasText: 'invoice scanned.pdf' }).getByTestId('row-duplicate').innerText(), WAIT).toBe('Duplicate');
    expect(await rows.filter({ hasNotText: 'invoice scanned.pdf' }).getByTestId('row-duplicate').count()).toBe(0);
    await screenshot(page, 'documents-duplicate-mark');
    await page.getByText('Duplicates', { exact: true }).click();
    await expect.poll(() => rows.allInnerTexts(), WAIT).toEqual([expect.stringContaining('invoice scanned.pdf')]);
    await screenshot(page, 'documents-duplicates-switch');
    await rows.first().click();
    await page.waitForURL(/\/edit-receipt\//, WAIT);
    expect(await page.getByTestId('duplicates').getAttribute('class')).toContain('is-warn');
    await page.getByTestId('duplicates').click();
    const popup = page.getByTestId('duplicates-popup');
    await expect.poll(() => popup.locator('li').allInnerTexts(), WAIT).toEqual([expect.stringMatching(/invoice\.pdf\s+Uploaded \d{2} \w{3} \d{2} \d{2}:\d{2}[\s\S]*Same supplier, number and total/)]);
    await screenshot(page, 'edit-receipt-duplicates-popup');
    await popup.getByRole('button', { name: 'Close' }).first().click();
    await popup.waitFor({ state: 'detached' });

    // CONFIRM of the possible copy asks first: Back leaves it as it is, CONFIRM in the question confirms it
    const question = page.getByTestId('confirm-duplicate');
    await page.getByRole('button', { name: 'CONFIRM' }).click();
    await expect
      .poll(() => question.innerText(), WAIT)
      .toContain('This document looks like a copy of one uploaded before (Duplicates shows which). Confirm it anyway?');
    await screenshot(page, 'edit-receipt-confirm-duplicate');
    await question.getByRole('button', { name: 'Back' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await page.getByTestId('receipt-status').innerText()).toBe('To Review');
    await page.getByRole('button', { name: 'CONFIRM' }).click();
    await question.getByRole('button', { name: 'CONFIRM' }).click();
    await expect.poll(() => page.getByText('Document confirmed').count(), WAIT).toBeGreaterThan(0);
  }, 120_000);
});
