import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/**
 * Master data on the edit screen, in Chromium: a receipt of a known supplier opens matched (no "new" marker)
 * with the supplier's category and its date format applied; the name field offers the company's suppliers;
 * confirming a receipt of a new supplier puts it on the Suppliers screen.
 */
describe('master data on documents in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  let categoryId: string;
  const ids: Record<string, string> = {};
  const user = newUser('mddocs');

  const e2e = useBrowserStack('md-docs');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    const q = `?company_id=${companyId}`;
    const category = await api.post(`/category${q}`, { name: 'Office supplies', category_code: 'OS' });
    expect(category.status).toBe(201);
    categoryId = (category.body as { id: string }).id;
    await api.post(`/category${q}`, { name: 'Travel' });
    // More categories than one page of 50: the dropdown searches them on the server.
    for (let i = 0; i < 60; i += 10) {
      const made = await Promise.all(Array.from({ length: 10 }, (_, j) => api.post(`/category${q}`, { name: `Zz Category ${String(i + j).padStart(2, '0')}` })));
      expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
    }
    const supplier = await api.post(`/stakeholder${q}`, { type: 'supplier', name: 'Known Trading', code: '304050607', city: 'Kaunas', category_id: categoryId, selected_date_format: 'MM/DD/YYYY' });
    expect(supplier.status).toBe(201);
    // 03/04/2025 is March 4th for this supplier (month first), April 3rd for anyone else.
    ids.known = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, supplier: 'UAB KNOWN TRADING', supplierCode: '304050607', number: 'KT-1', date: '03/04/2025' }), 'known.pdf');
    ids.fresh = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, supplier: 'UAB Brand New Supplier', supplierCode: '308888888', number: 'BN-1' }), 'fresh.pdf');
    ids.misread = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, supplier: 'UAB Unknwn Tradng', supplierCode: '309999999', number: 'KT-2' }), 'misread.pdf');
  });

  const signedInPage = (): Promise<Page> => signInPage(e2e.browser, e2e.stack.url, user, { width: 1500, height: 950 });

  /** Opens a document and waits for the server's answer on whether its supplier is new. */
  async function openDocument(page: Page, id: string) {
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/isNewStakeholder') && r.status() === 200, { timeout: 20_000 });
    await page.goto(`${e2e.stack.url}/edit-receipt/${id}?company_id=${companyId}`);
    await until(() => page.getByTestId('field-form').count()).toBe(1);
    return (await (await answered).json()) as { isNewStakeholder: boolean };
  }

  it('a receipt of a known supplier: matched, no "new" marker, its category and its date format; the name field offers suppliers', async () => {
    const page = await signedInPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    const answer = await openDocument(page, ids.known!);
    expect(answer.isNewStakeholder).toBe(false);
    const name = page.getByTestId('field-supplier_name');
    await until(() => name.inputValue()).toBe('Known Trading');
    expect(await page.getByTestId('stakeholder-new').count()).toBe(0);
    expect(await page.getByTestId('stakeholder-note').count()).toBe(0);
    // The supplier's category is the document's, chosen in the dropdown of the company's categories.
    const category = page.getByTestId('field-category').getByRole('combobox');
    await until(() => category.inputValue()).toBe('Office supplies');
    await category.click();
    const options = page.getByTestId('field-category').getByRole('option');
    await until(async () => (await options.allInnerTexts()).slice(0, 2)).toEqual([expect.stringContaining('Office supplies'), 'Travel']);
    await category.press('Escape');
    // The ambiguous date read month first, as the supplier writes dates.
    expect(await page.getByTestId('field-issue_date').inputValue()).toBe('2025-03-04');
    expect(await page.getByTestId('field-supplier_code').inputValue()).toBe('304050607');
    await screenshot(page, 'edit-matched-supplier');

    // Typing a name offers the company's suppliers; choosing one fills the name, code and address.
    await name.fill('know');
    const suggestions = page.getByTestId('stakeholder-suggestion');
    await until(() => suggestions.allInnerTexts()).toEqual([expect.stringContaining('Known Trading')]);
    await screenshot(page, 'edit-supplier-suggestions');
    await suggestions.first().click();
    await until(() => name.inputValue()).toBe('Known Trading');
    expect(await page.getByTestId('field-supplier_code').inputValue()).toBe('304050607');
    await until(() => page.getByTestId('stakeholder-suggestions').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the name field's suggestions stay open while typing pauses past the autosave; choosing a supplier gives a document without a category its category", async () => {
    const page = await signedInPage();
    await openDocument(page, ids.misread!);
    const category = page.getByTestId('field-category').getByRole('combobox');
    expect(await category.inputValue()).toBe('');
    const name = page.getByTestId('field-supplier_name');
    await name.fill('Know');
    const suggestions = page.getByTestId('stakeholder-suggestion');
    await until(() => suggestions.allInnerTexts()).toEqual([expect.stringContaining('Known Trading')]);
    // the typed text is saved after 2 s without typing; the list stays while the field keeps the focus
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname.endsWith(`/receipts/${ids.misread}/content`));
    expect((await saved).status()).toBe(200);
    await page.waitForTimeout(300);
    expect(await suggestions.count()).toBe(1);
    await suggestions.first().click();
    await until(() => name.inputValue()).toBe('Known Trading');
    await until(() => category.inputValue()).toBe('Office supplies');
    await screenshot(page, 'edit-supplier-chosen-category');
    // Archive at once: the category is the archived document's (it is stored when chosen, not with an action)
    await until(async () => ((await api.get(`/receipts/${ids.misread}?company_id=${companyId}`)).body as { category_id: string | null }).category_id).toBe(categoryId);
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await until(async () => ((await api.get(`/receipts/${ids.misread}?company_id=${companyId}`)).body as { status: string }).status).toBe('archive');
    expect(((await api.get(`/receipts/${ids.misread}?company_id=${companyId}`)).body as { category: string | null }).category).toBe('Office supplies');
    await page.close();
  });

  it('the category dropdown finds a category past the first 50 by typing, chosen with the keyboard and stored at once', async () => {
    const page = await signedInPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await openDocument(page, ids.known!);
    const category = page.getByTestId('field-category').getByRole('combobox');
    await until(() => category.inputValue()).toBe('Office supplies');
    // The first page (no search) stops at the 50th category: "Zz Category 59" is not in it.
    await category.focus();
    const options = page.getByTestId('field-category').getByRole('option');
    await until(() => options.count()).toBe(50);
    expect(await options.allInnerTexts()).not.toContain('Zz Category 59');
    await category.fill('category 59');
    await until(() => options.allInnerTexts()).toEqual(['Zz Category 59']);
    const stored = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname.endsWith(`/receipt/${ids.known}/category`));
    await category.press('Enter');
    expect((await stored).status()).toBe(200);
    await until(() => category.inputValue()).toBe('Zz Category 59');
    await until(async () => ((await api.get(`/receipts/${ids.known}?company_id=${companyId}`)).body as { category: string | null }).category).toBe('Zz Category 59');
    await screenshot(page, 'edit-category-searched');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a receipt of a new supplier shows the marker and the note; confirmed, the supplier appears in /suppliers', async () => {
    const page = await signedInPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    const answer = await openDocument(page, ids.fresh!);
    expect(answer.isNewStakeholder).toBe(true);
    await until(() => page.getByTestId('stakeholder-new').textContent()).toBe('new');
    expect(await page.getByTestId('stakeholder-note').innerText()).toBe('NOTE: new Supplier & Customer');
    expect(await page.getByTestId('field-supplier_name').inputValue()).toBe('UAB Brand New Supplier');
    // A category chosen here is stored at once (PUT /receipt/{id}/category) and kept by the confirm.
    const stored = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname.endsWith(`/receipt/${ids.fresh}/category`));
    await page.getByTestId('field-category').getByRole('combobox').fill('Trav');
    await page.getByTestId('field-category').getByRole('option', { name: 'Travel' }).click();
    expect((await stored).status()).toBe(200);
    await screenshot(page, 'edit-new-supplier');

    // The move on after CONFIRM reads the list for the next document: held, so the user's click on Suppliers below
    // comes first — the move must not take them back to a document once it answers
    const held = { now: 0, all: 0 };
    await page.route(/\/api\/receipts\?/, async (route) => {
      held.now += 1;
      held.all += 1;
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
      held.now -= 1;
    });
    const confirmed = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith(`/receipt/${ids.fresh}`));
    await page.getByRole('button', { name: 'CONFIRM', exact: true }).click();
    const res = await confirmed;
    expect(res.status()).toBe(200);
    expect(((await res.json()) as { receipt: { status: string; category: string } }).receipt).toMatchObject({ status: 'archive', category: 'Travel' });

    // The Suppliers screen lists it next to the known one.
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).click();
    await page.waitForURL(/\/suppliers$/);
    // every held read answered, and a moment for a move that would follow it
    await until(() => held.all > 0 && held.now === 0).toBe(true);
    await page.waitForTimeout(1000);
    expect(new URL(page.url()).pathname).toBe('/suppliers');
    const row = page.locator('[data-testid="md-row"][data-name="UAB Brand New Supplier"]');
    await until(() => row.count()).toBe(1);
    await until(() => page.locator('[data-testid="md-row"][data-name="Known Trading"]').count()).toBe(1);
    await screenshot(page, 'suppliers-after-confirm');
    const receipt = (await api.get(`/receipts/${ids.fresh}?company_id=${companyId}`)).body as { stakeholder_id: string | null };
    expect(receipt.stakeholder_id).toEqual(expect.any(String));
    expect(errors).toEqual([]);
    await page.close();
  });
});
