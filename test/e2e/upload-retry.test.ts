import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { LIST_STATUSES } from '../../shared/status';
import { SESSION_EXPIRED_TEXT } from '../../web/src/features/shell/components/SessionExpiredPopup';
import { screenshot } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };
const S3_INTERNAL = 'We encountered an internal error. Please try again.';

async function pdfNamed(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(text, { x: 50, y: 760, size: 14, font });
  return Buffer.from(await pdf.save());
}

/** A PUT to the presigned storage URL (not the API, not the sign-in stand-in). */
const isStoragePut = (route: Route) => {
  const u = new URL(route.request().url());
  return route.request().method() === 'PUT' && !u.pathname.startsWith('/api/') && !u.pathname.startsWith('/cognito');
};

/** The page's storage PUTs wait (a slow connection) until the returned release is called. */
async function holdStoragePuts(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => (release = r));
  await page.route(
    (u) => !u.pathname.startsWith('/api/') && !u.pathname.startsWith('/cognito'),
    async (route) => {
      if (!isStoragePut(route)) return route.continue();
      await released;
      return route.continue();
    },
  );
  return release;
}

/**
 * The upload pop-up on a bad connection: a failed file keeps its card and offers Try again (a new signed URL and
 * a new PUT); files that failed because the session ended are offered again after RECONNECT and signing in.
 */
