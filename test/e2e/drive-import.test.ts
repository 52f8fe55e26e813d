/**
 * Dropbox import in Chromium against the local Dropbox stand-in: the Integration screen's Dropbox toggle → the
 * stand-in's authorisation page (Allow) → back to /integration/dropbox/authcallback → the folder screen → the
 * folder list pop-up → a folder chosen → a file dropped into it becomes a document on the next schedule run.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, signInPage } from '../support/browser';
import { DRIVE_MSG } from '../../shared/schemas/drive';
import { addMembership, apiClient, newUser, signIn, subOf } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

describe('Dropbox import in Chromium', () => {
  const user = newUser('dropboxer');

  const e2e = useBrowserStack('drive');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    e2e.stack.dropbox.addFolder('/Receipts inbox');
    e2e.stack.dropbox.addFolder('/Receipts inbox/2026');
    e2e.stack.dropbox.addFolder('/Photos');
  }, 180_000);

  it('connects Dropbox, picks a folder, and a new file in it becomes a document', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    await page.getByRole('link', { name: 'Integration' }).click();
    await page.getByTestId('integration-page').waitFor();
    const toggle = page.getByTestId('toggle-dropbox_import');
    expect(await toggle.isDisabled()).toBe(false);
    expect(await toggle.isChecked()).toBe(false);

    // On: the browser goes to the provider's authorisation page (the stand-in's).
    await toggle.click({ force: true });
    await page.waitForURL(/\/_dropbox\/www\/oauth2\/authorize\?/);
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    await screenshot(page, 'drive-dropbox-authorize');
    await page.getByRole('button', { name: 'Allow' }).click();

    // Back through /integration/dropbox/authcallback to the folder screen.
    await page.waitForURL(/\/integration\/dropbox$/, { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Integration Dropbox' }).waitFor();
    await page.getByTestId('drive-folder-prompt').waitFor();
    // OK waits for a folder (an import without one reads nothing)
    expect(await page.getByTestId('drive-ok').isDisabled()).toBe(true);
    await screenshot(page, 'drive-dropbox-folder-screen');

    await page.getByTestId('drive-select-folder').click();
    await page.getByTestId('folder-list-popup').waitFor();
    await page.getByTestId('folder-item').first().waitFor();
    const names = await page.getByTestId('folder-item').allTextContents();
    expect(names.map((n) => n.trim())).toEqual(expect.arrayContaining(['/Receipts inbox', '/Receipts inbox/2026', '/Photos']));
    await screenshot(page, 'drive-dropbox-folder-list');
    await page.getByTestId('folder-item').filter({ hasText: /^\/Receipts inbox$/ }).click();
    await page.getByTestId('folder-list-popup').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('drive-selected-folder').textContent()).toContain('/Receipts inbox');
    await screenshot(page, 'drive-dropbox-folder-selected');

    await page.getByTestId('drive-ok').click();
    await page.waitForURL(/\/integration$/);
    expect(await page.getByTestId('toggle-dropbox_import').isChecked()).toBe(true);
    await page.getByTestId('drive-edit-folder-dropbox').waitFor();
    expect(await page.getByTestId('drive-note-dropbox').textContent()).toContain('Folder /Receipts inbox');

    // A scan dropped into the folder becomes a document on the next run of the schedule.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([595, 842]).drawText('Office supplies  Total 19.90 EUR', { x: 50, y: 780, size: 14, font });
    e2e.stack.dropbox.dropFile('/Receipts inbox', 'office-supplies.pdf', await doc.save());
    // … and a phone photo in a format the upload does not take is named under the toggle, with why
    e2e.stack.dropbox.dropFile('/Receipts inbox', 'IMG_2041.HEIC', Buffer.from('heic'));
    await e2e.stack.driveSchedule.tick();
    await e2e.stack.jobs.idle();
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    const docs = (await api.get(`/receipts?company_id=${companyId}`)).body as { items: { original_file_name: string }[] };
    expect(docs.items.map((d) => d.original_file_name)).toEqual(['office-supplies.pdf']);
    await page.reload();
    await page.getByTestId('integration-page').waitFor();
    await expect.poll(() => page.getByTestId('drive-note-dropbox').textContent()).toContain('1 imported');
    expect(await page.getByTestId('drive-skipped-dropbox').innerText()).toContain('IMG_2041.HEIC — This file type is not allowed');
    await screenshot(page, 'drive-integration-screen');
  });

  it('a withdrawn grant pauses the folder; switching on again continues with it, and every skipped file is counted', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    const pdf = async (text: string) => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      doc.addPage([595, 842]).drawText(text, { x: 50, y: 780, size: 14, font });
      return doc.save();
    };
    // The user withdraws the app at Dropbox; a scan arrives meanwhile
    e2e.stack.dropbox.oauth.revokeAll();
    e2e.stack.dropbox.dropFile('/Receipts inbox', 'while-paused.pdf', await pdf('Taxi  Total 12.00 EUR'));
    await e2e.stack.driveSchedule.tick();

    await page.getByRole('link', { name: 'Integration' }).click();
    await page.getByTestId('integration-page').waitFor();
    // (told by the live channel, or read again once it opened when the pause came before it listened)
    await expect.poll(() => page.getByTestId('toggle-dropbox_import').isChecked(), { timeout: 15_000 }).toBe(false);
    await expect.poll(() => page.getByTestId('drive-paused-dropbox').textContent(), { timeout: 15_000 }).toBe(
      'Folder /Receipts inbox is paused: switch the import on to continue, files added meanwhile included.',
    );
    expect(await page.getByTestId('drive-error-dropbox').textContent()).toBe('Access to Dropbox was withdrawn: switch the import on to connect again.');
    await screenshot(page, 'drive-dropbox-paused');

    // Switched on again: the folder screen shows the kept folder; OK keeps it
    await page.getByTestId('toggle-dropbox_import').click({ force: true });
    await page.waitForURL(/\/_dropbox\/www\/oauth2\/authorize\?/);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/integration\/dropbox$/, { timeout: 20_000 });
    await expect.poll(() => page.getByTestId('drive-selected-folder').textContent()).toContain('/Receipts inbox');
    await page.getByTestId('drive-ok').click();
    await page.waitForURL(/\/integration$/);
    expect(await page.getByTestId('toggle-dropbox_import').isChecked()).toBe(true);

    for (let i = 0; i < 25; i += 1) e2e.stack.dropbox.dropFile('/Receipts inbox', `IMG_${3000 + i}.HEIC`, Buffer.from(`heic ${i}`));
    await e2e.stack.driveSchedule.tick();
    await e2e.stack.jobs.idle();
    const docs = (await api.get(`/receipts?company_id=${companyId}`)).body as { items: { original_file_name: string }[] };
    expect(docs.items.map((d) => d.original_file_name).sort()).toEqual(['office-supplies.pdf', 'while-paused.pdf']);
    await page.reload();
    await page.getByTestId('integration-page').waitFor();
    // 26 skipped in all (the first HEIC and these 25): five named, the rest counted
    await expect.poll(() => page.getByTestId('drive-skipped-more-dropbox').textContent()).toBe('and 21 more');
    expect(await page.getByTestId('drive-paused-dropbox').count()).toBe(0);
    await screenshot(page, 'drive-dropbox-resumed');
  });

  it("says why the Google import is off after the colleague who connected it was lowered to Basic", async () => {
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    // A colleague, admin of the company, connects Google Drive and watches a folder of theirs.
    const colleague = newUser('drivecolleague');
    await registerUser(e2e.stack, colleague);
    const colleagueToken = await signIn(e2e.stack, colleague);
    await addMembership(subOf(colleagueToken), companyId, 'admin');
    const theirs = apiClient(e2e.stack.apiUrl, colleagueToken);
    const begun = await theirs.get(`/company/service/drive/switch?company_id=${companyId}&service_type=google`);
    expect(begun.status).toBe(200);
    const back = new URL(e2e.stack.google.oauth.approveUrl((begun.body as { url: string }).url));
    const authorised = await theirs.post(`/company/service/drive/authorize?company_id=${companyId}`, {
      service_type: 'google',
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
    });
    expect(authorised.status).toBe(200);
    const folder = e2e.stack.google.addFolder('Colleague scans');
    expect((await theirs.post(`/company/service/drive/folders?company_id=${companyId}`, { service_type: 'google', folder_id: folder })).status).toBe(200);

    // The owner lowers them to Basic: their import ends, and the Integration screen says why.
    expect((await api.put(`/company/users/${subOf(colleagueToken)}?company_id=${companyId}`, { role: 'basic' })).status).toBe(200);
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    await page.getByRole('link', { name: 'Integration' }).click();
    await page.getByTestId('integration-page').waitFor();
    await expect.poll(() => page.getByTestId('toggle-google_drive_import').isChecked()).toBe(false);
    await expect.poll(() => page.getByTestId('drive-error-google').textContent()).toBe(DRIVE_MSG.connectorNotAdmin('google'));
    expect(await page.getByTestId('drive-paused-google').count()).toBe(0);
    await screenshot(page, 'drive-google-connector-lowered');
  });

  it('shows Connection error! when the user cancels on the provider’s page', async () => {
    const page = await signInPage(e2e.browser, e2e.stack.url, user);
    await page.goto(`${e2e.stack.url}/integration/google/authcallback?error=access_denied&state=x`);
    await page.getByTestId('drive-connection-error').waitFor();
    expect(await page.getByTestId('drive-connection-error').textContent()).toBe('Connection error!');
    await screenshot(page, 'drive-connection-error');
  });
});
