import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATIONS_TODAY } from '../../lambdas/core/team/invitations';
import { deps } from '../../lambdas/runtime/deps';
import { registerUser } from '../../scripts/local/seed';
import { startLocalStack, type LocalStack } from '../../scripts/local/stack';
import { INVITATIONS_PER_DAY } from '../../shared/constants';
import { launchBrowser, screenshot, signInPage } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';

const WAIT = { timeout: 20_000 };

/**
 * The day's invitations spent: the Add-user pop-up says so under the e-mail field and stays on its details, with
 * what was typed (docs/decisions.md "At most 100 invitations a company mails in a UTC day").
 */
describe("the Add-user pop-up when the company's invitations of the day are spent, in Chromium", () => {
  let stack: LocalStack;
  let browser: Browser;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'receipts-invite-cap-e2e-'));
  const admin = newUser('invitecap');

  beforeAll(async () => {
    stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined });
    await registerUser(stack, admin);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the refusal under the e-mail, keeps the values, mails nothing', async () => {
    const api = apiClient(stack.apiUrl, await signIn(stack, admin));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // The day's invitations, as if sent (T13 up to the cap).
    const day = new Date().toISOString().slice(0, 10);
    while (await deps().team.countInvitationMailed(companyId, day, INVITATIONS_PER_DAY));
    const mailsBefore = stack.mail.messages().length;

    const page = await signInPage(browser, stack.url, admin);
    await page.goto(`${stack.url}/my-team`);
    await page.getByRole('button', { name: 'ADD A USER' }).click(WAIT);
    const popup = page.getByTestId('add-user-modal');
    await popup.locator('input[name="name"]').fill('Rasa');
    await popup.locator('input[name="surname"]').fill('Kolegė');
    await popup.locator('input[name="email"]').fill('rasa.capped@example.com');
    await popup.getByRole('button', { name: 'SEND INVITATION' }).click();
    await expect.poll(() => popup.getByText(INVITATIONS_TODAY).count(), WAIT).toBe(1);
    await screenshot(page, 'invite-cap');
    expect(await popup.getByTestId('invite-sent').count()).toBe(0);
    expect(await popup.locator('input[name="email"]').inputValue()).toBe('rasa.capped@example.com');
    // The message is the e-mail field's own error, as its other refusals are.
    const described = await popup.locator('input[name="email"]').getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(await page.locator(`[id="${described!.split(' ')[0]}"]`).innerText()).toContain('Try again tomorrow.');
    expect(stack.mail.messages().length).toBe(mailsBefore);
    await page.close();
  });
});
