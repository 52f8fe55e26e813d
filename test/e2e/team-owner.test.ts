import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { OWNER_MSG, ownerChangedMessage } from '../../shared/schemas/team';
import type { LocalStack } from '../../scripts/local/stack';
import { recordPopups, screenshot, signInOn } from '../support/browser';
import { addMembership, registeredUser, subOf } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

/** How long a screen may take to show what the server answered (handlers load on first use). */
const WAIT = { timeout: 20_000 };
const MAKE_OWNER = 'Make Account Owner';

type Registered = Awaited<ReturnType<typeof registeredUser>>;
const nameOf = (r: Registered) => `${r.user.name} ${r.user.surname}`;

/** An owner with an administrator member and a Basic member of the owner's company. */
async function ownerWithTeam(stack: LocalStack, prefix: string) {
  const owner = await registeredUser(stack, `${prefix}owner`);
  const admin = await registeredUser(stack, `${prefix}admin`);
  const basic = await registeredUser(stack, `${prefix}basic`);
  await addMembership(subOf(admin.token), owner.companyId, 'admin');
  await addMembership(subOf(basic.token), owner.companyId, 'basic');
  const companies = (await owner.api.get('/companies')).body as { items: { company_id: string; name: string }[] };
  const companyName = companies.items.find((c) => c.company_id === owner.companyId)!.name;
  return { owner, admin, basic, companyName };
}

const cardOf = (page: Page, who: Registered) => page.locator(`[data-testid="user-card"][data-user-id="${subOf(who.token)}"]`);

/** A screenshot once the page's animations (the pop-ups fade in) have run. */
async function settledShot(page: Page, name: string) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  await screenshot(page, name);
}

/** The members of a company as the API lists them: user id → is_owner. */
async function owners(as: Registered, companyId: string): Promise<Record<string, boolean>> {
  const res = await as.api.get(`/company/users?company_id=${companyId}`);
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body as { items: { user_id: string; is_owner: boolean }[] }).items.map((u) => [u.user_id, u.is_owner]));
}

