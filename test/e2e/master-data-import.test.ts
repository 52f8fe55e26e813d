import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, signInPage } from '../support/browser';
import { newUser } from '../support/local-stack';
import { workbookBytes } from '../support/workbooks';
import { useBrowserStack } from '../support/e2e-stack';

const until = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 30_000, interval: 100 });

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The Upload XLSX pop-up of the master-data screens, as a user imports suppliers and items in Chromium. */
describe('master-data XLSX import in Chromium', () => {
  const user = newUser('importe2e');

  const e2e = useBrowserStack('md-import');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
  });

  const signedInPage = (): Promise<Page> => signInPage(e2e.browser, e2e.stack.url, user);

  const row = (page: Page, name: string) => page.locator(`[data-testid="md-row"][data-name="${name}"]`);

  async function openScreen(page: Page, title: string, url: RegExp) {
    await page.getByTestId('side-menu').getByRole('link', { name: title }).click();
    await page.waitForURL(url);
    // The active company is known once the list has loaded
    await until(() => page.getByTestId('md-empty').count()).toBe(1);
  }

  const closePopup = (page: Page) => page.getByTestId('import-xlsx-popup').locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

  it('imports suppliers from an XLSX with a rejected row, and they show in /suppliers', async () => {
    const page = await signedInPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await openScreen(page, 'Suppliers', /\/suppliers$/);

    await page.getByRole('button', { name: 'Upload XLSX' }).click();
    const popup = page.getByTestId('import-xlsx-popup');
    await until(() => popup.isVisible()).toBe(true);
    expect(await popup.getByRole('heading').innerText()).toBe('Upload XLSX');
    // The focus moves into the pop-up, onto its drop zone (its first input is the zone's hidden file input)
    await until(() => popup.getByTestId('import-dropzone').evaluate((zone) => zone === document.activeElement)).toBe(true);

    // Only .xlsx and .xls are taken
    await popup.getByTestId('import-input').setInputFiles({ name: 'suppliers.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,Code\nA,1\n') });
    await until(() => popup.getByTestId('import-error').innerText()).toBe('This file type is not allowed');
    expect(await popup.getByTestId('import-dropzone').getAttribute('aria-label')).toBe('Drag and drop a file here or click to choose');
    await screenshot(page, 'import-xlsx-choose');

    const sheet = workbookBytes([
      ['Tiekėjų sąrašas'],
      ['Pavadinimas', 'Įmonės kodas', 'PVM kodas', 'Miestas', 'Šalis'],
      ['Imported Alfa UAB', '401000001', 'LT401000001', 'Vilnius', 'Lietuva'],
      ['Imported Beta UAB', '401000002', '', 'Riga', 'Latvia'],
      ['No code UAB', '', '', '', ''],
    ]);
    await popup.getByTestId('import-input').setInputFiles({ name: 'suppliers.xlsx', mimeType: XLSX_MIME, buffer: Buffer.from(sheet) });
    await until(() => popup.getByTestId('import-summary').isVisible()).toBe(true);
    expect(await popup.getByTestId('import-summary').innerText()).toBe('2 suppliers created, 0 updated, 1 row rejected');
    expect(await popup.getByTestId('import-rejected').locator('tbody tr').allInnerTexts()).toEqual(['5\tCode: Required field']);
    // a row rejected: the summary is a warning, not the green check of a file taken whole
    expect(await popup.getByTestId('import-summary').getAttribute('class')).toContain('has-rejected');
    await screenshot(page, 'import-xlsx');

    await closePopup(page);
    await until(() => popup.count()).toBe(0);
    await until(() => row(page, 'Imported Alfa UAB').count()).toBe(1);
    await until(() => row(page, 'Imported Beta UAB').count()).toBe(1);
    expect(await row(page, 'No code UAB').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('imports items from an XLSX with Word columns, and they show in /items', async () => {
    const page = await signedInPage();
    await openScreen(page, 'Items', /\/items$/);
    await page.getByRole('button', { name: 'Upload XLSX' }).click();
    const popup = page.getByTestId('import-xlsx-popup');
    const sheet = workbookBytes([
      ['Name', 'Word 1', 'Word 2'],
      ['Imported milk', 'milk', 'pienas'],
      ['Imported bread', 'bread', ''],
    ]);
    await popup.getByTestId('import-input').setInputFiles({ name: 'items.xlsx', mimeType: XLSX_MIME, buffer: Buffer.from(sheet) });
    await until(() => popup.getByTestId('import-summary').isVisible()).toBe(true);
    expect(await popup.getByTestId('import-summary').innerText()).toBe('2 items created, 0 updated, 0 rows rejected');
    expect(await popup.getByTestId('import-summary').getAttribute('class')).not.toContain('has-rejected');
    await screenshot(page, 'import-xlsx-items');
    await closePopup(page);
    await until(() => row(page, 'Imported milk').count()).toBe(1);
    await until(() => row(page, 'Imported bread').count()).toBe(1);
    // A file that is not a workbook, named .xlsx: the server's message
    await page.getByRole('button', { name: 'Upload XLSX' }).click();
    await page
      .getByTestId('import-xlsx-popup')
      .getByTestId('import-input')
      .setInputFiles({ name: 'fake.xlsx', mimeType: XLSX_MIME, buffer: Buffer.from('Name\nNot a workbook\n') });
    await until(() => page.getByTestId('import-xlsx-popup').getByTestId('import-message').innerText()).toBe(
      'This file type is not allowed: the file is not an .xlsx or .xls workbook',
    );
  });
});
