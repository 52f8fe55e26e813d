import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, signInPage } from '../support/browser';
import { addMembership, apiClient, newUser, signIn, subOf, uploadDocument } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

/** How long a screen may take to show what the server answered (handlers load on first use). */
const WAIT = { timeout: 15_000 };

async function onePagePdf(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 760 - i * 26, size: 14, font }));
  return Buffer.from(await pdf.save());
}

describe('platform admin and settings in Chromium', () => {
  const platformAdmin = { ...newUser('platform'), email: 'platform-admin@example.com', name: 'Paula', surname: 'Admin' };
  const customer = { ...newUser('customer'), name: 'Rasa', surname: 'Petraitė', company: 'Baltic Foods UAB', company_code: '304112233' };
  const colleague = { ...newUser('colleague'), name: 'Basic', surname: 'Colleague' };
  let customerCompanyId = '';

  const e2e = useBrowserStack('admin', { globalAdminEmails: [platformAdmin.email] });
  beforeAll(async () => {
    await registerUser(e2e.stack, platformAdmin);
    await registerUser(e2e.stack, customer);
    await registerUser(e2e.stack, colleague);
    const customerToken = await signIn(e2e.stack, customer);
    const api = apiClient(e2e.stack.apiUrl, customerToken);
    customerCompanyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    await addMembership(subOf(await signIn(e2e.stack, colleague)), customerCompanyId, 'basic');
    // The customer has one document this month already.
    const up = await uploadDocument(api, { company_id: customerCompanyId, original_file_name: 'first.pdf' }, await onePagePdf(['FIRST UAB', 'Total 5.00']));
    expect(up.request.status).toBe(200);
    await e2e.stack.jobs.idle();
  });

  const signedInPage = (user: { email: string; password: string }) => signInPage(e2e.browser, e2e.stack.url, user, { width: 1440, height: 900 });

  it('the platform admin lowers a company’s quota on /admin/{company_id} and the next upload of that company gets the over-quota message', async () => {
    const page = await signedInPage(platformAdmin);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // Admin menu entry → /admin: counters and the companies table
    const menu = page.getByTestId('side-menu');
    await expect.poll(() => menu.getByRole('link', { name: 'Admin' }).count(), WAIT).toBe(1);
    await menu.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(/\/admin$/);
    await expect.poll(() => page.getByTestId('page-title').innerText(), WAIT).toBe('Admin');
    const customers = page.getByTestId('admin-customers');
    const invoices = page.getByTestId('admin-invoices');
    await expect.poll(() => customers.locator('.admin-counter-value').innerText(), WAIT).toBe('3');
    expect(await invoices.locator('.admin-counter-value').innerText()).toBe('1');
    expect(await customers.locator('.admin-counter-label').textContent()).toBe('Customers');
    expect(await invoices.locator('.admin-counter-label').textContent()).toBe('Invoices');
    const headers = await page.locator('.admin-table thead th').allTextContents();
    expect(headers.slice(0, 5)).toEqual(['Date', 'User', 'Company', 'Email', 'Invoices per/mounth']);
    const row = page.locator(`[data-testid="admin-company-row"][data-company-id="${customerCompanyId}"]`);
    await expect.poll(() => row.count(), WAIT).toBe(1);
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[0]).toMatch(/^\d{2} [A-Z][a-z]{2} \d{2}$/);
    expect(cells.slice(1, 5)).toEqual(['Rasa Petraitė', 'Baltic Foods UAB', customer.email, '1 / 500']);
    expect(await page.getByTestId('admin-company-row').count()).toBe(3);
    await screenshot(page, 'admin');

    // The company page: facts, then the count form with the spec's message, then a lower quota
    await row.click();
    await page.waitForURL(new RegExp(`/admin/${customerCompanyId}$`));
    const facts = page.getByTestId('admin-company-facts');
    await expect.poll(() => facts.count(), WAIT).toBe(1);
    for (const label of ['Date', 'Company', 'User', 'Email', 'Documents used', 'Documents available']) {
      expect(await facts.locator('dt', { hasText: new RegExp(`^${label}$`) }).count(), label).toBe(1);
    }
    expect(await page.getByTestId('admin-documents-used').innerText()).toBe('1');
    expect(await page.getByTestId('admin-documents-available').innerText()).toBe('500');
    const countForm = page.getByTestId('admin-count-form');
    const countInput = countForm.locator('input[name="available_documents"]');
    await countInput.fill('12a');
    await countForm.getByRole('button', { name: 'UPDATE' }).click();
    await expect.poll(() => countForm.getByTestId('error-available_documents').innerText(), WAIT).toBe('Not a number');
    await countInput.fill('1');
    await countForm.getByRole('button', { name: 'UPDATE' }).click();
    await expect.poll(() => page.getByTestId('admin-documents-available').innerText(), WAIT).toBe('1');

    const vatForm = page.getByTestId('admin-vat-form');
    await vatForm.locator('input[name="vat_account"]').fill('2441');
    const vatSaved = page.waitForResponse((r) => r.url().includes('/updateVATAccount'), WAIT);
    await vatForm.getByRole('button', { name: 'UPDATE' }).click();
    expect((await vatSaved).status()).toBe(200);
    await expect.poll(() => page.getByTestId('admin-vat-form').getAttribute('aria-busy'), WAIT).toBe('false');
    expect(await vatForm.locator('input[name="vat_account"]').inputValue()).toBe('2441');
    await screenshot(page, 'admin-company');

    // Back on /admin the row shows the new quota
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/\/admin$/);
    await expect.poll(() => row.locator('[data-testid="admin-usage"]').innerText(), WAIT).toBe('1 / 1');

    // An unknown company goes back to /admin
    await page.goto(`${e2e.stack.url}/admin/01UNKNOWNCOMPANY0000000000`);
    await page.waitForURL(/\/admin$/, WAIT);
    expect(errors).toEqual([]);
    await page.close();

    // The customer's very next upload gets the over-quota message
    const customerPage = await signedInPage(customer);
    await customerPage.goto(`${e2e.stack.url}/receipts/inbox`);
    await customerPage.getByRole('button', { name: 'ADD' }).click();
    const modal = customerPage.getByTestId('upload-modal');
    await expect.poll(() => modal.count(), WAIT).toBe(1);
    await modal.getByText('Cost', { exact: true }).click();
    await modal
      .locator('input[data-testid="upload-input"]')
      .setInputFiles({ name: 'second.pdf', mimeType: 'application/pdf', buffer: await onePagePdf(['SECOND UAB', 'Total 6.00']) });
    const failed = modal.locator('[data-testid="upload-item"]', { hasText: 'second.pdf' });
    await expect.poll(() => failed.getAttribute('data-state'), WAIT).toBe('failed');
    expect(await failed.innerText()).toContain('The monthly document limit of this company is reached (1 document a month)');
    await screenshot(customerPage, 'admin-over-quota-upload');
    await customerPage.close();
  });

  it('a company page out of date: a reset alone keeps the newer quota, a changed count is refused with the current one shown', async () => {
    const adminApi = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, platformAdmin));
    const quota = async () => ((await adminApi.get(`/admin/companies/${customerCompanyId}`)).body as { available_documents: number; used_documents: number });
    const page = await signedInPage(platformAdmin);
    await page.goto(`${e2e.stack.url}/admin/${customerCompanyId}`);
    const shown = page.getByTestId('admin-documents-available');
    await expect.poll(() => shown.innerText(), WAIT).toBe(String((await quota()).available_documents));
    const countForm = page.getByTestId('admin-count-form');

    // Another admin raises the quota after this page was loaded; here only the reset is asked for
    expect((await adminApi.post(`/admin/companies/${customerCompanyId}/updateAvailableDocuments`, { available_documents: '40' })).status).toBe(200);
    await countForm.getByText("Reset this month's usage").click();
    const sent = page.waitForRequest((r) => r.url().includes('/updateAvailableDocuments'), WAIT);
    await countForm.getByRole('button', { name: 'UPDATE' }).click();
    expect((await sent).postDataJSON()).toEqual({});
    await expect.poll(() => page.getByTestId('admin-documents-used').innerText(), WAIT).toBe('0');
    expect(await quota()).toMatchObject({ available_documents: 40, used_documents: 0 });
    await expect.poll(() => shown.innerText(), WAIT).toBe('40');

    // Changed again meanwhile: the count typed here is refused, and the page shows the current quota
    expect((await adminApi.post(`/admin/companies/${customerCompanyId}/updateAvailableDocuments`, { available_documents: '60' })).status).toBe(200);
    await countForm.locator('input[name="available_documents"]').fill('5');
    await countForm.getByRole('button', { name: 'UPDATE' }).click();
    await expect.poll(() => page.getByText('The documents available were changed to 60 since this page was loaded. Check the number and update again.').count(), WAIT).toBe(1);
    await expect.poll(() => shown.innerText(), WAIT).toBe('60');
    expect((await quota()).available_documents).toBe(60);
    await expect.poll(() => page.getByTestId('admin-count-form').locator('input[name="available_documents"]').inputValue(), WAIT).toBe('60');
    await screenshot(page, 'admin-company-quota-changed');
    await page.close();
  });

  it('fields configuration: the invoice number and the supplier and customer names are shown required with their toggles locked', async () => {
    const page = await signedInPage(customer);
    await page.goto(`${e2e.stack.url}/fields-configuration`);
    await expect.poll(() => page.getByTestId('config-document_id').count(), WAIT).toBe(1);
    for (const [id, label] of [
      ['document_id', 'Invoice number'],
      ['supplier_name', 'Supplier name'],
      ['customer_name', 'Customer name'],
    ] as const) {
      for (const what of ['visible', 'required']) {
        const toggle = page.getByRole('switch', { name: `${label} ${what}` });
        expect(await toggle.isChecked(), `${label} ${what}`).toBe(true);
        expect(await toggle.isDisabled(), `${label} ${what}`).toBe(true);
      }
      expect(await page.getByTestId(`config-${id}-locked`).innerText()).toContain(`${label} is always required`);
    }
    // The others are unlocked as before.
    expect(await page.getByRole('switch', { name: 'IBAN visible' }).isDisabled()).toBe(false);
    await screenshot(page, 'fields-configuration-locked');
    await page.close();
  });

  it('a user who is not a platform admin has no Admin entry and /admin goes to the dashboard', async () => {
    const page = await signedInPage(customer);
    const menu = page.getByTestId('side-menu');
    await expect.poll(() => menu.getByRole('link', { name: 'Settings' }).count(), WAIT).toBe(1);
    expect(await menu.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.goto(`${e2e.stack.url}/admin`);
    await page.waitForURL(/\/dashboard$/, WAIT);
    await page.goto(`${e2e.stack.url}/admin/${customerCompanyId}`);
    await page.waitForURL(/\/dashboard$/, WAIT);
    await page.close();
  });

  it('settings: the company admin renames the company and sees the Email-in address and admin links; a basic member sees it read-only', async () => {
    const page = await signedInPage(customer);
    await page.getByTestId('side-menu').getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(/\/settings$/);
    await expect.poll(() => page.getByTestId('page-title').innerText(), WAIT).toBe('Settings');
    const form = page.getByTestId('settings-company-form');
    await expect.poll(() => form.locator('input[name="name"]').inputValue(), WAIT).toBe('Baltic Foods UAB');
    expect(await form.locator('input[name="code"]').inputValue()).toBe('304112233');
    expect(await page.getByTestId('settings-email-in').innerText()).toMatch(/^baltic-foods-uab-[a-z0-9]{6}@in\.receipts\.local$/);
    expect(await page.getByTestId('settings-global-email').innerText()).toBe(customer.email);
    expect(await page.getByTestId('settings-role').innerText()).toBe('Account owner');
    const links = page.getByTestId('settings-links');
    expect(await links.getByRole('link').allInnerTexts()).toEqual([
      expect.stringContaining('Fields configuration'),
      expect.stringContaining('My Team'),
      expect.stringContaining('Integration'),
    ]);

    // Validation, then a rename that reaches the header at once
    await form.locator('input[name="code"]').fill('');
    await form.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => form.getByTestId('error-code').innerText(), WAIT).toBe('Required field');
    await form.locator('input[name="name"]').fill('Baltic Foods Group UAB');
    await form.locator('input[name="code"]').fill('304112299');
    await form.locator('input[name="code"]').press('Enter');
    await expect.poll(() => page.getByText('Company details saved.').count(), WAIT).toBe(1);
    await expect.poll(() => page.locator('.topbar-identity').innerText(), WAIT).toContain('Baltic Foods Group UAB');
    // Saved with Enter, the form shows what was saved and the focus stays in the field it was in
    expect(await form.locator('input[name="name"]').inputValue()).toBe('Baltic Foods Group UAB');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('code');
    await page.getByRole('button', { name: 'Copy email-in address' }).click();
    await expect.poll(() => page.getByText('Copied', { exact: true }).count(), WAIT).toBe(1);
    await screenshot(page, 'settings');

    await page.getByRole('link', { name: /Fields configuration/ }).click();
    await page.waitForURL(/\/fields-configuration$/);
    await page.close();

    // A basic member: the same facts, read-only, no save and no admin links
    const basic = await signedInPage(colleague);
    await basic.goto(`${e2e.stack.url}/settings`);
    const select = basic.locator('#settings-company');
    await expect.poll(() => select.count(), WAIT).toBe(1);
    await select.selectOption(customerCompanyId);
    const basicForm = basic.getByTestId('settings-company-form');
    await expect.poll(() => basicForm.locator('input[name="name"]').inputValue(), WAIT).toBe('Baltic Foods Group UAB');
    expect(await basicForm.locator('input[name="name"]').getAttribute('readonly')).not.toBeNull();
    expect(await basicForm.locator('input[name="code"]').getAttribute('readonly')).not.toBeNull();
    expect(await basicForm.getByText('Read only').count()).toBe(1);
    expect(await basic.getByTestId('settings-links').count()).toBe(0);
    expect(await basic.getByTestId('settings-role').innerText()).toBe('Basic user');
    await screenshot(basic, 'settings-basic');

    // With the other company active, choosing their own company here and following a link opens that company's screen
    await basic.evaluate((id) => window.localStorage.setItem('active_company', id), customerCompanyId);
    await basic.reload();
    await expect.poll(() => basic.locator('.topbar-identity').innerText(), WAIT).toContain('Baltic Foods Group UAB');
    const own = await select.locator(`option:not([value="${customerCompanyId}"])`).first();
    const ownName = (await own.innerText()).trim();
    await select.selectOption(await own.getAttribute('value'));
    await basic.getByTestId('settings-links').getByRole('link', { name: /Integration/ }).click();
    await basic.waitForURL(/\/integration$/);
    await expect.poll(() => basic.locator('.topbar-identity').innerText(), WAIT).toContain(ownName);
    await basic.close();
  });

  it('usage by month: the company page lists its months, the companies list shows a past month chosen above it', async () => {
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { ddb } = await import('../../lambdas/adapters/ddb/client');
    const { keys } = await import('../../lambdas/adapters/ddb/keys');
    const { businessMonth, monthsUpTo } = await import('../../shared/business-time');
    const { formatMonth } = await import('../../web/src/lib/format');
    const [current, previous] = monthsUpTo(businessMonth(new Date()), 2);
    // The customer has been with the platform since 2025; last month it sent 23 documents, 2 of them copies, with a
    // quota of 40 then.
    const table = process.env.TABLE_NAME;
    const { setCompanyCreatedAt } = await import('../../scripts/local/seed-admin');
    await setCompanyCreatedAt(customerCompanyId, '2025-01-15T09:00:00.000Z');
    await ddb().send(new PutCommand({ TableName: table, Item: { ...keys.companyUsage(customerCompanyId, previous!), used_documents: 23, duplicated_documents: 2, quota_taken: 23, available_documents: 40 } }));

    const page = await signedInPage(platformAdmin);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${e2e.stack.url}/admin/${customerCompanyId}`);
    const months = page.getByTestId('admin-usage-month');
    await expect.poll(() => months.count(), WAIT).toBe(12);
    expect(await page.getByTestId('admin-usage-by-month').locator('thead th').allInnerTexts()).toEqual(['Month', 'Documents', 'Documents available', 'Duplicates']);
    expect(await months.nth(0).locator('td').allInnerTexts()).toEqual([formatMonth(current!), '0', expect.stringMatching(/^\d+$/), '0']);
    expect(await months.nth(1).locator('td').allInnerTexts()).toEqual([formatMonth(previous!), '23', '40', '2']);
    await screenshot(page, 'admin-company-usage');

    // The companies list: this month by default, last month when chosen (kept in the address, so a reload keeps it)
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/\/admin$/);
    const row = page.locator(`[data-testid="admin-company-row"][data-company-id="${customerCompanyId}"]`);
    await expect.poll(() => row.locator('[data-testid="admin-usage"]').innerText(), WAIT).toMatch(/^0 \/ \d+$/);
    const month = page.getByTestId('admin-month');
    expect(await month.locator('option').count()).toBe(12);
    expect(await month.locator('option').first().innerText()).toBe(`${formatMonth(current!)} (this month)`);
    const asked = page.waitForRequest((r) => r.url().includes(`/admin/companies?`) && r.url().includes(`month=${previous}`), WAIT);
    await month.selectOption(previous!);
    await asked;
    await page.waitForURL(new RegExp(`/admin\\?month=${previous}$`));
    await expect.poll(() => row.locator('[data-testid="admin-usage"]').innerText(), WAIT).toBe('23 / 40');
    await screenshot(page, 'admin-past-month');
    // The month's usage of every company as a CSV file (the month's invoicing)
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.getByRole('button', { name: 'DOWNLOAD CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`usage-${previous}.csv`);
    const csv = readFileSync(await download.path()).toString('utf8');
    const lines = csv.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Month,Company,Code,VAT account,User,Email,Documents used,Documents available,Date');
    // only the companies that existed last month: the others were created this month
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.includes('Baltic Foods Group UAB'))).toMatch(new RegExp(`^${previous},Baltic Foods Group UAB,304112299,2441,Rasa Petraitė,${customer.email},23,40,15 Jan 25$`));
    await page.reload();
    await expect.poll(() => row.locator('[data-testid="admin-usage"]').innerText(), WAIT).toBe('23 / 40');
    expect(await month.inputValue()).toBe(previous);
    // Back to this month: the address has no month again
    await month.selectOption(current!);
    await page.waitForURL(/\/admin$/);
    await expect.poll(() => row.locator('[data-testid="admin-usage"]').innerText(), WAIT).toMatch(/^0 \/ \d+$/);

    // A phone (390 px): DOWNLOAD CSV is whole on screen, and the company page is no wider than the screen
    await page.setViewportSize({ width: 390, height: 844 });
    const download390 = await page.getByRole('button', { name: 'DOWNLOAD CSV' }).boundingBox();
    expect(download390!.x).toBeGreaterThanOrEqual(0);
    expect(download390!.x + download390!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'admin-390');
    await page.goto(`${e2e.stack.url}/admin/${customerCompanyId}`);
    await expect.poll(() => months.count(), WAIT).toBe(12);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'admin-company-390');
    expect(errors).toEqual([]);
    await page.close();
  });
});
