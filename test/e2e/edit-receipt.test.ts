import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { CONTENT_MSG } from '../../shared/schemas/content';
import { UNSAVED_CHANGES } from '../../web/src/features/edit-receipt/lib/actions';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, TABLE, uploadDocument } from '../integration/content-fixtures';
import { screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { findContentItem } from '../support/content-items';
import { useBrowserStack } from '../support/e2e-stack';

/** A point of page 1 in screen pixels from fractions of the page. */
async function pagePoint(page: Page, fx: number, fy: number) {
  const rect = (await page.locator('[data-testid="page-1"] .er-page-inner').boundingBox())!;
  return { x: rect.x + fx * rect.width, y: rect.y + fy * rect.height, rect };
}

describe('edit-receipt screen in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  const ids: Record<string, string> = {};
  const user = newUser('editor');
  const q = () => `company_id=${companyId}`;
  const content = async (id: string) => (await api.get(`/receipts/${id}/content?${q()}`)).body as ContentResponse;

  const e2e = useBrowserStack('edit');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // Three recognised cost receipts through the real upload path and processing job.
    for (const [key, number] of [
      ['first', 'PP-00123'],
      ['second', 'PP-00124'],
      ['third', 'PP-00125'],
    ] as const) {
      ids[key] = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number }), `${key}.pdf`);
    }
    // The first document needs corrections: a wrong total and a wrong date.
    const c = await content(ids.first!);
    const put = await api.put(`/receipts/${ids.first}/content?${q()}`, {
      version: c.version,
      items: [
        { id: 'amount_total', value: '999.00' },
        { id: 'issue_date', value: '2025-03-05' },
        { id: 'document_id', value: 'PP-00123' },
        { id: 'supplier_name', value: SAMPLE_INVOICE.supplier },
      ],
    });
    expect(put.status).toBe(200);
  });

  const signedInPage = (as: { email: string; password: string } = user) => signInPage(e2e.browser, e2e.stack.url, as, { width: 1500, height: 950 });

  it('corrects a recognised receipt (a box for the total, a date, a bad amount), confirms and lands on the next document', async () => {
    const page = await signedInPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // From the inbox list to the first document
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    const row = page.getByTestId('receipt-row').filter({ hasText: 'first.pdf' });
    await row.click();
    await page.waitForURL(new RegExp(`/edit-receipt/${ids.first}\\?company_id=`));
    await expect.poll(() => page.getByTestId('field-form').count()).toBe(1);
    await expect.poll(() => page.getByTestId('extracted-note').innerText()).toContain('Data from documents is shown once extracted');
    await expect.poll(() => page.getByTestId('pager-position').innerText()).toMatch(/^\d\/3$/);
    await expect.poll(() => page.getByTestId('ocr-box').count()).toBeGreaterThan(20);
    const total = page.getByTestId('field-amount_total');
    await expect.poll(() => total.inputValue()).toBe('999.00');
    // The totals do not add up: said under Total, without stopping anything
    await expect.poll(() => page.getByTestId('hint-amount_total').innerText().catch(() => '')).toBe('Subtotal + Tax total is 121.00: check the amounts');
    await screenshot(page, 'edit-receipt-opened');

    // The total: focus the field, click the printed total on the page
    await total.click();
    await page.locator(`[data-testid="ocr-box"][data-text="${SAMPLE_INVOICE.total}"]`).click();
    await expect.poll(() => total.inputValue()).toBe('121.00');
    await expect.poll(() => page.getByTestId('hint-amount_total').count()).toBe(0);
    await expect.poll(() => page.getByTestId('field-highlight').count()).toBe(1);
    await screenshot(page, 'edit-receipt-total-picked');

    // The date: typed, saved 2 s after typing stops
    const date = page.getByTestId('field-issue_date');
    await date.fill('2025-03-04');
    // A bad amount: the server's message shows under the field and the actions are disabled
    const subtotal = page.getByTestId('field-amount_total_base');
    await subtotal.fill('12,5');
    await expect.poll(() => page.getByTestId('error-amount_total_base').innerText(), { timeout: 8000 }).toBe(CONTENT_MSG.amount);
    await expect.poll(() => page.getByRole('button', { name: 'CONFIRM' }).isDisabled()).toBe(true);
    await screenshot(page, 'edit-receipt-bad-amount');
    await expect.poll(async () => findContentItem((await content(ids.first!)).content, 'issue_date')!.content!.value, { timeout: 8000 }).toBe('2025-03-04');
    await subtotal.fill('100.00');
    await expect.poll(() => page.getByTestId('error-amount_total_base').count(), { timeout: 8000 }).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'CONFIRM' }).isEnabled(), { timeout: 8000 }).toBe(true);

    // Notes: typed, stored 2 s after the typing stops (PUT /receipt/{id}/notes), and in the export's Notes
    const notes = page.getByTestId('field-notes').getByLabel('Notes');
    const notesSaved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(`/receipt/${ids.first}/notes`), { timeout: 10_000 });
    await notes.fill('Paid by card; ask for a VAT invoice');
    const notesAnswer = await notesSaved;
    expect(notesAnswer.status()).toBe(200);
    expect(notesAnswer.request().postDataJSON()).toEqual({ notes: 'Paid by card; ask for a VAT invoice' });
    // the box keeps the notes while the document is read again (never the former, empty notes)
    for (let i = 0; i < 10; i++) {
      expect(await notes.inputValue()).toBe('Paid by card; ask for a VAT invoice');
      await page.waitForTimeout(100);
    }
    await notes.scrollIntoViewIfNeeded();
    await screenshot(page, 'edit-receipt-notes');

    // Exported from here, the file has the values on the screen (the date typed), not those of the first load
    await page.getByTestId('export').click();
    const exportModal = page.getByTestId('export-modal');
    await expect.poll(() => exportModal.getByTestId('export-field').count(), { timeout: 8000 }).toBeGreaterThan(0);
    const [csv] = await Promise.all([page.waitForEvent('download'), exportModal.getByRole('button', { name: 'EXPORT' }).click()]);
    const rows = readFileSync(await csv.path()).toString('utf8').replace(/^\ufeff/, '').trim().split(/\r?\n/);
    expect(rows[1]).toContain('2025-03-04');
    expect(rows[0]!.split(',').at(-1)).toBe('NOTES');
    expect(rows[1]).toContain('Paid by card; ask for a VAT invoice');
    await expect.poll(() => exportModal.count()).toBe(0);

    // The help panel documents the keyboard
    await page.getByTestId('tool-help').click();
    await expect.poll(() => page.getByTestId('help-panel').innerText()).toContain('Alt+Enter');
    await screenshot(page, 'edit-receipt-help');
    await page.getByTestId('tool-help').click();

    // Confirm: saved, archived, and on to the next document of the inbox
    await page.getByRole('button', { name: 'CONFIRM' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/edit-receipt/') && !url.pathname.endsWith(ids.first!), { timeout: 15_000 });
    await expect.poll(() => page.getByTestId('ocr-box').count(), { timeout: 10_000 }).toBeGreaterThan(20);
    await expect.poll(() => page.getByTestId('field-document_id').inputValue()).toMatch(/^PP-0012[45]$/);
    // A screen reader hears a required field as required, and not the page's word boxes (a pointer's tool)
    expect(await page.getByTestId('field-document_id').getAttribute('aria-required')).toBe('true');
    expect(await page.getByTestId('field-issue_date').getAttribute('aria-required')).toBeNull();
    expect(await page.locator('.ocr-box:not([aria-hidden="true"])').count()).toBe(0);
    // The inbox walks every status but processing and unassigned: the archived one still counts.
    await expect.poll(() => page.getByTestId('pager-position').innerText()).toMatch(/^\d\/3$/);
    await screenshot(page, 'edit-receipt-next-document');
    const saved = await content(ids.first!);
    expect(findContentItem(saved.content, 'amount_total')!.content!.value).toBe('121.00');
    expect(findContentItem(saved.content, 'amount_total_base')!.content!.value).toBe('100.00');
    expect(saved.read_only).toBe(true);

    // The first document is archived: read-only, no actions; its history shows what was done
    await page.goto(`${e2e.stack.url}/edit-receipt/${ids.first}?company_id=${companyId}`);
    await expect.poll(() => page.getByTestId('field-amount_total').isDisabled()).toBe(true);
    expect(await page.getByTestId('status-actions').getByRole('button').count()).toBe(0);
    expect(await page.getByTestId('field-notes').getByLabel('Notes').inputValue()).toBe('Paid by card; ask for a VAT invoice');
    expect(await page.getByTestId('field-notes').getByLabel('Notes').isDisabled()).toBe(true);
    await page.getByTestId('tool-history').click();
    await expect.poll(() => page.getByTestId('history-entry').count()).toBeGreaterThan(3);
    const history = await page.getByTestId('history-panel').innerText();
    expect(history).toContain('Read Total from the page');
    expect(history).toContain('Edited Issue date');
    // the Subtotal was typed '12,5' (never saved) and back to its stored 100.00: no edit of it
    expect(history).not.toContain('Edited Subtotal');
    expect(history).toContain('Notes changed');
    expect(history).toContain('Moved to archive');
    await screenshot(page, 'edit-receipt-history');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('edits a line-items grid: draws it, adds row lines, assigns columns, applies', async () => {
    const page = await signedInPage();
    await page.goto(`${e2e.stack.url}/edit-receipt/${ids.third}?company_id=${companyId}`);
    await expect.poll(() => page.getByTestId('ocr-box').count()).toBeGreaterThan(20);
    // Focusing a field brings its place on the page into view: the page scrolled to its end, the number at its top
    const pagesPane = page.locator('.er-left');
    await expect.poll(() => pagesPane.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(100);
    await pagesPane.evaluate((el) => (el.scrollTop = el.scrollHeight));
    /** Focuses a field; its one mark on the page must come into the pane's view. */
    const focusAndSeeMark = async (field: string) => {
      await page.getByTestId(field).click();
      await expect.poll(() => page.getByTestId('field-highlight').count()).toBe(1);
      const inView = async () => {
        const [pane, mark] = await Promise.all([pagesPane.boundingBox(), page.getByTestId('field-highlight').boundingBox()]);
        return Boolean(pane && mark && mark.y >= pane.y && mark.y + mark.height <= pane.y + pane.height);
      };
      await expect.poll(inView).toBe(true);
    };
    // (the document opens with the focus on its first field, whose mark shows: another field is focused here)
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-document_id');
    await focusAndSeeMark('field-issue_date');
    await screenshot(page, 'edit-receipt-field-in-view');
    // SHOW KEYS: each field shows the label printed for its value, and the label is marked on the page
    await page.getByRole('button', { name: 'SHOW KEYS' }).click();
    await expect.poll(() => page.getByTestId('field-amount_total').inputValue()).toBe('Total');
    await expect.poll(() => page.getByTestId('field-document_id').inputValue()).toMatch(/^Invoice No/);
    await focusAndSeeMark('field-amount_total');
    await screenshot(page, 'edit-receipt-keys');
    await page.getByRole('button', { name: 'SHOW VALUES' }).click();
    // Between documents and fields without the mouse
    await expect.poll(() => page.getByTestId('pager-position').innerText()).toBe('1/2');
    await page.keyboard.press('Alt+ArrowRight');
    await page.waitForURL(new RegExp(`/edit-receipt/${ids.second}`));
    await expect.poll(() => page.getByTestId('pager-position').innerText()).toBe('2/2');
    await page.keyboard.press('Alt+ArrowLeft');
    await page.waitForURL(new RegExp(`/edit-receipt/${ids.third}`));
    await expect.poll(() => page.getByTestId('ocr-box').count()).toBeGreaterThan(20);
    // The form may still be filling with this document's fields after the switch back: focus and move until it holds.
    await expect
      .poll(async () => {
        await page.getByTestId('field-document_id').focus();
        await page.keyboard.press('Alt+ArrowDown');
        return page.evaluate(() => document.activeElement?.getAttribute('name'));
      })
      .toBe('issue_date');
    await page.getByTestId('grid-edit').click();
    await expect.poll(() => page.getByTestId('grid-tools').count()).toBe(1);

    // Draw the table area
    const from = await pagePoint(page, TABLE.left, TABLE.top - 0.004);
    const to = await pagePoint(page, TABLE.right, TABLE.top + TABLE.rowHeight * 3 - 0.002);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('grid-box').count()).toBe(1);
    // the page stays where it was drawn on (the bar above it keeps its height when its hint changes)
    expect((await pagePoint(page, 0, 0)).y).toBeCloseTo(from.rect.y, 0);

    // Row lines between the three printed rows (click the left ruler)
    const ruler = (await page.getByTestId('grid-ruler-rows').boundingBox())!;
    for (const i of [1, 2]) {
      const p = await pagePoint(page, 0, TABLE.top + i * TABLE.rowHeight - 0.002);
      await page.mouse.click(ruler.x + ruler.width / 2, p.y);
    }
    await expect.poll(() => page.getByTestId('grid-row-line').count()).toBe(2);
    // A click within 6 px of a line removes it; a second click puts it back
    const again = await pagePoint(page, 0, TABLE.top + 2 * TABLE.rowHeight - 0.002);
    await page.mouse.click(ruler.x + ruler.width / 2, again.y + 3);
    await expect.poll(() => page.getByTestId('grid-row-line').count()).toBe(1);
    await page.mouse.click(ruler.x + ruler.width / 2, again.y);
    await expect.poll(() => page.getByTestId('grid-row-line').count()).toBe(2);

    // Column lines (click the top ruler) and the field of each column
    const top = (await page.getByTestId('grid-ruler-columns').boundingBox())!;
    for (const fx of [TABLE.columns.description, TABLE.columns.qty, TABLE.columns.price, TABLE.columns.total]) {
      const p = await pagePoint(page, fx - 0.01, 0);
      await page.mouse.click(p.x, top.y + top.height / 2);
    }
    await expect.poll(() => page.getByTestId('grid-column-line').count()).toBe(4);
    const selects = page.getByTestId('grid-column-select');
    await expect.poll(() => selects.count()).toBe(5);
    const fields = ['item_number', 'description', 'quantity', 'unit_price_without_vat', 'total_price'];
    for (const [i, f] of fields.entries()) await selects.nth(i).selectOption(f);
    await screenshot(page, 'edit-receipt-grid-editing');

    // Apply: the rows become line items
    await page.getByTestId('grid-apply').click();
    await expect.poll(() => page.getByTestId('grid-tools').count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('table-line_items').getByTestId('table-row').count()).toBe(3);
    const c = await content(ids.third!);
    const rows = findContentItem(c.content, 'line_items')!.children.map((r) => Object.fromEntries(r.children.filter((x) => x.content?.value).map((x) => [x.schema_id, x.content!.value])));
    expect(rows).toEqual(SAMPLE_INVOICE.lines.map((l, i) => ({ item_number: String(i + 1), description: l.description, quantity: l.qty, unit_price_without_vat: l.price, total_price: l.total })));
    await page.getByTestId('open-line_items').click();
    await expect.poll(() => page.getByTestId('popup-row').count()).toBe(3);
    // Every column and each row's tools in sight: the grid does not scroll sideways on a wide screen
    const wrap = page.locator('.er-table-wrap');
    expect(await wrap.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(1);
    const deleteRow = page.getByTestId('popup-row').first().getByRole('button', { name: 'Delete row' });
    // (polled: the pop-up grows into place as it opens)
    const deleteOverhang = async () => {
      const [w, d] = [(await wrap.boundingBox())!, (await deleteRow.boundingBox())!];
      return d.x + d.width - (w.x + w.width);
    };
    await expect.poll(deleteOverhang).toBeLessThanOrEqual(1);
    await screenshot(page, 'edit-receipt-line-items');
    await page.keyboard.press('Escape');

    // Rotation in 90° steps
    for (let i = 0; i < 5; i++) await page.getByTestId('tool-rotate').click();
    await expect.poll(() => page.getByTestId('tool-rotate').innerText()).toContain('90°');
    await screenshot(page, 'edit-receipt-rotated');

    // Merge: the panel replaces the form and offers the other documents of the list with their first page
    await page.getByTestId('tool-merge').click();
    await expect.poll(() => page.getByTestId('merge-candidate').count()).toBe(1);
    await expect.poll(() => page.getByTestId('merge-candidate').locator('img').count()).toBe(1);
    expect(await page.getByTestId('field-form').count()).toBe(0);
    await screenshot(page, 'edit-receipt-merge');
    await page.close();
  });

  it('a Lines pop-up of 130 rows draws the rows in view: a value typed in row 120 is saved with one PUT, Tab goes on in the row', async () => {
    const id = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'LONG-1' }), 'long-lines.pdf');
    let c = await content(id);
    while (findContentItem(c.content, 'line_items')!.children.length < 130) {
      const res = await api.post(`/receipts/${id}/content/line_items?${q()}`, { version: c.version, after: null });
      expect(res.status).toBe(201);
      c = res.body as ContentResponse;
    }
    const page = await signedInPage();
    await page.goto(`${e2e.stack.url}/edit-receipt/${id}?company_id=${companyId}`);
    await expect.poll(() => page.getByTestId('field-document_id').inputValue(), { timeout: 15_000 }).toBe('LONG-1');
    await page.getByTestId('tool-line-items').click();
    // the table is of 130 rows (and its head), of which only those in and near the view are drawn
    await expect.poll(() => page.locator('.er-table').getAttribute('aria-rowcount')).toBe('131');
    const drawn = await page.getByTestId('popup-row').count();
    expect(drawn).toBeGreaterThan(5);
    expect(drawn).toBeLessThan(60);
    const wrap = page.locator('.er-table-wrap');
    await wrap.evaluate((el) => {
      el.scrollTop = 116 * 37;
    });
    const cell = page.locator('input[name$=".description"][aria-label$=", row 120"]');
    await expect.poll(() => cell.count()).toBe(1);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes(`/receipts/${id}/content`)) calls.push(`${r.method()} ${new URL(r.url()).pathname.split('/').slice(4).join('/')}`);
    });
    await cell.click();
    await cell.pressSequentially('Row 120 typed');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/, row 120$/);
    await screenshot(page, 'edit-receipt-long-lines');
    const row120 = async () => findContentItem((await content(id)).content, 'line_items')!.children[119]!.children.find((x) => x.schema_id === 'description')?.content?.value;
    await expect.poll(row120, { timeout: 15_000, interval: 500 }).toBe('Row 120 typed');
    // the save is the PUT alone: its answer is the content (no check first, no document read again for it)
    expect(calls).toEqual(['PUT content']);
    // the end of the table comes into view as it scrolls
    await wrap.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect.poll(() => page.locator('input[aria-label$=", row 130"]').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('popup-row').count()).toBeLessThan(60);
    await page.close();
  });

  it('walks a list longer than one page: n/total of the whole list, next and previous across the page boundary', async () => {
    // A company of its own with 52 documents of one status (the list is read 50 at a time)
    const walker = newUser('walker');
    await registerUser(e2e.stack, walker);
    const wapi = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, walker));
    const wcompany = ((await wapi.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    for (let i = 1; i <= 52; i++) {
      const name = `walk-${String(i).padStart(2, '0')}.pdf`;
      const pdf = await invoicePdf({ ...SAMPLE_INVOICE, number: `WALK-${i}` });
      const query = new URLSearchParams({ company_id: wcompany, receipt_type: 'receipt', original_file_name: name, size: String(pdf.length), content_type: 'application/pdf' });
      const { uploadURL, headers } = (await wapi.get(`/upload/document?${query}`)).body as { uploadURL: string; headers: Record<string, string> };
      expect((await fetch(uploadURL, { method: 'PUT', headers, body: Buffer.from(pdf) })).ok).toBe(true);
    }
    await e2e.stack.jobs.idle(120_000);
    type Item = { receipt_id: string; status: string };
    const listOf = async (status: string) => {
      const out: Item[] = [];
      let next: string | undefined;
      do {
        const page = (await wapi.get(`/receipts?${new URLSearchParams({ company_id: wcompany, receipt_status: status, receipt_type: 'receipt', limit: '50', ...(next ? { next } : {}) })}`)).body as { items: Item[]; next?: string | null };
        out.push(...page.items);
        next = page.next ?? undefined;
      } while (next);
      return out;
    };
    const first = ((await wapi.get(`/receipts?company_id=${wcompany}&limit=1`)).body as { items: Item[] }).items[0]!;
    const walk = await listOf(first.status);
    expect(walk).toHaveLength(52);

    const page = await signedInPage(walker);
    const open = async (n: number) => {
      await page.goto(`${e2e.stack.url}/edit-receipt/${walk[n - 1]!.receipt_id}?company_id=${wcompany}`);
      await expect.poll(() => page.getByTestId('receipt-status').count(), { timeout: 15_000 }).toBe(1);
    };
    // The 50th, the last of the first page: 50/52, and next goes on to the second page's first document
    await open(50);
    await expect.poll(() => page.getByTestId('pager-position').innerText(), { timeout: 10_000 }).toBe('50/52');
    await expect.poll(() => page.getByRole('button', { name: 'Next document' }).isEnabled()).toBe(true);
    await screenshot(page, 'edit-receipt-long-list');
    await page.getByRole('button', { name: 'Next document' }).click();
    await page.waitForURL(new RegExp(`/edit-receipt/${walk[50]!.receipt_id}`));
    await expect.poll(() => page.getByTestId('pager-position').innerText(), { timeout: 10_000 }).toBe('51/52');
    await page.getByRole('button', { name: 'Previous document' }).click();
    await page.waitForURL(new RegExp(`/edit-receipt/${walk[49]!.receipt_id}`));
    await expect.poll(() => page.getByTestId('pager-position').innerText(), { timeout: 10_000 }).toBe('50/52');
    // The last document, found on the second page: 52/52, no next
    await open(52);
    await expect.poll(() => page.getByTestId('pager-position').innerText(), { timeout: 10_000 }).toBe('52/52');
    expect(await page.getByRole('button', { name: 'Next document' }).isEnabled()).toBe(false);

    await page.close();

    // The list: Select all takes the 50 rows loaded; the bar under it selects the whole list, its second page read
    const listPage = await signedInPage(walker);
    await listPage.goto(`${e2e.stack.url}/receipts/inbox`);
    const rowsShown = listPage.getByTestId('receipts-table').locator('tbody tr');
    await expect.poll(() => rowsShown.count(), { timeout: 15_000 }).toBe(50);
    await listPage.getByRole('checkbox', { name: 'Select all' }).check({ force: true });
    await expect.poll(() => listPage.getByTestId('selection-count').innerText()).toBe('50 selected');
    await expect.poll(() => listPage.getByTestId('select-all-bar').innerText()).toContain('All 50 documents loaded so far are selected.');
    await screenshot(listPage, 'documents-select-all-offer');
    await listPage.getByTestId('select-whole-list').click();
    await expect.poll(() => listPage.getByTestId('selection-count').innerText(), { timeout: 15_000 }).toBe('52 selected');
    expect(await rowsShown.count()).toBe(52);
    expect(await listPage.getByTestId('select-all-bar').innerText()).toBe('All 52 documents of the list are selected.');
    await screenshot(listPage, 'documents-select-whole-list');
    await listPage.close();
  });

  it('configures the captured fields: Visible and Required, only changes are saved', async () => {
    const page = await signedInPage();
    await page.goto(`${e2e.stack.url}/fields-configuration`);
    await expect.poll(() => page.getByTestId('config-iban').count()).toBe(1);
    const save = page.getByRole('button', { name: 'SAVE' });
    expect(await save.isDisabled()).toBe(true);
    await page.getByRole('switch', { name: 'IBAN visible' }).check({ force: true });
    await page.getByRole('switch', { name: 'IBAN visible' }).uncheck({ force: true });
    await page.getByRole('switch', { name: 'Currency required' }).check({ force: true });
    await page.getByRole('switch', { name: 'Due date required' }).check({ force: true });
    await screenshot(page, 'fields-configuration');
    await save.click();
    type Schema = { fields: { id: string; hidden: boolean; constraints: { required: boolean } }[] };
    await expect.poll(async () => ((await api.get(`/schemas?${q()}`)).body as Schema).fields.find((f) => f.id === 'iban')!.hidden, { timeout: 10_000 }).toBe(true);
    const schema = (await api.get(`/schemas?${q()}`)).body as Schema;
    expect(schema.fields.find((f) => f.id === 'currency')!.constraints.required).toBe(true);
    await expect.poll(() => save.isDisabled()).toBe(true);
    // The edit screen follows: Currency gets its asterisk
    await page.goto(`${e2e.stack.url}/edit-receipt/${ids.second}?company_id=${companyId}`);
    await expect.poll(() => page.getByTestId('er-field-currency').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('er-field-currency').innerText()).toContain('*');
    // Due date, now required and empty, is on Advanced: that tab says it holds a field with a message
    const advancedErrors = page.getByTestId('tab-errors-advanced');
    await expect.poll(() => advancedErrors.count(), { timeout: 15_000 }).toBe(1);
    expect(await advancedErrors.locator('[aria-hidden="true"]').innerText()).toBe('1');
    expect(await page.getByRole('tab', { name: /Advanced/ }).textContent()).toContain('(1 field with a message)');
    await screenshot(page, 'edit-receipt-tab-errors');
    await page.getByRole('tab', { name: /Advanced/ }).click();
    await expect.poll(() => page.getByTestId('er-field-due_date').innerText()).toContain('Required field');
    // A page that could not be rendered shows the cover text (the answer is changed in the browser here)
    await page.route(new RegExp(`/api/receipts/${ids.second}\\?`), async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { pages: { url: string | null; status: string }[] };
      body.pages = body.pages.map((p) => ({ ...p, url: null, status: 'not_processed' }));
      await route.fulfill({ response: res, json: body });
    });
    await page.reload();
    await expect.poll(() => page.getByTestId('page-not-processed').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('page-not-processed').innerText()).toBe('The page was not processed');
    await screenshot(page, 'edit-receipt-page-not-processed');
    // Due date back to not required, as the later tests expect
    await page.unroute(new RegExp(`/api/receipts/${ids.second}\\?`));
    await page.goto(`${e2e.stack.url}/fields-configuration`);
    await page.getByRole('switch', { name: 'Due date required' }).uncheck({ force: true });
    await page.getByRole('button', { name: 'SAVE' }).click();
    await expect
      .poll(async () => ((await api.get(`/schemas?${q()}`)).body as Schema).fields.find((f) => f.id === 'due_date')!.constraints.required, { timeout: 10_000 })
      .toBe(false);
    await page.close();
  });
  it('Delete sends the version on screen: the document is deleted, and one a colleague changed meanwhile would be refused', async () => {
    const id = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'DEL-1' }), 'to-delete.pdf');
    const c = await content(id);
    const page = await signedInPage();
    const deletes: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'DELETE' && r.url().includes(`/receipt/${id}`)) deletes.push(r.url());
    });
    // the screen moves on without reading the deleted document again (it would answer 404)
    const readAfter: string[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'GET' && r.url().includes(`/receipts/${id}`) && r.status() === 404) readAfter.push(r.url());
    });
    await page.goto(`${e2e.stack.url}/edit-receipt/${id}?company_id=${companyId}`);
    await expect.poll(() => page.getByTestId('delete').isEnabled(), { timeout: 15_000 }).toBe(true);
    // The server refuses a stale version (the check the screen relies on)
    expect((await api.delete(`/receipt/${id}?${q()}&version=${c.version - 1}`)).status).toBe(409);
    await page.getByTestId('delete').click();
    await page.getByTestId('delete-confirm').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => deletes.length, { timeout: 10_000 }).toBe(1);
    expect(new URL(deletes[0]!).searchParams.get('version')).toBe(String(c.version));
    await expect.poll(async () => (await api.get(`/receipts/${id}?${q()}`)).status, { timeout: 10_000 }).toBe(404);
    await expect.poll(() => page.url(), { timeout: 10_000 }).not.toContain(id);
    await expect.poll(() => page.getByText('Document deleted').count()).toBe(1);
    // the live channel's echo of the delete has come too by now
    await page.waitForTimeout(1500);
    expect(readAfter.join(' ')).toBe('');
    await page.close();
  });

  it('Merge asks once more, naming the document it removes: Cancel keeps both, Merge adds its page and removes it', async () => {
    const host = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'MRG-1' }), 'merge-host.pdf');
    const other = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'MRG-2' }), 'merge-other.pdf');
    const page = await signedInPage();
    await page.goto(`${e2e.stack.url}/edit-receipt/${host}?company_id=${companyId}`);
    await expect.poll(() => page.getByTestId('field-document_id').inputValue(), { timeout: 15_000 }).toBe('MRG-1');
    await page.getByTestId('tool-merge').click();
    const mergeOther = page.getByRole('button', { name: 'Merge merge-other.pdf' });
    await expect.poll(() => mergeOther.count(), { timeout: 10_000 }).toBe(1);
    await mergeOther.click();
    const dialog = page.getByTestId('merge-confirm-modal');
    await expect.poll(() => dialog.innerText()).toContain("Add the pages of merge-other.pdf after this document's pages? merge-other.pdf is then removed.");
    await screenshot(page, 'edit-receipt-merge-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect((await api.get(`/receipts/${other}?${q()}`)).status).toBe(200);
    await mergeOther.click();
    await dialog.getByRole('button', { name: 'Merge' }).click();
    await expect.poll(() => page.getByText('Documents merged').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => dialog.count()).toBe(0);
    expect((await api.get(`/receipts/${other}?${q()}`)).status).toBe(404);
    await expect.poll(async () => ((await api.get(`/receipts/${host}?${q()}`)).body as { page_count: number }).page_count, { timeout: 15_000 }).toBe(2);
    await page.close();
  });

  it('CONFIRM saves what was typed first, also after a colleague saved another field; a value that cannot be saved confirms nothing', async () => {
    const id = await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: 'PP-00126' }), 'fourth.pdf');
    let c = await content(id);
    const ready = [
      { id: 'document_id', value: 'PP-00126' },
      { id: 'supplier_name', value: SAMPLE_INVOICE.supplier },
      { id: 'currency', value: 'EUR' },
    ];
    expect((await api.put(`/receipts/${id}/content?${q()}`, { version: c.version, items: ready })).status).toBe(200);
    const page = await signedInPage();
    await page.goto(`${e2e.stack.url}/edit-receipt/${id}?company_id=${companyId}`);
    const confirm = page.getByRole('button', { name: 'CONFIRM' });
    await expect.poll(() => confirm.isEnabled(), { timeout: 15_000 }).toBe(true);
    const statusOf = async () => ((await api.get(`/receipts/${id}?${q()}`)).body as { status: string }).status;
    const before = await statusOf();

    // The save fails (the API answers 503 to it): nothing is confirmed, the typed value stays on screen
    const contentCall = new RegExp(`/api/receipts/${id}/content\\?`);
    await page.route(contentCall, (route) =>
      route.request().method() === 'PUT' ? route.fulfill({ status: 503, json: { statusCode: 503, error: 'ServiceUnavailable', message: 'Service Unavailable' } }) : route.continue(),
    );
    await page.getByTestId('field-document_id').fill('PP-00126-A');
    await confirm.click();
    await expect.poll(() => page.getByText(UNSAVED_CHANGES).count(), { timeout: 10_000 }).toBe(1);
    await screenshot(page, 'edit-receipt-unsaved');
    expect(await statusOf()).toBe(before);
    expect(findContentItem((await content(id)).content, 'document_id')!.content!.value).toBe('PP-00126');
    expect(await page.getByTestId('field-document_id').inputValue()).toBe('PP-00126-A');
    await page.unroute(contentCall);

    // A colleague saves another field meanwhile; CONFIRM keeps both: theirs and the typed number
    c = await content(id);
    expect((await api.put(`/receipts/${id}/content?${q()}`, { version: c.version, items: [{ id: 'amount_total_base', value: '100.00' }] })).status).toBe(200);
    await confirm.click();
    await page.waitForURL((url) => !url.pathname.endsWith(id), { timeout: 15_000 });
    const saved = await content(id);
    expect(findContentItem(saved.content, 'document_id')!.content!.value).toBe('PP-00126-A');
    expect(findContentItem(saved.content, 'amount_total_base')!.content!.value).toBe('100.00');
    expect(saved.read_only).toBe(true);
    await page.close();
  });
});

