import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { notArchivedMessage } from '../../web/src/features/export/components/ExportModal';
import { registerUser } from '../../scripts/local/seed';
import { startLocalStack, type LocalStack } from '../../scripts/local/stack';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { launchBrowser, screenshot, signInOn } from '../support/browser';
import { addMembership, apiClient, newUser, signIn, subOf } from '../support/local-stack';
import { findContentItem } from '../support/content-items';

const WAIT = { timeout: 15_000 };

/**
 * "Move items to archive after export" while a colleague saves a change on one of the documents between the read
 * for the file and the move: that document is not archived (the file does not hold the colleague's value), the pop-up
 * says so in its "could not be moved" message, and the other document is archived.
 */
describe('export with move to archive while a colleague edits, in Chromium', () => {
  let stack: LocalStack;
  let browser: Browser;
  let a: ReturnType<typeof apiClient>;
  let b: ReturnType<typeof apiClient>;
  let companyId: string;
  const ids: string[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'receipts-export-colleague-e2e-'));
  const userA = newUser('exporter');
  const userB = newUser('editor');
  const q = () => `company_id=${companyId}`;
  const statusOf = async (id: string) => ((await a.get(`/receipts/${id}?${q()}`)).body as { status: string }).status;

  beforeAll(async () => {
    stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined });
    await registerUser(stack, userA);
    await registerUser(stack, userB);
    a = apiClient(stack.apiUrl, await signIn(stack, userA));
    const tokenB = await signIn(stack, userB);
    b = apiClient(stack.apiUrl, tokenB);
    companyId = ((await a.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    await addMembership(subOf(tokenB), companyId, 'basic');
    for (const n of [1, 2]) ids.push(await uploadDocument(stack, a, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: `EX-${n}` }), `export-${n}.pdf`));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves the document the colleague changed out of the archive and says so; the other is archived', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInOn(page, stack.url, userA);
    await page.getByTestId('side-menu').getByRole('link', { name: /^Inbox/ }).click();
    await expect.poll(() => page.getByTestId('receipt-row').count(), WAIT).toBe(2);
    const [changed, same] = ids as [string, string];

    // B saves a new total on one document once the export has read it for the file
    let saved = 0;
    await page.route(/\/api\/receipts\/details\?/, async (route) => {
      const answer = await route.fetch();
      const c = (await b.get(`/receipts/${changed}/content?${q()}`)).body as ContentResponse;
      saved = (await b.put(`/receipts/${changed}/content?${q()}`, { version: c.version, items: [{ id: 'amount_total', value: '999.99' }] })).status;
      await route.fulfill({ response: answer });
    });

    await page.getByRole('checkbox', { name: 'Select all' }).check({ force: true });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const exportModal = page.getByTestId('export-modal');
    await expect.poll(() => exportModal.getByTestId('export-field').count(), WAIT).toBeGreaterThan(0);
    await exportModal.getByText('Move items to archive after export').click();
    const [download] = await Promise.all([page.waitForEvent('download'), exportModal.getByRole('button', { name: 'EXPORT' }).click()]);
    expect(saved).toBe(200);
    // the file holds the value the export read, not B's
    const csv = readFileSync(await download.path()).toString('utf8');
    expect(csv).not.toContain('999.99');

    const message = notArchivedMessage(1, 'The document was changed by someone else');
    await expect.poll(() => page.getByText(message, { exact: false }).count(), WAIT).toBe(1);
    await screenshot(page, 'export-archive-colleague-changed');
    expect(await statusOf(changed)).not.toBe('archive');
    const content = (await a.get(`/receipts/${changed}/content?${q()}`)).body as ContentResponse;
    expect(findContentItem(content.content, 'amount_total')?.content?.value).toBe('999.99');
    expect(await statusOf(same)).toBe('archive');
    await page.close();
  });
});
