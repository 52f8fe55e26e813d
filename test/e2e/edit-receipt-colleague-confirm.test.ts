import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { UNSAVED_CHANGES } from '../../web/src/features/edit-receipt/lib/actions';
import { DRAFTS_PREFIX } from '../../web/src/features/edit-receipt/lib/drafts-storage';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { recordPopups, screenshot, signInOn } from '../support/browser';
import { addMembership, apiClient, newUser, signIn, subOf } from '../support/local-stack';
import { findContentItem } from '../support/content-items';
import { useBrowserStack } from '../support/e2e-stack';

/**
 * Two people on one document: B types a value on the edit screen and, before the autosave, A confirms the document
 * (CONFIRM: it moves to archive, read-only). B's save is refused; B's screen stops saving, shows the document's own
 * values read-only, says which field was not saved and why, keeps nothing of it in the tab, and Back leaves.
 */
describe('a value typed while a colleague confirms the document, in Chromium', () => {
  let a: ReturnType<typeof apiClient>;
  let companyId: string;
  let id: string;
  const userA = newUser('confirmer');
  const userB = newUser('typist');
  const q = () => `company_id=${companyId}`;
  const stored = async () => (await a.get(`/receipts/${id}/content?${q()}`)).body as ContentResponse;
  const storedValue = async (field: string) => findContentItem((await stored()).content, field)?.content?.value;

  const e2e = useBrowserStack('colleague-confirm');
  beforeAll(async () => {
    await registerUser(e2e.stack, userA);
    await registerUser(e2e.stack, userB);
    a = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, userA));
    companyId = ((await a.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    await addMembership(subOf(await signIn(e2e.stack, userB)), companyId, 'basic');
    id = await uploadDocument(e2e.stack, a, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'CC-1' }), 'colleague-confirm.pdf');
    // ready for a confirm
    const ready = [
      { id: 'document_id', value: 'CC-1' },
      { id: 'supplier_name', value: SAMPLE_INVOICE.supplier },
      { id: 'currency', value: 'EUR' },
    ];
    expect((await a.put(`/receipts/${id}/content?${q()}`, { version: (await stored()).version, items: ready })).status).toBe(200);
  });

  it("an open edit screen with nothing typed shows a colleague's saved values without a reload", async () => {
    const other = await uploadDocument(e2e.stack, a, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'CC-2' }), 'colleague-edit.pdf');
    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 950 } });
    const page = await context.newPage();
    await signInOn(page, e2e.stack.url, userB);
    await page.goto(`${e2e.stack.url}/edit-receipt/${other}?${q()}`);
    const field = page.getByTestId('field-document_id');
    await expect.poll(() => field.isEnabled().catch(() => false), { timeout: 15_000 }).toBe(true);
    const read = (await a.get(`/receipts/${other}/content?${q()}`)).body as ContentResponse;
    const put = await a.put(`/receipts/${other}/content?${q()}`, { version: read.version, items: [{ id: 'document_id', value: 'CC-2-A' }, { id: 'currency', value: 'USD' }] });
    expect(put.status).toBe(200);
    // the live event brings the newer version; the screen reads the fields again
    await expect.poll(() => field.inputValue(), { timeout: 15_000 }).toBe('CC-2-A');
    await expect.poll(() => page.getByTestId('field-currency').inputValue()).toBe('USD');
    // and B's next change is saved on that version, not refused
    await field.fill('CC-2-B');
    await expect.poll(async () => findContentItem(((await a.get(`/receipts/${other}/content?${q()}`)).body as ContentResponse).content, 'document_id')?.content?.value, { timeout: 15_000 }).toBe('CC-2-B');
    await context.close();
  });

  it('stops saving, shows the stored value read-only, says the field was not saved because of the colleague, and Back leaves', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 950 } });
    const popupsOf = await recordPopups(context);
    const page = await context.newPage();
    const popups = () => popupsOf(page);
    await signInOn(page, e2e.stack.url, userB);
    await page.goto(`${e2e.stack.url}/edit-receipt/${id}?${q()}`);
    const field = page.getByTestId('field-document_id');
    await expect.poll(() => field.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => field.isEnabled()).toBe(true);

    // B's first autosave reaches the server only once A has confirmed the document (A was quicker)
    const state = { puts: 0, confirmed: 0 };
    await page.route(new RegExp(`/api/receipts/${id}/content\\?`), async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      state.puts++;
      if (state.puts === 1) {
        const version = (await stored()).version;
        state.confirmed = (await a.post(`/receipt/${id}?${q()}&with_send=1`, { version })).status;
      }
      return route.continue();
    });
    await field.fill('TYPED-BY-B');

    await expect.poll(() => state.confirmed, { timeout: 10_000 }).toBe(200);
    // B is told which field was not saved, and that a colleague is why
    await expect
      .poll(async () => (await popups()).find((t) => t.includes('moved to archive by someone else')), { timeout: 15_000 })
      .toMatch(/your change to .+ was not saved\./);
    // the document's value, read-only; nothing left to save
    expect(await storedValue('document_id')).toBe('CC-1');
    await expect.poll(() => field.inputValue(), { timeout: 10_000 }).toBe('CC-1');
    await expect.poll(() => field.isDisabled()).toBe(true);
    await expect.poll(() => page.locator('.er-saving').count()).toBe(0);
    // the tab keeps none of it for a reload
    await expect
      .poll(() => page.evaluate((prefix) => Object.keys(window.sessionStorage).filter((k) => k.startsWith(prefix)), DRAFTS_PREFIX))
      .toEqual([]);
    await screenshot(page, 'edit-receipt-colleague-confirmed');
    // the autosave does not try again (it did every 2 to 30 s before)
    const puts = state.puts;
    await page.waitForTimeout(5000);
    expect(state.puts).toBe(puts);

    // Back leaves the document, with no "could not be saved"
    await page.getByRole('button', { name: 'Back' }).first().click();
    await expect.poll(() => new URL(page.url()).pathname.startsWith('/edit-receipt/'), { timeout: 10_000 }).toBe(false);
    expect(await popups()).not.toContain(UNSAVED_CHANGES);
    await context.close();
  });
});
