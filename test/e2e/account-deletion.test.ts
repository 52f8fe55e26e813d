import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MSG, ownsSharedCompaniesMessage } from '../../shared/schemas/user';
import { recordPopups, screenshot, signInOn, signInPage } from '../support/browser';
import { addMembership, registeredUser, signIn, subOf } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

/** How long a screen may take to show what the server answered (handlers load on first use). */
const WAIT = { timeout: 20_000 };

const EXPLANATION =
  'Deleting your account removes your sign-in, your profile, the companies where you are the only member (with their documents and master data) and your membership of other companies. Documents you added to other companies stay with those companies.';

/** My Profile → DELETE ACCOUNT: the pop-up, open. */
async function openDeleteAccount(page: Page, appUrl: string, shot?: string) {
  await page.goto(`${appUrl}/my-profile`);
  const section = page.getByTestId('delete-account-section');
  await section.waitFor(WAIT);
  expect(await section.getByRole('heading', { name: 'Delete account' }).count()).toBe(1);
  expect(await section.innerText()).toContain(EXPLANATION);
  if (shot) await screenshot(page, shot);
  await section.getByRole('button', { name: 'DELETE ACCOUNT' }).click();
  const modal = page.getByTestId('delete-account-modal');
  await modal.waitFor(WAIT);
  expect(await modal.getByRole('heading', { name: 'Delete account' }).count()).toBe(1);
  expect(await modal.innerText()).toContain(EXPLANATION);
  return modal;
}

/** The session's tokens in the page's storage (Amplify keeps them in localStorage). */
const cognitoKeys = (page: Page) =>
  page.evaluate(() => Object.keys(window.localStorage).filter((k) => k.startsWith('CognitoIdentityServiceProvider.') && /\.(accessToken|idToken|refreshToken)$/.test(k)));

describe('My Profile: Delete account, in Chromium', () => {

  const e2e = useBrowserStack('account-deletion');

  it('deletes a new user’s account once their email is typed again: the sign-in screen says so and the sign-in is gone', async () => {
    // Prepare: a freshly signed-up user, the only member of their own company
    const { user, api } = await registeredUser(e2e.stack, 'leaver');
    // The API refuses another address (422 about the email), and deletes nothing
    const wrong = await api.raw('DELETE', '/user', JSON.stringify({ email: `not.${user.email}` }));
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(wrong.body)).toContain(ACCOUNT_MSG.confirmEmail);
    expect((await api.get('/user')).status).toBe(200);

    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 950 } });
    const popups = await recordPopups(context);
    const page = await signInOn(await context.newPage(), e2e.stack.url, user);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const modal = await openDeleteAccount(page, e2e.stack.url, 'account-delete-section');
    const field = modal.getByLabel('Type your email address to confirm');
    const confirm = modal.getByRole('button', { name: 'DELETE ACCOUNT' });

    // Act: nothing typed, then another address: DELETE ACCOUNT stays off and the field says what to type
    expect(await confirm.isDisabled()).toBe(true);
    await field.fill(`not.${user.email}`);
    await field.press('Tab');
    await expect.poll(() => modal.getByTestId('error-email').innerText()).toBe(ACCOUNT_MSG.confirmEmail);
    expect(await confirm.isDisabled()).toBe(true);
    // CANCEL closes it and nothing happened
    await modal.getByRole('button', { name: 'CANCEL' }).click();
    await expect.poll(() => modal.count()).toBe(0);

    // Act: the account's address, typed in other letters' case and with spaces around it
    const again = await openDeleteAccount(page, e2e.stack.url);
    await again.getByLabel('Type your email address to confirm').fill(`  ${user.email.toUpperCase()} `);
    const deleteButton = again.getByRole('button', { name: 'DELETE ACCOUNT' });
    expect(await deleteButton.isDisabled()).toBe(false);
    expect(await again.getByTestId('error-email').count()).toBe(0);
    await screenshot(page, 'account-delete-modal');
    await deleteButton.click();

    // Assess: signed out, on the sign-in screen with the message, no tokens left in the browser
    await page.waitForURL(/\/signin$/, WAIT);
    const notice = page.getByTestId('signin-notice');
    await notice.waitFor(WAIT);
    expect(await notice.innerText()).toBe(ACCOUNT_MSG.deleted);
    expect(await cognitoKeys(page)).toEqual([]);
    // the live channel's news of the company deleted with the account is none to the user who deleted it
    expect((await popups(page)).filter((t) => t.includes('no longer have access'))).toEqual([]);
    await screenshot(page, 'account-deleted-signin');

    // Assess: the same credentials no longer sign in
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await expect.poll(() => page.getByTestId('error-password').count(), WAIT).toBe(1);
    expect(await page.getByTestId('error-password').innerText()).toBe('Incorrect email or password');
    expect(new URL(page.url()).pathname).toBe('/signin');
    await expect(signIn(e2e.stack, user)).rejects.toThrow();
    await screenshot(page, 'account-deleted-signin-again');

    // A reload of the sign-in screen no longer says it (the message was for the moment of deletion)
    await page.reload();
    await page.locator('input[name="email"]').waitFor(WAIT);
    expect(await page.getByTestId('signin-notice').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses while the user owns a company with another member: the reason in the pop-up, the account kept', async () => {
    // Prepare: the owner's company has a second member
    const owner = await registeredUser(e2e.stack, 'keeper');
    const member = await registeredUser(e2e.stack, 'colleague');
    await addMembership(subOf(member.token), owner.companyId, 'basic');
    const companyName = ((await owner.api.get('/companies')).body as { items: { company_id: string; name: string }[] }).items.find(
      (c) => c.company_id === owner.companyId,
    )!.name;

    const page = await signInPage(e2e.browser, e2e.stack.url, owner.user);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const modal = await openDeleteAccount(page, e2e.stack.url);

    // Act
    await modal.getByLabel('Type your email address to confirm').fill(owner.user.email);
    await modal.getByRole('button', { name: 'DELETE ACCOUNT' }).click();

    // Assess: the API's reason in the pop-up, which stays open on My Profile
    const alert = modal.getByTestId('delete-account-error');
    await alert.waitFor(WAIT);
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.innerText()).toBe(ownsSharedCompaniesMessage([companyName]));
    expect(await modal.count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/my-profile');
    await screenshot(page, 'account-delete-refused');

    // Assess: the account, its company and its sign-in are all there
    expect((await owner.api.get('/user')).status).toBe(200);
    const companies = (await owner.api.get('/companies')).body as { items: { company_id: string }[] };
    expect(companies.items.map((c) => c.company_id)).toContain(owner.companyId);
    expect(await signIn(e2e.stack, owner.user)).toBeTruthy();
    expect(await cognitoKeys(page)).not.toEqual([]);

    await modal.getByRole('button', { name: 'CANCEL' }).click();
    await expect.poll(() => modal.count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
