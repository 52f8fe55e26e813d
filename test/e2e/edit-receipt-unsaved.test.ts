import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { NETWORK_ERROR_MESSAGE } from '../../web/src/lib/api-error';
import { UNSAVED_CHANGES } from '../../web/src/features/edit-receipt/lib/actions';
import { SESSION_EXPIRED_TEXT } from '../../web/src/features/shell/components/SessionExpiredPopup';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { findContentItem } from '../support/content-items';
import { useBrowserStack } from '../support/e2e-stack';

/**
 * What was typed on the edit screen is never lost: a failed save keeps the user on the document (and is tried
 * again), a network drop while the session is renewed is no expired session, a reload asks first and finds the
 * typed value again (the tab keeps the drafts), as does signing in again after a session that really ended.
 */
describe('edit-receipt screen: unsaved values in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  const ids: string[] = [];
  const user = newUser('unsaved');
  const q = () => `company_id=${companyId}`;
  const storedValue = async (id: string, field = 'document_id') => findContentItem(((await api.get(`/receipts/${id}/content?${q()}`)).body as ContentResponse).content, field)?.content?.value;
  const docUrl = (id: string) => `${e2e.stack.url}/edit-receipt/${id}?company_id=${companyId}`;
  const keptDrafts = (page: Page) => page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('receipts.edit-drafts')).length);

  const e2e = useBrowserStack('unsaved');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    for (const n of [1, 2, 3, 4, 5, 6]) ids.push(await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: `UN-${n}` }), `unsaved-${n}.pdf`));
  });

  async function signInOn(page: Page) {
    await page.goto(`${e2e.stack.url}/signin`);
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
  }
  async function signedIn(opts: { clock?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 950 } });
    const page = await context.newPage();
    if (opts.clock) await page.clock.install();
    await signInOn(page);
    await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
    return { context, page };
  }
  async function openDocument(page: Page, id: string) {
    await page.goto(docUrl(id));
    await expect.poll(() => page.getByTestId('field-document_id').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('field-document_id').isEnabled()).toBe(true);
  }

  it('a failed save keeps the user on the document: Next, Back and the side menu stay with the message and the typed value; the autosave stores it once the API answers', async () => {
    const { context, page } = await signedIn();
    const id = ids[0]!;
    await openDocument(page, id);
    const contentCall = new RegExp(`/api/receipts/${id}/content\\?`);
    let puts = 0;
    await page.route(contentCall, (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      puts++;
      return route.fulfill({ status: 503, json: { statusCode: 503, error: 'ServiceUnavailable', message: 'Service Unavailable' } });
    });
    const field = page.getByTestId('field-document_id');
    await field.fill('UN-1-TYPED');
    // The autosave fails and says so
    await expect.poll(() => page.getByText('Service Unavailable').count(), { timeout: 8000 }).toBe(1);
    const url = page.url();

    // Next (or Previous, whichever this document has), Back and the side menu: the save fails, the screen stays
    const pager = (await page.getByRole('button', { name: 'Next document' }).isEnabled()) ? 'Next document' : 'Previous document';
    for (const leave of [() => page.getByRole('button', { name: pager }).click(), () => page.getByRole('button', { name: 'Back', exact: true }).click(), () => page.getByTestId('side-menu').getByRole('link', { name: 'Dashboard' }).click()]) {
      await leave();
      await expect.poll(() => page.getByText(UNSAVED_CHANGES).count(), { timeout: 8000 }).toBe(1);
      expect(page.url()).toBe(url);
      expect(await field.inputValue()).toBe('UN-1-TYPED');
    }
    expect(await page.locator('.er-saving').innerText()).toBe('Unsaved changes…');
    await screenshot(page, 'edit-receipt-unsaved-leave');
    expect(await storedValue(id)).toBe('UN-1');

    // Without any typing the autosave tries again by itself, and stores the value once the API answers
    const tried = puts;
    await expect.poll(() => puts, { timeout: 20_000 }).toBeGreaterThan(tried);
    await page.unroute(contentCall);
    await expect.poll(() => storedValue(id), { timeout: 40_000, interval: 1000 }).toBe('UN-1-TYPED');
    await expect.poll(() => page.locator('.er-saving').count()).toBe(0);
    expect(await keptDrafts(page)).toBe(0);
    // Nothing left unsaved: Back leaves
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/receipts/'), { timeout: 10_000 });
    await context.close();
  });

  it('a value no save can store asks on leaving: Stay and correct keeps it, Leave without them goes with the saved values', async () => {
    const { context, page } = await signedIn();
    const id = ids[4]!;
    await openDocument(page, id);
    const storedTotal = await storedValue(id, 'amount_total');
    const total = page.getByTestId('field-amount_total');
    await total.fill('260,25');
    await expect.poll(() => page.getByText('Invalid amount format (0.00)').count(), { timeout: 8000 }).toBeGreaterThan(0);
    const url = page.url();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    const dialog = page.getByTestId('leave-unsavable');
    await expect.poll(() => dialog.count(), { timeout: 8000 }).toBe(1);
    expect(await dialog.innerText()).toContain('Total: Invalid amount format (0.00)');
    expect(await page.getByText(UNSAVED_CHANGES).count()).toBe(0);
    await screenshot(page, 'edit-receipt-leave-unsavable');
    await dialog.getByRole('button', { name: 'Stay and correct' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(page.url()).toBe(url);
    expect(await total.inputValue()).toBe('260,25');
    // the side menu asks the same; leaving drops the value, here and in the tab's storage
    await page.getByTestId('side-menu').getByRole('link', { name: 'Dashboard' }).click();
    await expect.poll(() => dialog.count(), { timeout: 8000 }).toBe(1);
    await dialog.getByRole('button', { name: 'Leave without them' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 10_000 });
    expect(await keptDrafts(page)).toBe(0);
    expect(await storedValue(id, 'amount_total')).toBe(storedTotal);
    await openDocument(page, id);
    expect(await total.inputValue()).toBe(storedTotal);

    // a value typed in the Lines pop-up that cannot be saved shows, marked, on the form once the pop-up is closed
    await page.getByTestId('tool-line-items').click();
    const quantity = page.locator('input[name$=".quantity"][aria-label$=", row 1"]');
    await expect.poll(() => quantity.count(), { timeout: 8000 }).toBe(1);
    await quantity.fill('12,5');
    await expect.poll(() => page.getByText('Not a number').count(), { timeout: 8000 }).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    const note = page.getByTestId('unsavable-line_items');
    await expect.poll(() => note.count(), { timeout: 8000 }).toBe(1);
    expect(await note.innerText()).toBe('1 value of Line items cannot be saved as typed: Open to correct it.');
    const marked = page.getByTestId('table-line_items').locator('td.er-cell-unsavable');
    expect(await marked.innerText()).toBe('12,5');
    expect(await marked.getAttribute('title')).toBe('Not a number');
    await page.getByTestId('table-line_items').scrollIntoViewIfNeeded();
    await screenshot(page, 'edit-receipt-table-unsavable');
    // the rows' arithmetic: a row's Total price typed wrong makes the lines add up to neither the Total nor the
    // Subtotal, which is said under the table once its values can be saved
    await page.getByTestId('open-line_items').click();
    await expect.poll(() => quantity.count(), { timeout: 8000 }).toBe(1);
    await quantity.fill('2');
    await page.locator('input[name$=".total_price"][aria-label$=", row 1"]').fill('99.00');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('hint-line_items').innerText().catch(() => ''), { timeout: 8000 }).toBe('Line items add up to 189.00: check the lines');
    expect(await note.count()).toBe(0);
    await screenshot(page, 'edit-receipt-line-items-hint');
    // the VAT lines' arithmetic: their VAT against a Tax total typed wrong, said under the VAT lines
    const tax = page.getByTestId('field-amount_tax');
    await tax.fill('25.00');
    await expect
      .poll(() => page.getByTestId('hint-vat_lines').innerText().catch(() => ''), { timeout: 8000 })
      .toBe('VAT amounts add up to 21.00, the Tax total is 25.00: check the lines');
    await page.getByTestId('table-vat_lines').scrollIntoViewIfNeeded();
    await screenshot(page, 'edit-receipt-vat-lines-hint');
    await tax.fill('21.00');
    await expect.poll(() => page.getByTestId('hint-vat_lines').count(), { timeout: 8000 }).toBe(0);
    // an issue date after today is saved, with a hint to check it
    const issueDate = page.getByTestId('field-issue_date');
    await issueDate.fill('2099-03-04');
    await expect.poll(() => page.getByTestId('hint-issue_date').count()).toBe(1);
    expect(await page.getByTestId('hint-issue_date').innerText()).toBe('This date is after today: check the year');
    await issueDate.scrollIntoViewIfNeeded();
    await screenshot(page, 'edit-receipt-future-issue-date');
    await context.close();
  });

  it('notes too long to store ask on leaving as a field does: Stay and correct keeps them, Leave without them goes with the stored notes', async () => {
    const { context, page } = await signedIn();
    const id = ids[5]!;
    await openDocument(page, id);
    const storedNotes = async () => ((await api.get(`/receipts/${id}?${q()}`)).body as { notes?: string | null }).notes ?? '';
    const notes = page.getByTestId('field-notes').getByLabel('Notes');
    const tooLong = 'n'.repeat(1001);
    await notes.fill(tooLong);
    await expect.poll(() => page.getByTestId('field-notes').getByText('At most 1000 characters').count(), { timeout: 8000 }).toBe(1);
    const url = page.url();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    const dialog = page.getByTestId('leave-unsavable');
    await expect.poll(() => dialog.count(), { timeout: 8000 }).toBe(1);
    expect(await dialog.innerText()).toContain('Notes: At most 1000 characters');
    await screenshot(page, 'edit-receipt-leave-notes-too-long');
    await dialog.getByRole('button', { name: 'Stay and correct' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(page.url()).toBe(url);
    expect(await notes.inputValue()).toBe(tooLong);
    // the side menu asks the same; leaving drops them and the document keeps its stored notes
    await page.getByTestId('side-menu').getByRole('link', { name: 'Dashboard' }).click();
    await expect.poll(() => dialog.count(), { timeout: 8000 }).toBe(1);
    await dialog.getByRole('button', { name: 'Leave without them' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 10_000 });
    expect(await storedNotes()).toBe('');
    await openDocument(page, id);
    expect(await notes.inputValue()).toBe('');
    await context.close();
  });

  it('a network drop when the access token is due is no expired session: the save waits for the network and goes through', async () => {
    const { context, page } = await signedIn({ clock: true });
    const id = ids[1]!;
    await openDocument(page, id);
    // The laptop sleeps past the access token's hour and wakes before its Wi-Fi is back
    await context.setOffline(true);
    await page.clock.fastForward('01:01:00');
    const field = page.getByTestId('field-document_id');
    await field.fill('UN-2-OFFLINE');
    await page.clock.fastForward(2500);
    await expect.poll(() => page.getByText(NETWORK_ERROR_MESSAGE).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.clock.fastForward(5000);
    expect(await page.getByTestId('session-expired').count()).toBe(0);
    expect(await page.getByText(SESSION_EXPIRED_TEXT).count()).toBe(0);
    expect(await field.inputValue()).toBe('UN-2-OFFLINE');
    await screenshot(page, 'edit-receipt-offline-token-due');

    // Back online: the session is renewed with the refresh token and the value saved
    await context.setOffline(false);
    await expect
      .poll(
        async () => {
          await page.clock.fastForward(2000);
          return storedValue(id);
        },
        { timeout: 40_000, interval: 1000 },
      )
      .toBe('UN-2-OFFLINE');
    expect(await page.getByTestId('session-expired').count()).toBe(0);
    expect(page.url()).toContain(`/edit-receipt/${id}`);
    await context.close();
  });

  it('a reload within 2 s of typing asks first, and the typed value is back after it and gets saved', async () => {
    const { context, page } = await signedIn();
    const id = ids[2]!;
    await openDocument(page, id);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.type());
      void d.accept();
    });
    const field = page.getByTestId('field-document_id');
    await field.click();
    await field.fill('UN-3-RELOADED');
    await page.reload();
    expect(dialogs).toEqual(['beforeunload']);
    await expect.poll(() => page.getByTestId('field-document_id').inputValue(), { timeout: 15_000 }).toBe('UN-3-RELOADED');
    await screenshot(page, 'edit-receipt-reload-restored');
    await expect.poll(() => storedValue(id), { timeout: 15_000, interval: 500 }).toBe('UN-3-RELOADED');
    await expect.poll(() => page.locator('.er-saving').count()).toBe(0);
    expect(await keptDrafts(page)).toBe(0);
    // Saved: a reload now neither asks nor brings anything back
    await page.reload();
    await expect.poll(() => page.getByTestId('field-document_id').inputValue(), { timeout: 15_000 }).toBe('UN-3-RELOADED');
    expect(dialogs).toEqual(['beforeunload']);
    await context.close();
  });

  it('after a session that really ended, signing in again brings back what was typed and saves it', async () => {
    const { context, page } = await signedIn({ clock: true });
    const id = ids[3]!;
    await openDocument(page, id);
    // The refresh token is revoked (signed out elsewhere): the next renewal is refused
    const { key, token } = await page.evaluate(() => {
      const k = Object.keys(localStorage).find((x) => x.endsWith('.refreshToken'))!;
      return { key: k, token: localStorage.getItem(k)! };
    });
    const clientId = key.split('.')[1]!;
    const revoked = await fetch(`${e2e.stack.cognitoEndpoint}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.RevokeToken' },
      body: JSON.stringify({ Token: token, ClientId: clientId }),
    });
    expect(revoked.status).toBe(200);
    const field = page.getByTestId('field-document_id');
    await field.fill('UN-4-KEPT');
    await page.clock.fastForward('01:01:00');
    await expect.poll(() => page.getByTestId('session-expired').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'RECONNECT' }).click();
    await page.waitForURL(/\/signin/, { timeout: 10_000 });
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL(new RegExp(`/edit-receipt/${id}`), { timeout: 20_000 });
    await expect.poll(() => page.getByTestId('field-document_id').inputValue(), { timeout: 15_000 }).toBe('UN-4-KEPT');
    await screenshot(page, 'edit-receipt-relogin-restored');
    await expect
      .poll(
        async () => {
          await page.clock.fastForward(2500);
          return storedValue(id);
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe('UN-4-KEPT');
    await expect.poll(() => keptDrafts(page)).toBe(0);
    await context.close();
  });

  it('"Document not found" in a tab opened on its address: Back goes to the list, not out of the app', async () => {
    const { context, page } = await signedIn();
    const tab = await context.newPage();
    await tab.goto(`${e2e.stack.url}/edit-receipt/NOPE0000000000000000000000?company_id=${companyId}`);
    await expect.poll(() => tab.getByRole('button', { name: 'Back' }).count(), { timeout: 15_000 }).toBe(1);
    await screenshot(tab, 'edit-receipt-missing');
    await tab.getByRole('button', { name: 'Back' }).click();
    await tab.waitForURL(/\/receipts\/inbox$/, { timeout: 10_000 });
    // Within the app it still goes back where the user came from
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    await expect.poll(() => page.getByTestId('side-menu').count(), { timeout: 15_000 }).toBe(1);
    await page.evaluate((to) => {
      window.history.pushState({ usr: null, key: 'x1', idx: 1 }, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, `/edit-receipt/NOPE0000000000000000000000?company_id=${companyId}`);
    await expect.poll(() => page.getByRole('button', { name: 'Back' }).count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/\/receipts\/inbox$/, { timeout: 10_000 });
    await context.close();
  });
});