describe('My Team: Make Account Owner, in Chromium', () => {

  const e2e = useBrowserStack('team-owner');

  it('the owner makes an administrator the account owner: confirmed, said, and the button moves with the ownership', async () => {
    // Prepare: owner A, administrator B, Basic member C of A's company
    const { owner: a, admin: b, basic: c, companyName } = await ownerWithTeam(e2e.stack, 'hand');
    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 950 } });
    const popups = await recordPopups(context);
    const page = await signInOn(await context.newPage(), e2e.stack.url, a.user);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${e2e.stack.url}/my-team`);
    await expect.poll(() => page.getByTestId('user-card').count(), WAIT).toBe(3);

    // The button is on B's card only: not on A's own, not on Basic C's
    expect(await cardOf(page, a).getByTestId('role-label').innerText()).toBe('Account owner');
    expect(await cardOf(page, b).getByTestId('role-label').innerText()).toBe('Administrator');
    expect(await cardOf(page, b).getByRole('button', { name: MAKE_OWNER }).count()).toBe(1);
    expect(await cardOf(page, a).getByRole('button', { name: MAKE_OWNER }).count()).toBe(0);
    expect(await cardOf(page, c).getByRole('button', { name: MAKE_OWNER }).count()).toBe(0);
    expect(await page.getByRole('button', { name: MAKE_OWNER }).count()).toBe(1);

    // CANCEL closes the confirmation and changes nothing
    await cardOf(page, b).getByRole('button', { name: MAKE_OWNER }).click();
    const modal = page.getByTestId('make-owner-modal');
    await modal.waitFor(WAIT);
    await modal.getByRole('button', { name: 'CANCEL' }).click();
    await expect.poll(() => modal.count()).toBe(0);
    expect((await owners(a, a.companyId))[subOf(a.token)]).toBe(true);

    // The confirmation: title, question, what it means, CANCEL and CONFIRM
    await cardOf(page, b).getByRole('button', { name: MAKE_OWNER }).click();
    await modal.waitFor(WAIT);
    expect(await modal.getByRole('heading', { name: MAKE_OWNER }).count()).toBe(1);
    const text = await modal.innerText();
    expect(text).toContain(`Make ${nameOf(b)} the account owner of ${companyName}?`);
    expect(text).toContain(OWNER_MSG.confirm);
    expect(await modal.getByRole('button', { name: 'CANCEL' }).count()).toBe(1);
    await settledShot(page, 'team-make-owner-confirm');

    // Act
    await modal.getByRole('button', { name: 'CONFIRM' }).click();

    // Assess: closed, said, B carries "Account owner" and A no longer; A (no longer the owner) sees no button
    await expect.poll(() => modal.count(), WAIT).toBe(0);
    const said = ownerChangedMessage(nameOf(b));
    expect(said).toMatch(/^Test User \d+ is now the account owner\.$/);
    await expect.poll(() => popups(page), WAIT).toContain(said);
    await expect.poll(() => cardOf(page, b).getByTestId('role-label').innerText(), WAIT).toBe('Account owner');
    expect(await cardOf(page, a).getByTestId('role-label').innerText()).toBe('Administrator');
    expect(await page.getByRole('button', { name: MAKE_OWNER }).count()).toBe(0);
    await settledShot(page, 'team-owner-changed');

    // The API agrees; A can no longer hand the company over (403), B now can
    expect(await owners(a, a.companyId)).toMatchObject({ [subOf(a.token)]: false, [subOf(b.token)]: true, [subOf(c.token)]: false });
    const refused = await a.api.put(`/company/owner?company_id=${a.companyId}`, { user_id: subOf(b.token) });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain(OWNER_MSG.ownerOnly);
    // the dashboard's company card names A an Administrator now
    await page.goto(`${e2e.stack.url}/dashboard`);
    const companyCard = page.getByTestId('company-card').filter({ hasText: companyName });
    await expect.poll(() => companyCard.innerText(), WAIT).toContain('Administrator');

    // B's My Team in the all-companies view (B administers their own company and A's): under A's company the button
    // is on A's card (an administrator now), not on C's nor B's own; B's own company has no one to hand over to
    const bContext = await e2e.browser.newContext({ viewport: { width: 1440, height: 950 } });
    await bContext.addInitScript(() => window.localStorage.setItem('active_all_companies', 'true'));
    const bPage = await signInOn(await bContext.newPage(), e2e.stack.url, b.user);
    bPage.on('pageerror', (e) => errors.push(e.message));
    await bPage.goto(`${e2e.stack.url}/my-team`);
    const groups = bPage.getByTestId('team-group');
    await expect.poll(() => groups.count(), WAIT).toBe(2);
    const aGroup = groups.filter({ has: bPage.getByRole('heading', { name: companyName, exact: true }) });
    await expect.poll(() => aGroup.getByTestId('user-card').count(), WAIT).toBe(3);
    expect(await aGroup.getByRole('button', { name: MAKE_OWNER }).count()).toBe(1);
    expect(await cardOf(bPage, a).getByRole('button', { name: MAKE_OWNER }).count()).toBe(1);
    expect(await aGroup.locator(`[data-user-id="${subOf(b.token)}"]`).getByTestId('role-label').innerText()).toBe('Account owner');
    expect(await bPage.getByRole('button', { name: MAKE_OWNER }).count()).toBe(1);
    await cardOf(bPage, a).getByRole('button', { name: MAKE_OWNER }).click();
    const bModal = bPage.getByTestId('make-owner-modal');
    await bModal.waitFor(WAIT);
    expect(await bModal.innerText()).toContain(`Make ${nameOf(a)} the account owner of ${companyName}?`);
    await settledShot(bPage, 'team-make-owner-all-companies');
    await bModal.getByRole('button', { name: 'CANCEL' }).click();
    await expect.poll(() => bModal.count()).toBe(0);
    await bContext.close();

    expect(errors).toEqual([]);
    await context.close();
  });

  it('a Basic member has no button, the API refuses them (409), and a refusal is said in the pop-up, which stays open', async () => {
    // Prepare
    const { owner: d, admin: e, basic: f } = await ownerWithTeam(e2e.stack, 'keep');
    const page = await signInOn(await e2e.browser.newPage({ viewport: { width: 1440, height: 950 } }), e2e.stack.url, d.user);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${e2e.stack.url}/my-team`);
    await expect.poll(() => page.getByTestId('user-card').count(), WAIT).toBe(3);

    // The Basic member: no button on the card; the API says to make them an administrator first
    expect(await cardOf(page, f).getByTestId('role-label').innerText()).toBe('Basic user');
    expect(await cardOf(page, f).getByRole('button', { name: MAKE_OWNER }).count()).toBe(0);
    const basicRefused = await d.api.put(`/company/owner?company_id=${d.companyId}`, { user_id: subOf(f.token) });
    expect(basicRefused.status).toBe(409);
    expect(JSON.stringify(basicRefused.body)).toContain(OWNER_MSG.notAdmin);
    // an administrator cannot hand over a company they do not own
    const notOwner = await e.api.put(`/company/owner?company_id=${d.companyId}`, { user_id: subOf(e.token) });
    expect(notOwner.status).toBe(403);
    expect(JSON.stringify(notOwner.body)).toContain(OWNER_MSG.ownerOnly);

    // The administrator E is made a Basic member while the confirmation is open
    await cardOf(page, e).getByRole('button', { name: MAKE_OWNER }).click();
    const modal = page.getByTestId('make-owner-modal');
    await modal.waitFor(WAIT);
    const demoted = await d.api.put(`/company/users/${subOf(e.token)}?company_id=${d.companyId}`, { role: 'basic' });
    expect(demoted.status).toBe(200);

    // Act
    await modal.getByRole('button', { name: 'CONFIRM' }).click();

    // Assess: the API's reason in the pop-up (role alert), which stays open; nothing changed
    const alert = modal.getByTestId('make-owner-error');
    await alert.waitFor(WAIT);
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.innerText()).toBe(OWNER_MSG.notAdmin);
    expect(await modal.count()).toBe(1);
    expect(await owners(d, d.companyId)).toMatchObject({ [subOf(d.token)]: true, [subOf(e.token)]: false });

    // The cards behind were read again: E is a Basic user and has no button; CANCEL closes the pop-up
    await expect.poll(() => cardOf(page, e).getByTestId('role-label').innerText(), WAIT).toBe('Basic user');
    expect(await page.getByRole('button', { name: MAKE_OWNER }).count()).toBe(0);
    expect(await alert.innerText()).toBe(OWNER_MSG.notAdmin);
    await settledShot(page, 'team-make-owner-refused');
    await modal.getByRole('button', { name: 'CANCEL' }).click();
    await expect.poll(() => modal.count()).toBe(0);

    expect(errors).toEqual([]);
    await page.close();
  });

  it('an administrator lowering their own role is told what it costs before SAVE; on a colleague\'s card nothing is said', async () => {
    const { owner: a, admin: b, basic: c } = await ownerWithTeam(e2e.stack, 'self');
    const page = await signInOn(await e2e.browser.newPage({ viewport: { width: 1440, height: 950 } }), e2e.stack.url, b.user);
    // the owner's company active (B's own is their first)
    await page.evaluate((id) => window.localStorage.setItem('active_company', id), a.companyId);
    await page.goto(`${e2e.stack.url}/my-team`);
    await expect.poll(() => page.getByTestId('user-card').count(), WAIT).toBeGreaterThanOrEqual(3);
    const edit = page.getByTestId('edit-user-modal');
    const warning = edit.getByTestId('self-demote-warning');
    await cardOf(page, b).getByRole('button', { name: 'Edit User Details' }).click();
    await edit.locator('select[name="role"]').selectOption('basic');
    await expect
      .poll(() => warning.innerText(), WAIT)
      .toBe('This is your own role: as a Basic user you can no longer manage the team, the integrations or the company settings, and only another administrator can make you one again.');
    await settledShot(page, 'team-self-demote');
    await edit.locator('select[name="role"]').selectOption('admin');
    await expect.poll(() => warning.count(), WAIT).toBe(0);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await cardOf(page, c).getByRole('button', { name: 'Edit User Details' }).click();
    await edit.locator('select[name="role"]').selectOption('admin');
    await edit.locator('select[name="role"]').selectOption('basic');
    expect(await warning.count()).toBe(0);
    await page.close();
  }, 120_000);
});

