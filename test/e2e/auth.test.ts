import { describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, signInOn, signInPage } from '../support/browser';
import { useBrowserStack } from '../support/e2e-stack';
import { apiClient, newUser, signIn } from '../support/local-stack';

describe('sign-up to dashboard in Chromium', () => {
  const codes: Record<string, string> = {};

  const e2e = useBrowserStack('auth', { onCode: ({ email, code }) => (codes[email] = code) });

  it('signs up, confirms with the emailed code, signs in and sees the dashboard', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const email = `e2e${Date.now()}@example.com`;
    const password = 'Browser123';

    // Unknown signed-out paths go to /signin
    await page.goto(`${e2e.stack.url}/no/such/page`);
    await page.waitForURL(/\/signin$/);

    // Sign-up form, first with the spec's validation messages
    await page.goto(`${e2e.stack.url}/signup`);
    await page.getByRole('button', { name: 'REGISTER' }).click();
    await expect.poll(() => page.getByText('Required field').count()).toBeGreaterThan(3);
    await page.locator('input[name="name"]').fill('Eglė');
    await page.locator('input[name="surname"]').fill('Browser');
    await page.locator('input[name="company"]').fill('Chromium UAB');
    await page.locator('input[name="company_code"]').fill('301234567');
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill('short');
    await page.locator('input[name="passwordRepeat"]').fill('different');
    await page.locator('input[name="acceptTerms"]').check();
    await page.getByRole('button', { name: 'REGISTER' }).click();
    await expect.poll(() => page.getByText('Password is too short - should be at least 8 chars').count()).toBe(1);
    await expect.poll(() => page.getByText('Both passwords need to be the same').count()).toBe(1);
    await screenshot(page, 'e2e-signup-errors');
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="passwordRepeat"]').fill(password);
    await page.getByRole('button', { name: 'REGISTER' }).click();

    // Confirmation with the code the local Cognito printed
    await page.waitForURL(/\/signup\/confirm/);
    await expect.poll(() => codes[email]).toMatch(/^\d{6}$/);
    await page.locator('input[name="code"]').fill('000');
    await page.getByRole('button', { name: 'CONFIRM' }).click();
    await expect.poll(() => page.getByText('Code must be at least 4 characters').count()).toBe(1);
    await page.locator('input[name="code"]').fill('999999' === codes[email] ? '111111' : '999999');
    await page.getByRole('button', { name: 'CONFIRM' }).click();
    await expect.poll(() => page.getByText('Invalid code!').count()).toBe(1);
    await screenshot(page, 'e2e-confirm-invalid');
    // A new code: the refusal of the old one goes with it
    const firstCode = codes[email];
    await page.getByRole('button', { name: 'Send the code again' }).click();
    await expect.poll(() => page.getByText('We have sent a new confirmation code to your email.').count()).toBe(1);
    await expect.poll(() => codes[email]).not.toBe(firstCode);
    expect(await page.getByText('Invalid code!').count()).toBe(0);
    await page.locator('input[name="code"]').fill(codes[email]!);
    await page.getByRole('button', { name: 'CONFIRM' }).click();

    // Signed in after confirmation: the dashboard with the company made by the trigger
    await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
    const card = page.getByTestId('company-card');
    await expect.poll(() => card.count()).toBe(1);
    await expect.poll(() => card.first().innerText()).toContain('Chromium UAB');
    await expect.poll(() => page.locator('header').innerText()).toContain('Chromium UAB - Eglė Browser');
    await screenshot(page, 'e2e-dashboard');

    // Sign out from another screen, then sign in again with the form: a sign-out leaves its place behind, so the
    // next sign-in (maybe someone else's on this browser) starts at the dashboard
    await page.getByRole('link', { name: 'My Profile' }).click();
    await page.waitForURL(/\/my-profile$/);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/signin/);
    await page.locator('input[name="email"]').fill(email);
    // A password that breaks the rules of rules.md section 5 is refused before the identity provider is asked
    await page.locator('input[name="password"]').fill('short');
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await expect.poll(() => page.getByText('Password must be at least 8 characters').count()).toBe(1);
    await screenshot(page, 'e2e-signin-short-password');
    await page.locator('input[name="password"]').fill('WrongPass1');
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await expect.poll(() => page.getByText('Incorrect email or password').count()).toBe(1);
    await page.locator('input[name="password"]').fill(password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL(/\/dashboard$/);
    await expect.poll(() => card.count()).toBe(1);

    // Signed-in unknown paths go to the dashboard
    await page.goto(`${e2e.stack.url}/unknown/path`);
    await page.waitForURL(/\/dashboard$/);
    await screenshot(page, 'e2e-dashboard-after-signin');

    // Two tabs share the session: a sign-out in one ends it in the other too, which drops what it showed
    const second = await context.newPage();
    await second.goto(`${e2e.stack.url}/dashboard`);
    await expect.poll(() => second.getByTestId('company-card').count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/signin/);
    await second.waitForURL(/\/signin/, { timeout: 10_000 });
    expect(await second.getByTestId('company-card').count()).toBe(0);
    await second.close();
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL(/\/dashboard$/);

    // A session that ended on the server (the API answers 401): the pop-up's RECONNECT signs out, and signing in
    // again returns to the page the user was on
    await page.route(/\/stakeholders\?/, (route) => route.fulfill({ status: 401, json: { statusCode: 401, message: 'Unauthorized' } }), { times: 1 });
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).click();
    await page.waitForURL(/\/suppliers$/);
    await expect.poll(() => page.getByText('Your previous session has expired.').count(), { timeout: 10_000 }).toBe(1);
    await screenshot(page, 'e2e-session-expired');
    await page.getByRole('button', { name: 'RECONNECT' }).click();
    await page.waitForURL(/\/signin$/);
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill(password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL(/\/suppliers$/);

    // A password change ends the user's other sessions (another browser's refresh token no longer works: it is
    // signed out when its access token runs out) and keeps this one without a new sign-in.
    const elsewhere = await e2e.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const other = await elsewhere.newPage();
    await other.goto(`${e2e.stack.url}/signin`);
    await other.locator('input[name="email"]').fill(email);
    await other.locator('input[name="password"]').fill(password);
    await other.getByRole('button', { name: 'LOG IN' }).click();
    await other.waitForURL(/\/dashboard$/);
    const refreshWorks = (target: typeof page) =>
      target.evaluate(async (cognito) => {
        const [key, token] = Object.entries(localStorage).find(([k]) => k.endsWith('.refreshToken')) ?? [];
        if (!key || !token) return 'no token';
        const res = await fetch(cognito, {
          method: 'POST',
          headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
          body: JSON.stringify({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: key.split('.')[1], AuthParameters: { REFRESH_TOKEN: token } }),
        });
        return res.ok ? 'ok' : ((await res.json()) as { __type?: string }).__type ?? String(res.status);
      }, e2e.stack.cognitoEndpoint);
    expect(await refreshWorks(other)).toBe('ok');
    // Another tab of this browser shares the session that the password change renews: it stays signed in.
    const sameBrowser = await context.newPage();
    await sameBrowser.goto(`${e2e.stack.url}/dashboard`);
    await expect.poll(() => sameBrowser.getByTestId('company-card').count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole('link', { name: 'My Profile' }).click();
    await page.waitForURL(/\/my-profile$/);
    await page.getByRole('button', { name: 'Change Password' }).click();
    const modal = page.getByTestId('change-password-modal');
    await modal.locator('input[autocomplete="current-password"]').fill(password);
    const newPassword = 'Browser456';
    await modal.locator('input[autocomplete="new-password"]').nth(0).fill(newPassword);
    await modal.locator('input[autocomplete="new-password"]').nth(1).fill(newPassword);
    await modal.getByRole('button', { name: 'CONFIRM' }).click();
    await expect.poll(() => page.getByText('Your password has been successfully changed.').count(), { timeout: 15_000 }).toBe(1);
    await modal.getByRole('button', { name: 'OK' }).click();
    expect(page.url()).toMatch(/\/my-profile$/);
    expect(await page.getByText('Your previous session has expired.').count()).toBe(0);
    expect(await refreshWorks(page)).toBe('ok');
    expect(await refreshWorks(other)).toMatch(/NotAuthorized/);
    await sameBrowser.waitForTimeout(1_500);
    expect(sameBrowser.url()).toMatch(/\/dashboard$/);
    expect(await sameBrowser.getByTestId('company-card').count()).toBe(1);
    expect(await refreshWorks(sameBrowser)).toBe('ok');
    await sameBrowser.close();
    // This tab goes on calling the API with its new session.
    await page.getByTestId('side-menu').getByRole('link', { name: 'Suppliers' }).click();
    await page.waitForURL(/\/suppliers$/);
    await expect.poll(() => page.getByText('Your previous session has expired.').count(), { timeout: 3_000 }).toBe(0);
    await elsewhere.close();
    await context.close();
  });

  it("the next user signing in on the browser gets neither the last user's company nor their all-companies view", async () => {
    const first = newUser('ownera');
    const second = newUser('ownerb');
    await registerUser(e2e.stack, first);
    await registerUser(e2e.stack, second);
    // both have two companies: the all-companies view is open to each
    for (const [user, code] of [[first, '300200101'], [second, '300200102']] as const) {
      const created = await apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user)).post('/company', { company_name: `Second Books ${code}`, code });
      expect(created.status).toBeLessThan(300);
    }
    const page = await signInPage(e2e.browser, e2e.stack.url, first);
    const identity = page.getByTestId('header-identity');
    await page.getByText('VIEW ALL COMPANIES').click();
    await expect.poll(() => identity.innerText()).toContain('All - ');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/signin$/);
    await signInOn(page, e2e.stack.url, second);
    await expect.poll(() => identity.innerText()).toContain(second.company);
    expect(await identity.innerText()).not.toContain('All - ');
    // and the first user, back, starts from their own company (the second's choice is not theirs either)
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/signin$/);
    await signInOn(page, e2e.stack.url, first);
    await expect.poll(() => identity.innerText()).not.toContain(second.company);
    await page.close();
  }, 120_000);

  it('the page asked for before signing in comes back also after a way round Forgot password', async () => {
    const user = newUser('detour');
    await registerUser(e2e.stack, user);
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${e2e.stack.url}/my-profile`);
    await page.waitForURL(/\/signin$/);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot$/);
    await page.getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(/\/signin$/);
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL(/\/my-profile$/, { timeout: 20_000 });
    await page.close();
  }, 60_000);
});

