import { describe, expect, it } from 'vitest';
import { screenshot, signInPage } from '../support/browser';
import { registeredUser } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 20_000 };
const LAPTOP = { width: 1366, height: 768 };
const TAKEN = 'You already have a company with this code';

/** ADD COMPANY of the company the sign-up created: refused on the name field, no second card. */
describe('ADD COMPANY in Chromium: a code the user already has', () => {

  const e2e = useBrowserStack('add-company');

  it('shows the refusal under the company name and adds no second card', async () => {
    const { user, api } = await registeredUser(e2e.stack, 'addco');
    const page = await signInPage(e2e.browser, e2e.stack.url, user, LAPTOP);
    await page.getByRole('button', { name: 'ADD COMPANY' }).click();
    const modal = page.getByTestId('add-company-modal');
    await modal.waitFor(WAIT);
    await modal.getByRole('textbox', { name: 'Company name', exact: true }).fill(user.company);
    // the sign-up's code, spelled with other spaces and case
    await modal.getByRole('textbox', { name: 'Company code', exact: true }).fill(` ${user.company_code.slice(0, 3)} ${user.company_code.slice(3)} `);
    await modal.getByRole('button', { name: 'ADD', exact: true }).click();

    const error = modal.getByTestId('error-company_name');
    await error.waitFor(WAIT);
    expect(await error.innerText()).toBe(TAKEN);
    // under the name field, and the name field says so to a screen reader
    const name = modal.getByRole('textbox', { name: 'Company name', exact: true });
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    expect(await modal.getByTestId('error-code').count()).toBe(0);
    await screenshot(page, 'add-company-code-taken');
    expect(((await api.get('/companies')).body as { items: unknown[] }).items).toHaveLength(1);

    // another code is added
    await modal.getByRole('textbox', { name: 'Company code', exact: true }).fill('305999888');
    await modal.getByRole('button', { name: 'ADD', exact: true }).click();
    await expect.poll(() => page.getByText(`${user.company} has been added.`).count(), WAIT).toBeGreaterThan(0);
    expect(((await api.get('/companies')).body as { items: unknown[] }).items).toHaveLength(2);
  });

  it('Settings refuses a company code over 80 characters with its message, not by cutting what was typed', async () => {
    const { user, api } = await registeredUser(e2e.stack, 'setco');
    const page = await signInPage(e2e.browser, e2e.stack.url, user, LAPTOP);
    await page.goto(`${e2e.stack.url}/settings`);
    const form = page.getByTestId('settings-company-form');
    const code = form.getByRole('textbox', { name: 'Company code', exact: true });
    await code.waitFor(WAIT);
    await code.fill('9'.repeat(90));
    expect(await code.inputValue()).toHaveLength(90);
    await form.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => form.getByText('At most 80 characters').count(), WAIT).toBe(1);
    await screenshot(page, 'settings-company-code-too-long');
    const companies = ((await api.get('/companies')).body as { items: { code: string }[] }).items;
    expect(companies[0]!.code).toBe(user.company_code);
    await page.close();
  });
});
