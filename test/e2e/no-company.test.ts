import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, signInPage } from '../support/browser';
import { listRowDocument, writeDocuments } from '../support/document-records';
import { addMembership, registeredUser, subOf } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 20_000 };
const LAPTOP = { width: 1366, height: 768 };

/** Spinners on the page (the list's LoadingBlock, a busy search box). */
const spinners = (page: Page) => page.locator('[data-testid="spinner"]').count();

/**
 * A user with no company (removed from the only company they were a member of) and a first export on a laptop:
 * the screens say what to do instead of loading for ever, and the export pop-up shows all of itself.
 */
describe('a first hour in Chromium: no company left, and the export pop-up on a laptop', () => {

  const e2e = useBrowserStack('no-company');

  it('shows a member removed from their only company an empty state pointing to ADD COMPANY, with no spinner and no ADD', async () => {
    const owner = await registeredUser(e2e.stack, 'owner');
    const member = await registeredUser(e2e.stack, 'member');
    const memberId = subOf(member.token);
    // the member joins the owner's company and gives up their own: the owner's company is their only one
    await addMembership(memberId, owner.companyId, 'basic');
    expect((await member.api.delete(`/company?company_id=${member.companyId}`)).status).toBe(200);
    // the owner removes the member (My Team, Delete User)
    expect((await owner.api.delete(`/company/users/${memberId}?company_id=${owner.companyId}`)).status).toBe(200);
    expect(((await member.api.get('/companies')).body as { items: unknown[] }).items).toEqual([]);

    const page = await signInPage(e2e.browser, e2e.stack.url, member.user, LAPTOP);
    await expect.poll(() => page.getByText('No companies yet').count(), WAIT).toBeGreaterThan(0);

    for (const [to, addName] of [
      ['/receipts/inbox', 'ADD'],
      ['/receipts/review', 'ADD'],
      ['/customers', 'ADD'],
      ['/items', 'ADD'],
    ] as const) {
      await page.goto(`${e2e.stack.url}${to}`);
      const empty = page.getByTestId('no-company');
      await empty.waitFor(WAIT);
      expect(await empty.innerText()).toContain('No companies yet');
      // the way out: the dashboard, where ADD COMPANY is
      const link = empty.getByRole('link', { name: 'Dashboard' });
      expect(await link.getAttribute('href')).toBe('/dashboard');
      expect(await spinners(page)).toBe(0);
      expect(await page.getByRole('button', { name: addName, exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Upload XLSX' }).count()).toBe(0);
      await screenshot(page, `no-company-${to.replaceAll('/', '-').slice(1)}`);
    }

    await page.getByTestId('no-company').getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(/\/dashboard$/, WAIT);
    await expect.poll(() => page.getByRole('button', { name: 'ADD COMPANY' }).count(), WAIT).toBeGreaterThan(0);
    await page.close();
  });

  it('tells a member whose active company is deleted meanwhile, and shows the company left', async () => {
    const owner = await registeredUser(e2e.stack, 'closer');
    const member = await registeredUser(e2e.stack, 'stayer');
    await addMembership(subOf(member.token), owner.companyId, 'basic');
    const ownerName = ((await owner.api.get('/companies')).body as { items: { name: string }[] }).items[0]!.name;
    const memberName = ((await member.api.get('/companies')).body as { items: { company_id: string; name: string }[] }).items.find(
      (c) => c.company_id === member.companyId,
    )!.name;

    const page = await signInPage(e2e.browser, e2e.stack.url, member.user, LAPTOP);
    await page.evaluate((id) => window.localStorage.setItem('active_company', id), owner.companyId);
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    await expect.poll(() => page.locator('.topbar-identity').innerText(), WAIT).toContain(ownerName);
    await expect.poll(() => page.getByTestId('live-status').getAttribute('data-status'), WAIT).toBe('open');

    // the owner opens a second company and deletes the first (their only one may not be deleted)
    expect((await owner.api.post('/company', { company_name: 'Closer Second UAB', code: '300111222' })).status).toBe(201);
    expect((await owner.api.delete(`/company?company_id=${owner.companyId}`)).status).toBe(200);
    const popup = page.getByTestId('info-popup').filter({ hasText: 'was deleted' });
    await popup.waitFor(WAIT);
    expect(await popup.innerText()).toContain(`${ownerName} was deleted. Showing ${memberName}.`);
    await screenshot(page, 'active-company-deleted');
    await expect.poll(() => page.locator('.topbar-identity').innerText(), WAIT).toContain(memberName);
    expect(await page.evaluate(() => window.localStorage.getItem('active_company'))).toBe(member.companyId);
    await page.close();
  });

  it('shows the export pop-up whole at 1366x768: File name, Move items to archive after export and EXPORT in view', async () => {
    const owner = await registeredUser(e2e.stack, 'exporter');
    const ids = Array.from({ length: 5 }, (_, i) => `DOCEXPORT${String(5 - i).padStart(17, '0')}`);
    await writeDocuments(ids.map((id, i) => listRowDocument(owner.companyId, id, i, ids.length, 'review')));
    const page = await signInPage(e2e.browser, e2e.stack.url, owner.user, LAPTOP);
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    await page.getByTestId('receipt-row').first().waitFor(WAIT);
    await page.getByRole('checkbox', { name: 'Select all' }).check({ force: true });
    await page.getByRole('button', { name: 'Export' }).click();
    const modal = page.getByTestId('export-modal');
    await modal.waitFor(WAIT);
    for (const tab of ['CSV', 'PDF']) {
      await modal.getByRole('tab', { name: tab }).click();
      await expect.poll(() => modal.getByLabel('Export fields').locator('li').count(), WAIT).toBe(10);
      // every control of the pop-up is in the window without scrolling it
      for (const control of [modal.getByLabel('File name'), modal.getByLabel('Move items to archive after export'), modal.getByRole('button', { name: 'EXPORT' })]) {
        const box = await control.boundingBox();
        expect(box, `${tab}: drawn`).not.toBeNull();
        expect(box!.y, `${tab}: below the top`).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height, `${tab}: above the bottom`).toBeLessThanOrEqual(LAPTOP.height);
        // and not covered by the sticky actions row: the control itself is what is hit at its centre
        const hit = await control.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return el === top || el.contains(top) || (top instanceof HTMLLabelElement && top.control === el) || Boolean(top?.closest('label')?.contains(el));
        });
        expect(hit, `${tab}: not covered`).toBe(true);
      }
      expect(await modal.evaluate((el) => el.scrollTop)).toBe(0);
      await screenshot(page, `export-modal-1366-${tab.toLowerCase()}`);
    }
    await page.close();
  });
});
