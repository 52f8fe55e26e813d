import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

/** Polls until the value matches: the list reloads after a 1 s debounce and a request on a busy machine. */
const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** Master-data screens: suppliers, customers, categories and items, as a user works with them in Chromium. */
describe('master-data screens in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  const user = newUser('masterdata');

  const e2e = useBrowserStack('md');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // More suppliers than one page holds, so that the list has to load a second page while scrolling.
    for (let i = 1; i <= 55; i++) {
      const res = await api.post(`/stakeholder?company_id=${companyId}`, { type: 'supplier', name: `Bulk supplier ${String(i).padStart(2, '0')}`, code: `B${i}` });
      expect(res.status).toBe(201);
    }
  });

  const signedInPage = (): Promise<Page> => signInPage(e2e.browser, e2e.stack.url, user);

  const addForm = (page: Page) => page.getByTestId('md-add-form');
  const rows = (page: Page) => page.getByTestId('md-row');
  const row = (page: Page, name: string) => page.locator(`[data-testid="md-row"][data-name="${name}"]`);

  it('adds a category and an item with two words', async () => {
    const page = await signedInPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // The side menu opens the screen; an empty list says so
    await page.getByTestId('side-menu').getByRole('link', { name: 'Categories' }).click();
    await page.waitForURL(/\/categories$/);
    await until(() => page.getByTestId('md-empty').innerText()).toBe('No Categories found');
    expect(await page.locator('.topbar-title').innerText()).toBe('Categories');

    // Validation with the spec's texts, then a category
    const form = addForm(page);
    await form.getByLabel('Name', { exact: true }).fill('F');
    await form.getByRole('button', { name: 'ADD' }).click();
    await until(() => form.getByTestId('error-name').innerText()).toBe('At least 2 characters');
    await form.getByLabel('Name', { exact: true }).fill('Fuel');
    await form.getByLabel('Code', { exact: true }).fill('F-100');
    await form.getByRole('button', { name: 'ADD' }).click();
    await until(() => row(page, 'Fuel').count()).toBe(1);
    expect(await row(page, 'Fuel').innerText()).toContain('F-100');
    expect(await row(page, 'Fuel').getByTestId('md-row-company').innerText()).toBe(user.company);
    // The same name again: the server's duplicate text under the name
    await form.getByLabel('Name', { exact: true }).fill('fuel');
    await form.getByRole('button', { name: 'ADD' }).click();
    await until(() => form.getByTestId('error-name').innerText()).toBe('This category already exists');
    await form.getByLabel('Name', { exact: true }).fill('Office supplies');
    await form.getByLabel('Code', { exact: true }).fill('');
    await form.getByRole('button', { name: 'ADD' }).click();
    await until(() => rows(page).count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Upload XLSX' }).count()).toBe(1);
    await screenshot(page, 'categories');

    // An unchanged category edit sends nothing
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(r.url());
    });
    await row(page, 'Fuel').getByRole('button', { name: 'Edit Fuel' }).click();
    const edit = page.getByTestId('md-edit-modal');
    await until(() => edit.getByLabel('Name', { exact: true }).inputValue()).toBe('Fuel');
    await edit.getByRole('button', { name: 'Save' }).click();
    await until(() => edit.count()).toBe(0);
    expect(puts).toEqual([]);

    // Renaming to an existing name: the duplicate text under the name; a category deleted meanwhile by another
    // member: 'Something went wrong' under the name
    await row(page, 'Office supplies').getByRole('button', { name: 'Edit Office supplies' }).click();
    await edit.getByLabel('Name', { exact: true }).fill('FUEL');
    await edit.getByRole('button', { name: 'Save' }).click();
    await until(() => edit.getByTestId('error-name').innerText()).toBe('This category already exists');
    const office = ((await api.get(`/categories?company_id=${companyId}&search_name=office`)).body as { items: { id: string }[] }).items[0]!;
    expect((await api.delete(`/category?company_id=${companyId}&id=${office.id}`)).status).toBe(200);
    await edit.getByLabel('Name', { exact: true }).fill('Office things');
    await edit.getByRole('button', { name: 'Save' }).click();
    await until(() => edit.getByTestId('error-name').innerText()).toBe('Something went wrong');
    await screenshot(page, 'categories-edit-failed');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await until(() => row(page, 'Office supplies').count()).toBe(0);

    // Items: a name and two words (a third, blank row is dropped)
    await page.getByTestId('side-menu').getByRole('link', { name: 'Items' }).click();
    await page.waitForURL(/\/items$/);
    await until(() => page.getByTestId('md-empty').innerText()).toBe('No Items found');
    const itemForm = addForm(page);
    await itemForm.getByLabel('Name', { exact: true }).fill('Diesel');
    await itemForm.getByLabel('Word 1', { exact: true }).fill('diesel');
    await itemForm.getByRole('button', { name: 'New Word' }).click();
    await itemForm.getByLabel('Word 2', { exact: true }).fill('dyzelinas');
    await itemForm.getByRole('button', { name: 'New Word' }).click();
    await until(() => itemForm.getByLabel('Word 3', { exact: true }).count()).toBe(1);
    const created = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/item'));
    await itemForm.getByRole('button', { name: 'ADD' }).click();
    expect((await created).postDataJSON()).toEqual({ name: 'Diesel', words: ['diesel', 'dyzelinas'] });
    await until(() => row(page, 'Diesel').count()).toBe(1);
    expect(await row(page, 'Diesel').innerText()).toContain('diesel, dyzelinas');
    // The form is ready for the next item: one empty word row
    await until(() => itemForm.getByLabel('Word 2', { exact: true }).count()).toBe(0);
    await screenshot(page, 'items');

    // Edit the item: remove a word
    await row(page, 'Diesel').getByRole('button', { name: 'Edit Diesel' }).click();
    const itemEdit = page.getByTestId('md-edit-modal');
    await until(() => itemEdit.getByLabel('Word 2', { exact: true }).inputValue()).toBe('dyzelinas');
    await screenshot(page, 'items-edit');
    await itemEdit.getByRole('button', { name: 'Remove word 2' }).click();
    const itemPut = page.waitForRequest((r) => r.method() === 'PUT' && new URL(r.url()).pathname.endsWith('/item'));
    await itemEdit.getByRole('button', { name: 'Save' }).click();
    const itemBody = (await itemPut).postDataJSON() as Record<string, unknown>;
    expect(Object.keys(itemBody).sort()).toEqual(['name_id', 'words']);
    expect(itemBody.words).toEqual(['diesel']);
    await until(() => row(page, 'Diesel').innerText()).not.toContain('dyzelinas');

    // Another member's write reaches the open list through the live channel, without a reload
    await until(() => page.getByTestId('live-status').getAttribute('data-status')).toBe('open');
    expect((await api.post(`/item?company_id=${companyId}`, { name: 'Petrol', words: ['benzinas'] })).status).toBe(201);
    await until(() => row(page, 'Petrol').count()).toBe(1);

    expect(errors).toEqual([]);
    await page.close();
  });

  it('creates a supplier, finds it by search, edits only what changed and deletes one', async () => {
    const page = await signedInPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // A category of the company for the supplier's dropdown
    expect((await api.post(`/category?company_id=${companyId}`, { name: 'Transport', category_code: 'T-1' })).status).toBe(201);
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).click();
    await page.waitForURL(/\/suppliers$/);
    // The first page holds 50 rows (the list may already fetch the next page when its end is in view at once, as
    // the screen's code and styles arrive on first use); scrolling to the end loads the rest
    await until(() => rows(page).count()).toBeGreaterThanOrEqual(50);
    await page.getByTestId('md-list').locator('li').last().scrollIntoViewIfNeeded();
    await until(() => rows(page).count()).toBe(55);

    // Required fields with the spec's texts
    const form = addForm(page);
    await form.getByRole('button', { name: 'ADD' }).click();
    await until(() => form.getByTestId('error-name').innerText()).toBe('Required field');
    expect(await form.getByTestId('error-code').innerText()).toBe('Required field');

    // A new supplier with a country searched by name and a category from the dropdown
    await form.getByLabel('Name', { exact: true }).fill('Baltic Fuel UAB');
    await form.getByLabel('Code', { exact: true }).fill('304050607');
    await form.getByLabel('VAT ID', { exact: true }).fill('LT304050607');
    await form.getByLabel('Street', { exact: true }).fill('Gedimino pr. 1');
    await form.getByLabel('City', { exact: true }).fill('Vilnius');
    await form.getByRole('combobox', { name: 'Country' }).fill('lithu');
    await page.getByRole('option').filter({ hasText: 'Lithuania' }).first().click();
    await form.getByLabel('Zip code', { exact: true }).fill('01103');
    await form.getByRole('combobox', { name: 'Category' }).click();
    await form.getByRole('combobox', { name: 'Category' }).fill('trans');
    await until(() => page.getByRole('option').allInnerTexts()).toEqual([expect.stringContaining('Transport')]);
    await page.getByRole('option').filter({ hasText: 'Transport' }).click();
    expect(await form.getByRole('combobox', { name: 'Category' }).inputValue()).toBe('Transport');
    const created = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/stakeholder'));
    await form.getByRole('button', { name: 'ADD' }).click();
    const body = (await created).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'supplier', name: 'Baltic Fuel UAB', code: '304050607', vat_id: 'LT304050607', country: 'LT', city: 'Vilnius' });
    expect(typeof body.category_id).toBe('string');
    await until(() => form.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    // The same name again: the duplicate text under the name
    await form.getByLabel('Name', { exact: true }).fill('Baltic Fuel UAB');
    await form.getByLabel('Code', { exact: true }).fill('999');
    await form.getByRole('button', { name: 'ADD' }).click();
    await until(() => form.getByTestId('error-name').innerText()).toBe('This supplier already exists');

    // Search: the list reloads after typing stops, with search_name
    const searched = page.waitForRequest((r) => r.method() === 'GET' && new URL(r.url()).searchParams.get('search_name') === 'baltic');
    await page.getByRole('searchbox', { name: 'Search suppliers' }).fill('baltic');
    await searched;
    await until(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toContain('Baltic Fuel UAB');
    expect(await rows(page).first().innerText()).toContain('LT304050607 · Transport');
    await screenshot(page, 'suppliers');
    // Its company code finds it too (the name search alone never did)
    const byCode = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).searchParams.get('search_name') === '304 050 607');
    await page.getByRole('searchbox', { name: 'Search suppliers' }).fill('304 050 607');
    await byCode;
    await until(() => rows(page).allInnerTexts()).toEqual([expect.stringContaining('Baltic Fuel UAB')]);
    await page.getByRole('searchbox', { name: 'Search suppliers' }).fill('baltic');
    await until(() => rows(page).count()).toBe(1);

    // Edit: two columns; only the changed fields are sent
    await row(page, 'Baltic Fuel UAB').getByRole('button', { name: 'Edit Baltic Fuel UAB' }).click();
    const edit = page.getByTestId('md-edit-modal');
    await until(() => edit.getByLabel('City', { exact: true }).inputValue()).toBe('Vilnius');
    expect(await edit.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('Lithuania');
    expect(await edit.getByRole('combobox', { name: 'Category' }).inputValue()).toBe('Transport');
    await edit.getByLabel('City', { exact: true }).fill('Kaunas');
    await edit.getByLabel('Date format').selectOption('DD/MM/YYYY');
    await screenshot(page, 'suppliers-edit');
    // Offline, Save says so at once and keeps the pop-up with what was typed (it spun until the network was back)
    await page.context().setOffline(true);
    await edit.getByRole('button', { name: 'Save' }).click();
    await until(() => page.getByText('No connection to the internet').count()).toBeGreaterThan(0);
    expect(await edit.getByLabel('City', { exact: true }).inputValue()).toBe('Kaunas');
    await until(() => edit.getByRole('button', { name: 'Save' }).isEnabled()).toBe(true);
    await screenshot(page, 'suppliers-edit-offline');
    await page.context().setOffline(false);
    const put = page.waitForRequest((r) => r.method() === 'PUT' && new URL(r.url()).pathname.endsWith('/stakeholder'));
    await edit.getByRole('button', { name: 'Save' }).click();
    const sent = (await put).postDataJSON() as Record<string, unknown>;
    // with what the changed fields were when the pop-up read them: a field someone else saved since is refused
    expect(sent).toEqual({ id: sent.id, city: 'Kaunas', selected_date_format: 'DD/MM/YYYY', before: { city: 'Vilnius', selected_date_format: null } });
    await until(() => edit.count()).toBe(0);
    const saved = (await api.get(`/stakeholders/${String(sent.id)}?company_id=${companyId}`)).body as Record<string, unknown>;
    expect(saved).toMatchObject({ name: 'Baltic Fuel UAB', city: 'Kaunas', street: 'Gedimino pr. 1', selected_date_format: 'DD/MM/YYYY' });

    // Delete another supplier through the Delete stakeholder pop-up
    await page.getByRole('searchbox', { name: 'Search suppliers' }).fill('Bulk supplier 07');
    await until(() => rows(page).count()).toBe(1);
    await row(page, 'Bulk supplier 07').getByRole('button', { name: 'Delete Bulk supplier 07' }).click();
    const dialog = page.getByTestId('md-delete-modal');
    await until(() => dialog.innerText()).toContain('Are you sure to delete Bulk supplier 07?');
    expect(await dialog.innerText()).toContain('This actions is irreversible!');
    expect(await dialog.getByRole('heading').innerText()).toBe('Delete stakeholder');
    await screenshot(page, 'suppliers-delete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await until(() => page.getByTestId('md-empty').innerText()).toBe('No Suppliers found');

    // Changing route clears the search
    await page.getByTestId('side-menu').getByRole('link', { name: 'Customers' }).click();
    await page.waitForURL(/\/customers$/);
    expect(await page.getByRole('searchbox', { name: 'Search customers' }).inputValue()).toBe('');
    await until(() => page.getByTestId('md-empty').innerText()).toBe('No Customers found');
    const customers = addForm(page);
    await customers.getByLabel('Name', { exact: true }).fill('Rimi Lietuva');
    await customers.getByLabel('Code', { exact: true }).fill('123456789');
    await customers.getByLabel('City', { exact: true }).fill('Riga');
    await customers.getByRole('button', { name: 'ADD' }).click();
    await until(() => row(page, 'Rimi Lietuva').count()).toBe(1);
    await screenshot(page, 'customers');
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).click();
    await page.waitForURL(/\/suppliers$/);
    expect(await page.getByRole('searchbox', { name: 'Search suppliers' }).inputValue()).toBe('');
    await until(() => row(page, 'Bulk supplier 01').count()).toBe(1);
    expect(await row(page, 'Baltic Fuel UAB').count()).toBe(1);

    expect(errors).toEqual([]);
    await page.close();
  });
  it('two pop-ups on one supplier: the later save of a field the earlier changed is refused and shown, a second Save keeps it', async () => {
    const created = await api.post(`/stakeholder?company_id=${companyId}`, { type: 'supplier', name: 'Twin Tabs UAB', code: 'TT-1', city: 'Vilnius', street: 'Old st. 1', zipcode: '01100' });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const open = async () => {
      const page = await signedInPage();
      await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).click();
      await page.waitForURL(/\/suppliers$/);
      await page.getByRole('searchbox', { name: 'Search suppliers' }).fill('twin tabs');
      await until(() => rows(page).count()).toBe(1);
      await row(page, 'Twin Tabs UAB').getByRole('button', { name: 'Edit Twin Tabs UAB' }).click();
      const edit = page.getByTestId('md-edit-modal');
      await until(() => edit.getByLabel('City', { exact: true }).inputValue()).toBe('Vilnius');
      return { page, edit };
    };
    const first = await open();
    const second = await open();

    // The first saves City and Zip code
    await first.edit.getByLabel('City', { exact: true }).fill('Sydney-T1');
    await first.edit.getByLabel('Zip code', { exact: true }).fill('02200');
    await first.edit.getByRole('button', { name: 'Save' }).click();
    await until(() => first.edit.count()).toBe(0);

    // The second, opened before, changes City and Street: refused, City says what it is now, nothing is lost
    await second.edit.getByLabel('City', { exact: true }).fill('Melbourne-T2');
    await second.edit.getByLabel('Street', { exact: true }).fill('Street-T2');
    await second.edit.getByRole('button', { name: 'Save' }).click();
    await until(() => second.edit.getByTestId('error-city').innerText().catch(() => '')).toBe('Changed by someone else meanwhile to "Sydney-T1": Save again to keep yours');
    expect(await second.edit.getByLabel('City', { exact: true }).inputValue()).toBe('Melbourne-T2');
    expect(await second.edit.getByLabel('Street', { exact: true }).inputValue()).toBe('Street-T2');
    // the field it did not touch shows what the first saved
    await until(() => second.edit.getByLabel('Zip code', { exact: true }).inputValue()).toBe('02200');
    await screenshot(second.page, 'suppliers-edit-changed-meanwhile');
    expect((await api.get(`/stakeholders/${id}?company_id=${companyId}`)).body).toMatchObject({ city: 'Sydney-T1', street: 'Old st. 1', zipcode: '02200' });

    // Save again keeps its values, and the first's Zip code stays
    await second.edit.getByRole('button', { name: 'Save' }).click();
    await until(() => second.edit.count()).toBe(0);
    expect((await api.get(`/stakeholders/${id}?company_id=${companyId}`)).body).toMatchObject({ city: 'Melbourne-T2', street: 'Street-T2', zipcode: '02200' });
    await first.page.close();
    await second.page.close();
  });

  it('two pop-ups on one category: the later rename is refused and shown, the code the first saved comes in, a second Save keeps the name', async () => {
    const created = await api.post(`/category?company_id=${companyId}`, { name: 'Twin Category', category_code: 'TC-1' });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const open = async () => {
      const page = await signedInPage();
      await page.getByTestId('side-menu').getByRole('link', { name: 'Categories' }).click();
      await page.waitForURL(/\/categories$/);
      await until(() => row(page, 'Twin Category').count()).toBe(1);
      await row(page, 'Twin Category').getByRole('button', { name: 'Edit Twin Category' }).click();
      const edit = page.getByTestId('md-edit-modal');
      await until(() => edit.getByLabel('Code', { exact: true }).inputValue()).toBe('TC-1');
      return { page, edit };
    };
    const first = await open();
    const second = await open();

    await first.edit.getByLabel('Name', { exact: true }).fill('Twin Category A1');
    await first.edit.getByLabel('Code', { exact: true }).fill('TC-2');
    await first.edit.getByRole('button', { name: 'Save' }).click();
    await until(() => first.edit.count()).toBe(0);

    await second.edit.getByLabel('Name', { exact: true }).fill('Twin Category B2');
    await second.edit.getByRole('button', { name: 'Save' }).click();
    await until(() => second.edit.getByTestId('error-name').innerText().catch(() => '')).toBe('Changed by someone else meanwhile to "Twin Category A1": Save again to keep yours');
    expect(await second.edit.getByLabel('Name', { exact: true }).inputValue()).toBe('Twin Category B2');
    await until(() => second.edit.getByLabel('Code', { exact: true }).inputValue()).toBe('TC-2');
    await screenshot(second.page, 'categories-edit-changed-meanwhile');
    expect((await api.get(`/categories/${id}?company_id=${companyId}`)).body).toMatchObject({ name: 'Twin Category A1', category_code: 'TC-2' });

    await second.edit.getByRole('button', { name: 'Save' }).click();
    await until(() => second.edit.count()).toBe(0);
    expect((await api.get(`/categories/${id}?company_id=${companyId}`)).body).toMatchObject({ name: 'Twin Category B2', category_code: 'TC-2' });
    await first.page.close();
    await second.page.close();
  });

  it('spans every company in the all-companies view: rows carry their company, new records ask for one', async () => {
    const second = (await api.post('/company', { company_name: 'Second Branch UAB', code: '700800900' })).body as { company_id: string };
    expect((await api.post(`/category?company_id=${companyId}`, { name: 'Alpha costs' })).status).toBe(201);
    expect((await api.post(`/category?company_id=${second.company_id}`, { name: 'Beta costs' })).status).toBe(201);
    const page = await e2e.browser.newPage({ viewport: { width: 1440, height: 950 } });
    await page.addInitScript(() => window.localStorage.setItem('active_all_companies', 'true'));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${e2e.stack.url}/signin`);
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });

    // The list asks every company (selected=ALL) and each row names its company
    const listed = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith('/categories') && new URL(r.url()).searchParams.get('selected') === 'ALL');
    await page.getByTestId('side-menu').getByRole('link', { name: 'Categories' }).click();
    await listed;
    await until(() => row(page, 'Beta costs').count()).toBe(1);
    expect(await row(page, 'Alpha costs').getByTestId('md-row-company').innerText()).toBe(user.company);
    expect(await row(page, 'Beta costs').getByTestId('md-row-company').innerText()).toBe('Second Branch UAB');

    // A new category needs a company; it is created in the chosen one
    const form = addForm(page);
    await form.getByLabel('Name', { exact: true }).fill('Gamma costs');
    await form.getByRole('button', { name: 'ADD' }).click();
    await until(() => form.getByTestId('error-company_id').innerText()).toBe('Required field');
    await form.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option').filter({ hasText: 'Second Branch UAB' }).click();
    const created = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/category'));
    await form.getByRole('button', { name: 'ADD' }).click();
    expect(new URL((await created).url()).searchParams.get('company_id')).toBe(second.company_id);
    await until(() => row(page, 'Gamma costs').count()).toBe(1);
    expect(await row(page, 'Gamma costs').getByTestId('md-row-company').innerText()).toBe('Second Branch UAB');
    await screenshot(page, 'categories-all-companies');

    // Suppliers: the category dropdown waits for a company (No items...), then offers that company's categories
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).click();
    await page.waitForURL(/\/suppliers$/);
    const suppliers = addForm(page);
    await suppliers.getByRole('combobox', { name: 'Category' }).click();
    await until(() => page.getByTestId('no-items').innerText()).toBe('No items...');
    await suppliers.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option').filter({ hasText: 'Second Branch UAB' }).click();
    await suppliers.getByRole('combobox', { name: 'Category' }).click();
    await until(() => page.getByRole('option').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('Beta costs')]));
    expect(await page.getByRole('option').filter({ hasText: 'Alpha costs' }).count()).toBe(0);
    await screenshot(page, 'suppliers-all-companies');

    // Items: Upload XLSX asks for the company first (under Company, no pop-up), then opens for the chosen one
    await page.getByTestId('side-menu').getByRole('link', { name: 'Items' }).click();
    await page.waitForURL(/\/items$/);
    const items = addForm(page);
    await items.getByRole('button', { name: 'Upload XLSX' }).click();
    await until(() => items.getByTestId('error-company_id').innerText()).toBe('Choose the company to upload into');
    expect(await page.getByTestId('import-xlsx-popup').count()).toBe(0);
    await screenshot(page, 'items-all-companies-upload-needs-company');
    await items.getByRole('combobox', { name: 'Company' }).click();
    await page.getByRole('option').filter({ hasText: 'Second Branch UAB' }).click();
    await items.getByRole('button', { name: 'Upload XLSX' }).click();
    await until(() => page.getByTestId('import-xlsx-popup').count()).toBe(1);
    await screenshot(page, 'items-all-companies-upload');

    expect(errors).toEqual([]);
    await page.close();
  });

  it("the Category dropdown reaches every category by scrolling, and lists a name before the longer names it starts", async () => {
    const owner = newUser('mdcategories');
    await registerUser(e2e.stack, owner);
    const ownerApi = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, owner));
    const ownCompany = ((await ownerApi.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // More categories than one page holds; "Office supplies" created before "Office"
    for (const name of [...Array.from({ length: 55 }, (_, i) => `Bulk category ${String(i + 1).padStart(2, '0')}`), 'Office supplies', 'Office']) {
      expect((await ownerApi.post(`/category?company_id=${ownCompany}`, { name })).status).toBe(201);
    }
    const page = await signInPage(e2e.browser, e2e.stack.url, owner);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.getByTestId('side-menu').getByRole('link', { name: 'Categories' }).click();
    await page.waitForURL(/\/categories$/);
    await until(() => rows(page).count()).toBeGreaterThanOrEqual(50);
    await page.getByTestId('md-list').locator('li').last().scrollIntoViewIfNeeded();
    await until(() => rows(page).count()).toBe(57);
    const names = await rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-name')));
    expect(names.slice(-2)).toEqual(['Office', 'Office supplies']);

    // The supplier form's dropdown: the first 50, then the rest when its list is scrolled to the end
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).click();
    await page.waitForURL(/\/suppliers$/);
    await addForm(page).getByRole('combobox', { name: 'Category' }).click();
    const options = page.getByRole('listbox', { name: 'Category' }).getByRole('option');
    await until(() => options.count()).toBe(50);
    await page.getByRole('listbox', { name: 'Category' }).evaluate((list) => {
      list.scrollTop = list.scrollHeight;
    });
    await until(() => options.count()).toBe(57);
    expect((await options.allInnerTexts()).slice(-2)).toEqual(['Office', 'Office supplies']);
    expect(await page.getByTestId('search-select-more').count()).toBe(0);
    await options.filter({ hasText: 'Office supplies' }).click();
    expect(await addForm(page).getByRole('combobox', { name: 'Category' }).inputValue()).toBe('Office supplies');
    await screenshot(page, 'suppliers-category-dropdown');
    expect(await page.getByTestId('md-imported-only').count()).toBe(0);

    // With only imported categories displayed, the list says why the company's own are not there
    expect((await ownerApi.post(`/company/service?company_id=${ownCompany}`, { type: 'display_imported_categories', enabled: true })).status).toBe(200);
    await page.goto(`${e2e.stack.url}/categories`);
    await until(() => page.getByTestId('md-imported-only').count()).toBe(1);
    expect(await page.getByTestId('md-imported-only').innerText()).toBe('Only imported categories are shown: Display only imported categories is on in Integration.');
    await until(() => page.getByTestId('md-empty').innerText()).toBe('No Categories found');
    await screenshot(page, 'categories-imported-only');

    expect(errors).toEqual([]);
    await page.close();
  });
});
