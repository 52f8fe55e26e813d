import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { notArchivedMessage } from '../../web/src/features/export/components/ExportModal';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInOn } from '../support/browser';
import { addMembership, apiClient, newUser, signIn, subOf } from '../support/local-stack';
import { findContentItem } from '../support/content-items';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };

/**
 * "Move items to archive after export" while a colleague saves a change on one of the documents between the read
 * for the file and the move: that document is not archived (the file does not hold the colleague's value), the pop-up
 * says so in its "could not be moved" message, and the other document is archived.
 */
describe('export with move to archive while a colleague edits, in Chromium', () => {
  let a: ReturnType<typeof apiClient>;
  let b: ReturnType<typeof apiClient>;
  let companyId: string;
  const ids: string[] = [];
  const userA = newUser('exporter');
  const userB = newUser('editor');
  const q = () => `company_id=${companyId}`;
  const statusOf = async (id: string) => ((await a.get(`/receipts/${id}?${q()}`)).body as { status: string }).status;

  const e2e = useBrowserStack('export-colleague');
  beforeAll(async () => {
    await registerUser(e2e.stack, userA);
    await registerUser(e2e.stack, userB);
    a = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, userA));
    const tokenB = await signIn(e2e.stack, userB);
    b = apiClient(e2e.stack.apiUrl, tokenB);
    companyId = ((await a.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    await addMembership(subOf(tokenB), companyId, 'basic');
    for (const n of [1, 2]) ids.push(await uploadDocument(e2e.stack, a, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: `EX-${n}` }), `export-${n}.pdf`));
  });

  it('leaves the document the colleague changed out of the archive and says so; the other is archived', async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInOn(page, e2e.stack.url, userA);
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
