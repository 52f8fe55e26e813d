import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVITATIONS_TODAY } from '../../lambdas/core/team/invitations';
import { deps } from '../../lambdas/runtime/deps';
import { registerUser } from '../../scripts/local/seed';
import { INVITATIONS_PER_DAY } from '../../shared/constants';
import { screenshot } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

/** How long a screen may take to show what the server answered (handlers load on first use). */
const WAIT = { timeout: 20_000 };

async function onePagePdf(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(text, { x: 50, y: 760, size: 14, font });
  return Buffer.from(await pdf.save());
}

async function signInWithForm(page: Page, url: string, email: string, password: string) {
  await page.goto(`${url}/signin`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'LOG IN' }).click();
  await page.waitForURL(/\/dashboard$/, WAIT);
}

describe('team: invite a colleague by mail, the colleague joins, the admin edits and deletes them', () => {
  const admin = newUser('teamadmin');
  const codes: Record<string, string> = {};
  const colleague = { email: `colleague${Date.now()}@example.com`, password: 'Colleague1', name: 'Rasa', surname: 'Kolegė' };

  const e2e = useBrowserStack('team', { onCode: ({ email, code }) => (codes[email] = code) });
  beforeAll(async () => {
    await registerUser(e2e.stack, admin);
  });

  it('runs the whole invitation path in Chromium', async () => {
    // one document of the admin's company, uploaded as the SPA does
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, admin));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    const bytes = await onePagePdf('TEAM SUPPLIES UAB  Invoice No: T-1  TOTAL EUR 12.10');
    const q = new URLSearchParams({ company_id: companyId, original_file_name: 'team-invoice.pdf', content_type: 'application/pdf', size: String(bytes.length) });
    const signed = (await api.get(`/upload/document?${q.toString()}`)).body as { uploadURL: string; headers: Record<string, string> };
    expect((await fetch(signed.uploadURL, { method: 'PUT', body: new Uint8Array(bytes), headers: signed.headers })).status).toBe(200);
    await expect
      .poll(async () => ((await api.get(`/receipts?company_id=${companyId}`)).body as { items?: unknown[] }).items?.length ?? 0, { timeout: 60_000 })
      .toBe(1);
    const adminPage = await e2e.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    adminPage.on('pageerror', (e) => errors.push(e.message));

    // The admin opens My Team from the dashboard's "Add a Company Employee" card: the pop-up opens at once
    await signInWithForm(adminPage, e2e.stack.url, admin.email, admin.password);
    await expect.poll(() => adminPage.getByTestId('add-employee-card').getByRole('link', { name: 'Add a user' }).count(), WAIT).toBe(1);
    await adminPage.getByTestId('add-employee-card').click();
    await adminPage.waitForURL(/\/my-team$/);
    const popup = adminPage.getByTestId('add-user-modal');
    await expect.poll(() => popup.count(), WAIT).toBe(1);
    await expect.poll(() => adminPage.locator('header').innerText()).toContain('My Team');

    // Step 1: details, with the spec's messages
    await popup.getByRole('button', { name: 'SEND INVITATION' }).click();
    await expect.poll(() => popup.getByText('Required field').count()).toBeGreaterThan(1);
    await popup.locator('input[name="name"]').fill(colleague.name);
    await popup.locator('input[name="surname"]').fill(colleague.surname);
    await popup.locator('input[name="email"]').fill(colleague.email);
    await popup.locator('textarea[name="message"]').fill('x'.repeat(1001));
    await popup.getByRole('button', { name: 'SEND INVITATION' }).click();
    await expect.poll(() => popup.getByText('To much sumbols').count()).toBe(1);
    await popup.locator('textarea[name="message"]').fill('Welcome to the team, Rasa!');
    await screenshot(adminPage, 'invite-popup');
    await popup.getByRole('button', { name: 'SEND INVITATION' }).click();

    // Step 2
    await expect.poll(() => popup.getByTestId('invite-sent').count(), WAIT).toBe(1);
    expect(await popup.innerText()).toContain('Your invitation has been successfully sent.');
    await screenshot(adminPage, 'invite-sent');
    await popup.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => popup.count()).toBe(0);

    // The invitation waits on My Team until it is accepted; a second one is cancelled there
    const pending = adminPage.getByTestId('invitation-card');
    await expect.poll(() => pending.count(), WAIT).toBe(1);
    expect(await pending.first().getByTestId('invited-email').innerText()).toBe(colleague.email);
    expect(await pending.first().getByTestId('role-label').innerText()).toBe('Basic user');
    await adminPage.getByRole('button', { name: 'ADD A USER' }).click();
    await popup.locator('input[name="name"]').fill('Jonas');
    await popup.locator('input[name="surname"]').fill('Kitas');
    await popup.locator('input[name="email"]').fill(`jonas.${colleague.email}`);
    await popup.getByRole('button', { name: 'SEND INVITATION' }).click();
    await expect.poll(() => popup.getByTestId('invite-sent').count(), WAIT).toBe(1);
    await popup.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => pending.count(), WAIT).toBe(2);
    await screenshot(adminPage, 'my-team-pending');
    // Cancel Invitation asks first; Back keeps the invitation
    await pending.filter({ hasText: 'Jonas Kitas' }).getByRole('button', { name: 'Cancel Invitation' }).click();
    const question = adminPage.getByTestId('cancel-invitation-modal');
    await expect.poll(() => question.innerText(), WAIT).toContain(`Cancel the invitation to jonas.${colleague.email}? The link mailed to them stops working.`);
    // (the pop-up's opening animation ends before the picture)
    await adminPage.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished)));
    await screenshot(adminPage, 'my-team-cancel-invitation');
    await question.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => question.count(), WAIT).toBe(0);
    expect(await pending.count()).toBe(2);
    await pending.filter({ hasText: 'Jonas Kitas' }).getByRole('button', { name: 'Cancel Invitation' }).click();
    await question.getByRole('button', { name: 'Cancel Invitation' }).click();
    await expect.poll(() => pending.count(), WAIT).toBe(1);
    expect(await pending.first().innerText()).toContain(colleague.email);

    // Send Again mails a new link with the same message (the old link stops working): a double-click sends one, not two links of which
    // only the second works
    await e2e.stack.mail.waitFor(colleague.email);
    const mailsToColleague = () => e2e.stack.mail.messages().filter((m) => m.to.includes(colleague.email)).length;
    const mailsBeforeResend = mailsToColleague();
    const invitationPosts: string[] = [];
    adminPage.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/invitation(\?|$)/.test(r.url())) invitationPosts.push(r.url());
    });
    await pending.first().getByRole('button', { name: 'Send Again' }).dblclick();
    await expect.poll(() => adminPage.getByText('Your invitation has been successfully sent.').count(), WAIT).toBe(1);
    await expect.poll(mailsToColleague, WAIT).toBe(mailsBeforeResend + 1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(invitationPosts).toHaveLength(1);
    expect(mailsToColleague()).toBe(mailsBeforeResend + 1);

    // The invitation mail (the newest), picked up from the local mail path (SES stand-in → SMTP catcher)
    const mail = await e2e.stack.mail.waitFor(colleague.email);
    expect(mail.text).toContain('Welcome to the team, Rasa!');
    const link = mail.links.find((l) => l.includes('/signup/invite?token='))!;
    expect(link.startsWith(`${e2e.stack.url}/signup/invite?token=`)).toBe(true);
    await adminPage.goto(`${e2e.stack.url}/_mail`);
    await expect.poll(() => adminPage.getByTestId('mail').first().innerText()).toContain(colleague.email);
    await screenshot(adminPage, 'local-mail');

    // The admin keeps My Team open while the colleague accepts
    const teamPage = adminPage;
    await teamPage.goto(`${e2e.stack.url}/my-team`);
    await expect.poll(() => teamPage.getByTestId('invitation-card').count(), WAIT).toBe(1);
    // (the members and the invitations are two reads: either may answer first)
    await expect.poll(() => teamPage.getByTestId('user-card').count(), WAIT).toBe(1);

    // The colleague opens the link, sets a password and is signed in: the mailed link proved the address, so no code
    const context = await e2e.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(link);
    await expect.poll(() => page.getByTestId('invite-form').count(), WAIT).toBe(1);
    expect(await page.locator('input[name="email"]').inputValue()).toBe(colleague.email);
    // It says which company the invitation is to, and as what
    const companyName = ((await api.get('/companies')).body as { items: { name: string }[] }).items[0]!.name;
    expect(await page.locator('.auth-subtitle').innerText()).toBe(`You have been invited to ${companyName} as a Basic user. Set a password to create your account.`);
    await page.locator('input[name="password"]').fill(colleague.password);
    await page.locator('input[name="passwordRepeat"]').fill(colleague.password);
    await page.locator('input[name="acceptTerms"]').check();
    await screenshot(page, 'signup-invite');
    await page.getByRole('button', { name: 'SET PASSWORD' }).click();
    await page.waitForURL(/\/dashboard$/, WAIT);
    expect(codes[colleague.email]).toBeUndefined();

    // The admin's open My Team shows the new member, and no pending invitation, without a reload
    await expect.poll(() => teamPage.getByTestId('user-card').count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => teamPage.getByTestId('invitation-card').count(), WAIT).toBe(0);

    // A Basic user of the inviting company, and no company of their own
    const cards = page.getByTestId('company-card');
    await expect.poll(() => cards.count(), WAIT).toBe(1);
    await expect.poll(() => cards.first().innerText()).toContain(admin.company);
    expect(await cards.first().innerText()).toContain('Basic user');
    const menu = page.getByTestId('side-menu');
    expect(await menu.getByText('My Team').count()).toBe(0);
    expect(await page.getByTestId('add-employee-card').count()).toBe(0);
    await screenshot(page, 'colleague-dashboard');
    // The fields captured per document are the administrators' to set: typed in, the address leads to the dashboard,
    // and says why; so do Integration and My Team
    const popups = page.getByTestId('info-popup');
    await page.goto(`${e2e.stack.url}/fields-configuration`);
    await page.waitForURL(/\/dashboard$/, WAIT);
    await expect.poll(() => popups.allInnerTexts(), WAIT).toContain('Only a company administrator can open Fields configuration');
    await page.goto(`${e2e.stack.url}/integration`);
    await page.waitForURL(/\/dashboard$/, WAIT);
    await expect.poll(() => popups.allInnerTexts(), WAIT).toContain('Only a company administrator can open Integration');
    await screenshot(page, 'colleague-integration-refused');

    // They see the company's documents, and the upload's owner cannot be chosen
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    await expect.poll(() => page.getByTestId('receipt-row').count(), WAIT).toBe(1);
    expect(await page.getByTestId('receipt-row').first().innerText()).toContain('team-invoice.pdf');
    await page.getByRole('button', { name: 'ADD' }).click();
    const upload = page.getByTestId('upload-modal');
    await expect.poll(() => upload.count()).toBe(1);
    expect(await upload.locator('select[name="owner"]').isDisabled()).toBe(true);
    await screenshot(page, 'colleague-documents-upload');
    await page.keyboard.press('Escape');

    // My Team is not for them
    await page.goto(`${e2e.stack.url}/my-team`);
    await page.waitForURL(/\/dashboard$/, WAIT);
    await expect.poll(() => page.getByTestId('info-popup').allInnerTexts(), WAIT).toContain('Only a company administrator can open My Team');

    // The admin sees two cards: Account owner and Basic user
    await adminPage.goto(`${e2e.stack.url}/my-team`);
    const userCards = adminPage.getByTestId('user-card');
    await expect.poll(() => userCards.count(), WAIT).toBe(2);
    // accepted: no longer pending
    expect(await adminPage.getByTestId('invitation-card').count()).toBe(0);
    const colleagueCard = userCards.filter({ hasText: colleague.email });
    const ownerCard = userCards.filter({ hasText: admin.email });
    expect(await ownerCard.getByTestId('role-label').innerText()).toBe('Account owner');
    expect(await ownerCard.getByRole('button', { name: 'Delete User' }).count()).toBe(0);
    expect(await colleagueCard.getByTestId('role-label').innerText()).toBe('Basic user');
    expect(await colleagueCard.getByTestId('email-in').innerText()).toBe('rasa.kolege@in.receipts.local');
    await screenshot(adminPage, 'my-team');

    // Edit User Details: the prefix rule, then the role
    await colleagueCard.getByRole('button', { name: 'Edit User Details' }).click();
    const edit = adminPage.getByTestId('edit-user-modal');
    await edit.locator('input[name="email_prefix"]').fill('ab');
    await edit.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => edit.getByText('Imvalid email').count()).toBe(1);
    // the domain stays in sight beside the prefix while the error replaces the hint
    expect(await edit.locator('.field-suffix').innerText()).toBe('@in.receipts.local');
    await screenshot(adminPage, 'edit-user-prefix-error');
    await edit.locator('input[name="email_prefix"]').fill('rasa.team');
    await edit.locator('select[name="role"]').selectOption('admin');
    await screenshot(adminPage, 'edit-user');
    await edit.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => edit.count(), WAIT).toBe(0);
    await expect.poll(() => colleagueCard.getByTestId('role-label').innerText(), WAIT).toBe('Administrator');
    expect(await colleagueCard.getByTestId('email-in').innerText()).toBe('rasa.team@in.receipts.local');
    // The colleague's open screen learns the new role at once: My Team appears in their menu without a reload
    await expect.poll(() => menu.getByText('My Team').count(), WAIT).toBe(1);
    await screenshot(page, 'colleague-promoted-live');

    // Delete User, with the confirmation
    await colleagueCard.getByRole('button', { name: 'Delete User' }).click();
    const confirm = adminPage.getByTestId('delete-user-modal');
    expect(await confirm.innerText()).toContain('Are you sure you want to delete the selected items?');
    await screenshot(adminPage, 'delete-user');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => userCards.count(), WAIT).toBe(1);
    await screenshot(adminPage, 'my-team-after-delete');
    // The removed colleague's open screen drops the company at once
    await expect.poll(() => cards.count(), WAIT).toBe(0);
    await screenshot(page, 'colleague-removed-live');

    expect(errors).toEqual([]);
    await context.close();
    await adminPage.close();
  });

  it("the Add-user pop-up when the company's invitations of the day are spent: the refusal under the e-mail, the values kept, nothing mailed", async () => {
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, admin));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // The day's other invitations, as if sent (T13 up to the cap; docs/decisions.md "At most 100 invitations …").
    const day = new Date().toISOString().slice(0, 10);
    while (await deps().team.countInvitationMailed(companyId, day, INVITATIONS_PER_DAY));
    const mailsBefore = e2e.stack.mail.messages().length;
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signInWithForm(page, e2e.stack.url, admin.email, admin.password);
    await page.goto(`${e2e.stack.url}/my-team`);
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
    const described = (await popup.locator('input[name="email"]').getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${described.split(' ')[0]}"]`).innerText()).toContain('Try again tomorrow.');
    expect(e2e.stack.mail.messages().length).toBe(mailsBefore);
    await page.close();
  });
});