describe('upload pop-up: trying failed files again in Chromium', () => {
  let api: ReturnType<typeof apiClient>;
  let companyId: string;
  const user = newUser('upretry');
  /** The company's documents whose file name starts with `prefix`, in whatever list they are (processing or done). */
  const documentNames = async (prefix: string) => {
    const byId = new Map<string, string>();
    for (const status of LIST_STATUSES) {
      const page = (await api.get(`/receipts?company_id=${companyId}&receipt_status=${status}`)).body as { items: { receipt_id: string; original_file_name: string }[] };
      for (const i of page.items) byId.set(i.receipt_id, i.original_file_name);
    }
    return [...byId.values()].filter((n) => n.startsWith(prefix)).sort();
  };

  const e2e = useBrowserStack('upload-retry');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
    api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
    companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
  });

  async function signInForm(page: Page) {
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
  }
  async function inboxWithUpload(opts: { clock?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 950 } });
    const page = await context.newPage();
    if (opts.clock) await page.clock.install();
    await page.goto(`${e2e.stack.url}/signin`);
    await signInForm(page);
    await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    await expect.poll(() => page.getByTestId('page-title').innerText(), WAIT).toBe('Inbox');
    await page.getByRole('button', { name: 'ADD' }).click();
    await expect.poll(() => page.getByTestId('upload-modal').count(), WAIT).toBe(1);
    return { context, page };
  }
  const card = (page: Page, name: string) => page.getByTestId('upload-modal').locator('[data-testid="upload-item"]', { hasText: name });

  it('a file whose upload failed is tried again from its card: a new signed URL, a new PUT, and the document is made', async () => {
    const { context, page } = await inboxWithUpload();
    const modal = page.getByTestId('upload-modal');
    let puts = 0;
    let signs = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/upload/document')) signs++;
    });
    await page.route(
      (u) => !u.pathname.startsWith('/api/') && !u.pathname.startsWith('/cognito'),
      async (route) => {
        if (!isStoragePut(route)) return route.continue();
        puts++;
        if (puts === 2) return route.fulfill({ status: 500, contentType: 'application/xml', body: `<Error><Code>InternalError</Code><Message>${S3_INTERNAL}</Message></Error>` });
        return route.continue();
      },
    );
    const files = await Promise.all(['retry-a', 'retry-b', 'retry-c'].map(async (n) => ({ name: `${n}.pdf`, mimeType: 'application/pdf', buffer: await pdfNamed(n.toUpperCase()) })));
    // one upload at a time, so the 2nd PUT is the 2nd file's
    await modal.locator('input[data-testid="upload-input"]').setInputFiles(files[0]!);
    await expect.poll(() => card(page, 'retry-a.pdf').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    await modal.locator('input[data-testid="upload-input"]').setInputFiles(files[1]!);
    await expect.poll(() => card(page, 'retry-b.pdf').getAttribute('data-state'), { timeout: 30_000 }).toBe('failed');
    await modal.locator('input[data-testid="upload-input"]').setInputFiles(files[2]!);
    // … and a file type that no retry can change
    await modal.locator('input[data-testid="upload-input"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') });
    await expect.poll(() => card(page, 'retry-c.pdf').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    await expect.poll(() => modal.getByTestId('upload-summary').innerText(), WAIT).toBe('Your uploaded items (4 files, 2 failure)');
    expect(await card(page, 'retry-b.pdf').innerText()).toContain(S3_INTERNAL);
    expect(await card(page, 'notes.txt').innerText()).toContain('This file type is not allowed');
    expect(await card(page, 'notes.txt').getByRole('button').count()).toBe(0);
    await expect.poll(() => documentNames('retry-'), { timeout: 90_000, interval: 1000 }).toEqual(['retry-a.pdf', 'retry-c.pdf']);
    expect(signs).toBe(3);
    await screenshot(page, 'upload-retry-failed-card');

    // Try again on the failed card: a new GET /upload/document and a new PUT; the header follows
    await card(page, 'retry-b.pdf').getByRole('button', { name: 'Try again retry-b.pdf' }).click();
    await expect.poll(() => card(page, 'retry-b.pdf').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    expect(await card(page, 'retry-b.pdf').innerText()).not.toContain(S3_INTERNAL);
    await expect.poll(() => modal.getByTestId('upload-summary').innerText(), WAIT).toBe('Your uploaded items (4 files, 1 failure)');
    expect(signs).toBe(4);
    expect(puts).toBe(4);
    await expect.poll(() => documentNames('retry-'), { timeout: 90_000, interval: 1000 }).toEqual(['retry-a.pdf', 'retry-b.pdf', 'retry-c.pdf']);
    await screenshot(page, 'upload-retry-done');
    await context.close();
  }, 300_000);

  it('files that failed because the session ended are offered again after RECONNECT and signing in, and upload', async () => {
    const { context, page } = await inboxWithUpload({ clock: true });
    const modal = page.getByTestId('upload-modal');
    // The storage PUTs wait until released (a slow connection), so the session ends while files are still to sign
    const release = await holdStoragePuts(page);
    const names = ['sess-1', 'sess-2', 'sess-3', 'sess-4', 'sess-5'];
    const files = await Promise.all(names.map(async (n) => ({ name: `${n}.pdf`, mimeType: 'application/pdf', buffer: await pdfNamed(n.toUpperCase()) })));
    await modal.locator('input[data-testid="upload-input"]').setInputFiles(files);
    // three files are signed and on their way
    await expect.poll(() => modal.locator('[data-testid="upload-item"][data-state="uploading"]').count(), WAIT).toBe(3);

    // The refresh token is revoked (signed out elsewhere) and the access token runs out
    const { key, token } = await page.evaluate(() => {
      const k = Object.keys(localStorage).find((x) => x.endsWith('.refreshToken'))!;
      return { key: k, token: localStorage.getItem(k)! };
    });
    const revoked = await fetch(`${e2e.stack.cognitoEndpoint}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.RevokeToken' },
      body: JSON.stringify({ Token: token, ClientId: key.split('.')[1]! }),
    });
    expect(revoked.status).toBe(200);
    await page.clock.fastForward('01:01:00');
    release();
    const states = () => modal.locator('[data-testid="upload-item"]').evaluateAll((els) => els.map((e) => `${e.textContent?.match(/sess-\d/)?.[0]}:${e.getAttribute('data-state')}`).join(' '));
    await expect.poll(states, { timeout: 30_000 }).toBe('sess-1:done sess-2:done sess-3:done sess-4:failed sess-5:failed');
    expect(await modal.getByTestId('upload-summary').innerText()).toBe('Your uploaded items (5 files, 2 failure)');
    await expect.poll(() => modal.getByText(SESSION_EXPIRED_TEXT).count(), WAIT).toBe(2);
    await expect.poll(() => page.getByTestId('session-expired').count(), WAIT).toBe(1);
    await expect.poll(() => documentNames('sess-'), { timeout: 90_000, interval: 1000 }).toEqual(['sess-1.pdf', 'sess-2.pdf', 'sess-3.pdf']);
    await screenshot(page, 'upload-retry-session-ended');

    await page.getByTestId('session-expired').getByRole('button', { name: 'RECONNECT' }).click();
    await page.waitForURL(/\/signin/, { timeout: 10_000 });
    await signInForm(page);
    await page.waitForURL(/\/receipts\/inbox$/, { timeout: 20_000 });
    // Back on the list, the pop-up is open again with the two files ready to try again
    await expect.poll(() => page.getByTestId('upload-modal').count(), WAIT).toBe(1);
    await expect.poll(() => modal.getByTestId('upload-summary').innerText(), WAIT).toBe('Your uploaded items (2 files, 2 failure)');
    await screenshot(page, 'upload-retry-session-reopened');
    await modal.getByRole('button', { name: 'Try all again' }).click();
    await expect.poll(() => modal.locator('[data-testid="upload-item"][data-state="done"]').count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => modal.getByTestId('upload-summary').innerText(), WAIT).toBe('Your uploaded items (2 files, 0 failure)');
    await expect.poll(() => documentNames('sess-'), { timeout: 90_000, interval: 1000 }).toEqual(names.map((n) => `${n}.pdf`));
    // Done closes it; the list does not offer them again
    await modal.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByTestId('upload-modal').count(), WAIT).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByTestId('page-title').innerText(), WAIT).toBe('Inbox');
    expect(await page.getByTestId('upload-modal').count()).toBe(0);
    await context.close();
  }, 300_000);

  it('asks before the pop-up closed by its × cancels files still uploading: Keep uploading, then Cancel uploads', async () => {
    const { context, page } = await inboxWithUpload();
    const modal = page.getByTestId('upload-modal');
    const release = await holdStoragePuts(page);
    const files = await Promise.all(['keep-1', 'keep-2'].map(async (n) => ({ name: `${n}.pdf`, mimeType: 'application/pdf', buffer: await pdfNamed(n.toUpperCase()) })));
    await modal.locator('input[data-testid="upload-input"]').setInputFiles(files);
    await expect.poll(() => modal.locator('[data-testid="upload-item"][data-state="uploading"]').count(), WAIT).toBe(2);

    await modal.getByRole('button', { name: 'Close' }).click();
    const ask = modal.getByTestId('upload-close-ask');
    await ask.waitFor(WAIT);
    expect(await ask.innerText()).toContain('2 files are still uploading. Closing the pop-up cancels them.');
    await screenshot(page, 'upload-close-ask');
    await ask.getByRole('button', { name: 'Keep uploading' }).click();
    expect(await modal.getByTestId('upload-close-ask').count()).toBe(0);
    release();
    await expect.poll(() => modal.locator('[data-testid="upload-item"][data-state="done"]').count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => documentNames('keep-'), { timeout: 90_000, interval: 1000 }).toEqual(['keep-1.pdf', 'keep-2.pdf']);

    // with nothing uploading the × closes at once; while one uploads, Cancel uploads closes and the file is not uploaded
    await modal.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('upload-modal').count(), WAIT).toBe(0);
    await page.unroute(() => true);
    await page.route(
      (u) => !u.pathname.startsWith('/api/') && !u.pathname.startsWith('/cognito'),
      async (route) => (isStoragePut(route) ? new Promise<void>(() => undefined) : route.continue()),
    );
    await page.getByRole('button', { name: 'ADD' }).click();
    await modal.locator('input[data-testid="upload-input"]').setInputFiles([{ name: 'gone-1.pdf', mimeType: 'application/pdf', buffer: await pdfNamed('GONE-1') }]);
    await expect.poll(() => modal.locator('[data-testid="upload-item"][data-state="uploading"]').count(), WAIT).toBe(1);
    await page.keyboard.press('Escape');
    await modal.getByTestId('upload-close-ask').waitFor(WAIT);
    expect(await modal.getByTestId('upload-close-ask').innerText()).toContain('1 file is still uploading. Closing the pop-up cancels it.');
    await modal.getByRole('button', { name: 'Cancel uploads' }).click();
    await expect.poll(() => page.getByTestId('upload-modal').count(), WAIT).toBe(0);
    await context.close();
  }, 300_000);
  it('leaving the list by Back while files upload keeps them: the pop-up opens again on the list, ready to try again', async () => {
    const { context, page } = await inboxWithUpload();
    const modal = page.getByTestId('upload-modal');
    // Within the app: the dashboard, then the inbox through the menu, where the pop-up opens
    await modal.getByRole('button', { name: 'Close' }).click();
    const menu = page.getByTestId('side-menu');
    await menu.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(/\/dashboard$/, WAIT);
    await menu.getByRole('link', { name: /^Inbox/ }).click();
    await page.waitForURL(/\/receipts\/inbox$/, WAIT);
    await page.getByRole('button', { name: 'ADD' }).click();
    await expect.poll(() => modal.count(), WAIT).toBe(1);
    const release = await holdStoragePuts(page);
    const files = await Promise.all(['left-1', 'left-2'].map(async (n) => ({ name: `${n}.pdf`, mimeType: 'application/pdf', buffer: await pdfNamed(n.toUpperCase()) })));
    await modal.locator('input[data-testid="upload-input"]').setInputFiles(files);
    await expect.poll(() => modal.locator('[data-testid="upload-item"][data-state="uploading"]').count(), WAIT).toBe(2);

    // The browser's Back goes to the dashboard: the pop-up goes with the list, and says where the files wait
    await page.goBack();
    await page.waitForURL(/\/dashboard$/, WAIT);
    await expect
      .poll(() => page.getByTestId('info-popup').allInnerTexts(), WAIT)
      .toContain('2 files did not finish uploading. They wait in the upload pop-up on the documents list.');
    await screenshot(page, 'upload-left-list');
    release();
    await page.unroute(() => true);

    // Back on the list, the pop-up is open again with the two files, and they upload when tried again
    await menu.getByRole('link', { name: /^Inbox/ }).click();
    await page.waitForURL(/\/receipts\/inbox$/, WAIT);
    await expect.poll(() => page.getByTestId('upload-modal').count(), WAIT).toBe(1);
    await expect.poll(() => modal.getByTestId('upload-summary').innerText(), WAIT).toBe('Your uploaded items (2 files, 2 failure)');
    expect(await modal.getByText('Not uploaded: you left the documents list before it finished').count()).toBe(2);
    await screenshot(page, 'upload-left-list-reopened');
    await modal.getByRole('button', { name: 'Try all again' }).click();
    await expect.poll(() => modal.locator('[data-testid="upload-item"][data-state="done"]').count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => documentNames('left-'), { timeout: 90_000, interval: 1000 }).toEqual(['left-1.pdf', 'left-2.pdf']);
    // Done closes it, and leaving the list then keeps nothing
    await modal.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByTestId('upload-modal').count(), WAIT).toBe(0);
    await page.goBack();
    await page.goForward();
    await expect.poll(() => page.getByTestId('page-title').innerText(), WAIT).toBe('Inbox');
    expect(await page.getByTestId('upload-modal').count()).toBe(0);
    await context.close();
  }, 300_000);
});
