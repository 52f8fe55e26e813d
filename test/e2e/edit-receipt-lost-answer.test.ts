import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResponse } from '../../shared/schemas/content';
import { RESULT_UNKNOWN_MESSAGE } from '../../web/src/lib/api-error';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from '../integration/content-fixtures';
import { recordPopups, screenshot, signInOn } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { findContentItem } from '../support/content-items';
import { useBrowserStack } from '../support/e2e-stack';

const SOMEONE_ELSE = 'changed by someone else';

/**
 * A flaky network (a train, a hotel Wi-Fi): the autosave reaches the server and is applied, but its answer is lost
 * (a connection reset, the gateway's 504). The retry meets the user's own save, not a colleague's: nothing typed
 * meanwhile is lost and no colleague is blamed.
 */
describe('a write whose answer is lost, in Chromium: the edit screen and the profile', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  const ids: string[] = [];
  const user = newUser('lostanswer');
  const q = () => `company_id=${companyId}`;
  const stored = async (id: string) => (await api.get(`/receipts/${id}/content?${q()}`)).body as ContentResponse;
  const storedValue = async (id: string, field = 'document_id') => findContentItem((await stored(id)).content, field)?.content?.value;

  const e2e = useBrowserStack('lost-answer');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    for (const n of [1, 2, 3, 4]) ids.push(await uploadDocument(e2e.stack, api, companyId, await invoicePdf({ ...SAMPLE_INVOICE, number: `LA-${n}` }), `lost-${n}.pdf`));
  });

  /** Signed in, on the document, every info pop-up shown recorded (they go after 3 s). */
  async function onDocument(id: string): Promise<{ context: BrowserContext; page: Page; popups: () => Promise<string[]> }> {
    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 950 } });
    const popupsOf = await recordPopups(context);
    const page = await context.newPage();
    await signInOn(page, e2e.stack.url, user);
    await page.goto(`${e2e.stack.url}/edit-receipt/${id}?company_id=${companyId}`);
    await expect.poll(() => page.getByTestId('field-document_id').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('field-document_id').isEnabled()).toBe(true);
    return { context, page, popups: () => popupsOf(page) };
  }

  /** The first PUT …/content reaches the server; its answer is then lost (`lose`). */
  async function loseFirstSave(page: Page, id: string, lose: 'reset' | '504') {
    const state = { puts: 0, landed: false };
    await page.route(new RegExp(`/api/receipts/${id}/content\\?`), async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      state.puts++;
      if (state.puts > 1) return route.continue();
      const answer = await route.fetch();
      expect(answer.status()).toBe(200);
      state.landed = true;
      if (lose === 'reset') return route.abort('connectionreset');
      return route.fulfill({ status: 504, contentType: 'application/json', body: '{"message":"Endpoint request timed out"}' });
    });
    return state;
  }

  it('the retry of a save whose answer was lost keeps what was typed meanwhile in the same field and blames no colleague', async () => {
    const id = ids[0]!;
    const { context, page, popups } = await onDocument(id);
    const state = await loseFirstSave(page, id, 'reset');
    const field = page.getByTestId('field-document_id');
    await field.fill('LA-1-A');
    // the save goes, is applied, and its answer is lost
    await expect.poll(() => state.landed, { timeout: 10_000 }).toBe(true);
    expect(await storedValue(id)).toBe('LA-1-A');
    // the user types on in the same field before the retry
    await field.click();
    await page.keyboard.press('End');
    await page.keyboard.type('B');
    expect(await field.inputValue()).toBe('LA-1-AB');

    // the retry (on the version the lost save had) meets our own save: the longer value is saved on the fresh one
    await expect.poll(() => storedValue(id), { timeout: 40_000, interval: 1000 }).toBe('LA-1-AB');
    await expect.poll(() => page.locator('.er-saving').count(), { timeout: 10_000 }).toBe(0);
    expect(await field.inputValue()).toBe('LA-1-AB');
    expect(state.puts).toBeGreaterThan(1);
    expect((await popups()).filter((t) => t.includes(SOMEONE_ELSE))).toEqual([]);
    await screenshot(page, 'edit-receipt-lost-answer-typed-on');
    await context.close();
  });

  it('a save answered by the gateway timeout after it was done: the retry keeps the values, saves them once and says no colleague changed them', async () => {
    const id = ids[1]!;
    const { context, page, popups } = await onDocument(id);
    const before = (await stored(id)).version;
    const state = await loseFirstSave(page, id, '504');
    await page.getByTestId('field-document_id').fill('LA-2-SAVED');
    await expect.poll(() => state.landed, { timeout: 10_000 }).toBe(true);
    // the gateway's own text is not shown; the screen says the result is not known
    await expect.poll(popups, { timeout: 10_000 }).toContain(RESULT_UNKNOWN_MESSAGE);
    await expect.poll(() => page.locator('.er-saving').count(), { timeout: 30_000 }).toBe(0);
    expect(await page.getByTestId('field-document_id').inputValue()).toBe('LA-2-SAVED');
    expect(await storedValue(id)).toBe('LA-2-SAVED');
    // applied once: the version moved by one save
    expect((await stored(id)).version).toBe(before + 1);
    const shown = await popups();
    expect(shown.filter((t) => t.includes(SOMEONE_ELSE))).toEqual([]);
    expect(shown.filter((t) => t.includes('Endpoint request timed out'))).toEqual([]);
    await context.close();
  });

  it("a colleague's save of another field meets the autosave (409): the typed value is saved again by itself on their version, theirs shown, nobody blamed", async () => {
    const id = ids[3]!;
    const { context, page, popups } = await onDocument(id);
    // The first autosave is held until the colleague's save is in: it then meets their newer version.
    const state = { puts: 0, refused: false };
    await page.route(new RegExp(`/api/receipts/${id}/content\\?`), async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      state.puts++;
      if (state.puts > 1) return route.continue();
      const read = await stored(id);
      const colleague = await api.put(`/receipts/${id}/content?${q()}`, { version: read.version, items: [{ id: 'currency', value: 'USD' }] });
      expect(colleague.status).toBe(200);
      const answer = await route.fetch();
      state.refused = answer.status() === 409;
      return route.fulfill({ response: answer });
    });
    await page.getByTestId('field-document_id').fill('LA-4-TYPED');
    await expect.poll(() => state.refused, { timeout: 10_000 }).toBe(true);
    // saved again without another keystroke, on the colleague's version, which keeps their value
    await expect.poll(() => storedValue(id), { timeout: 20_000, interval: 500 }).toBe('LA-4-TYPED');
    expect(await storedValue(id, 'currency')).toBe('USD');
    await expect.poll(() => page.getByTestId('field-currency').inputValue(), { timeout: 10_000 }).toBe('USD');
    await expect.poll(() => page.locator('.er-saving').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.getByTestId('field-document_id').inputValue()).toBe('LA-4-TYPED');
    expect(state.puts).toBe(2);
    // nothing typed here was lost, so no colleague is said to have changed it
    expect((await popups()).filter((t) => t.includes(SOMEONE_ELSE))).toEqual([]);
    await context.close();
  });

  it('CONFIRM whose answer the gateway lost says the result is not known and reads the document again: it shows as confirmed', async () => {
    const id = ids[2]!;
    const c = (await stored(id)).version;
    const ready = [
      { id: 'document_id', value: 'LA-3' },
      { id: 'supplier_name', value: SAMPLE_INVOICE.supplier },
      { id: 'currency', value: 'EUR' },
    ];
    expect((await api.put(`/receipts/${id}/content?${q()}`, { version: c, items: ready })).status).toBe(200);
    const { context, page, popups } = await onDocument(id);
    // no live updates on this page: what the screen shows after the lost answer is what it read again itself
    await page.routeWebSocket(/./, () => undefined);
    await page.reload();
    const confirm = page.getByRole('button', { name: 'CONFIRM' });
    await expect.poll(() => confirm.isEnabled(), { timeout: 15_000 }).toBe(true);
    let answered = 0;
    await page.route(new RegExp(`/api/receipt/${id}\\?`), async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      answered = (await route.fetch()).status();
      return route.fulfill({ status: 504, contentType: 'application/json', body: '{"message":"Endpoint request timed out"}' });
    });
    await confirm.click();
    await expect.poll(popups, { timeout: 10_000 }).toContain(RESULT_UNKNOWN_MESSAGE);
    expect(answered).toBe(200);
    // read again: the confirmed document is read-only, and the user is not invited to confirm it twice
    await expect.poll(() => page.getByTestId('field-document_id').isDisabled(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole('button', { name: 'CONFIRM' }).count()).toBe(0);
    expect((await popups()).filter((t) => t.includes('Endpoint request timed out'))).toEqual([]);
    await context.close();
  });

  it('a profile save whose answer the gateway lost says the result is not known; the profile read again shows it saved', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 950 } });
    const page = await context.newPage();
    await signInOn(page, e2e.stack.url, user);
    await page.goto(`${e2e.stack.url}/my-profile`);
    const form = page.getByTestId('profile-form');
    const name = form.locator('input[name="name"]');
    await expect.poll(() => name.count(), { timeout: 15_000 }).toBe(1);
    let answered = 0;
    await page.route(/\/api\/user(\?|$)/, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      answered = (await route.fetch()).status();
      return route.fulfill({ status: 504, contentType: 'application/json', body: '{"message":"Endpoint request timed out"}' });
    });
    await name.fill('Lostanswer');
    await form.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => page.getByText(RESULT_UNKNOWN_MESSAGE).count(), { timeout: 10_000 }).toBe(1);
    expect(answered).toBe(200);
    // the profile read again holds the typed name: nothing is left to save
    await expect.poll(() => form.getByRole('button', { name: 'SAVE' }).count(), { timeout: 10_000 }).toBe(0);
    expect(await name.inputValue()).toBe('Lostanswer');
    expect(await page.getByText('Endpoint request timed out').count()).toBe(0);
    await context.close();
  });
});
