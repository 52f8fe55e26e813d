import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleReport, type Manifest } from '../../scripts/bench/bundle';
import { registerUser } from '../../scripts/local/seed';
import { screenshot } from '../support/browser';
import { newUser } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const DIST = path.resolve(import.meta.dirname, '../../web/dist');

/** Route-level code splitting, seen from the browser: the first screen loads only its code; the others come later. */
describe('SPA weight in Chromium', () => {
  let manifest: Manifest;

  const e2e = useBrowserStack('spa-weight');
  beforeAll(async () => {
    manifest = JSON.parse(readFileSync(path.join(DIST, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  });

  const chunkOf = (src: string) => {
    const chunk = manifest[src];
    if (!chunk) throw new Error(`no chunk for ${src} in the manifest`);
    return `/${chunk.file}`;
  };

  it('loads the sign-in screen without the other screens, and fetches those once signed in', async () => {
    // Prepare
    const user = newUser('weight');
    await registerUser(e2e.stack, user);
    const page = await e2e.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // Act: the first screen
    await page.goto(`${e2e.stack.url}/signin`);
    await page.locator('input[name="email"]').waitFor();

    // Assess: the initial JavaScript (entry and static imports) and the sign-in screen, nothing of the others
    const initial = bundleReport(manifest, (file) => ({ file, bytes: 0, gzipBytes: 0 })).initial.map((c) => `/${c.file}`);
    for (const file of initial) expect(scripts).toContain(file);
    expect(scripts).toContain(chunkOf('src/features/auth/components/SignInPage.tsx'));
    const receipts = chunkOf('src/features/receipts/components/ReceiptsPage.tsx');
    const editReceipt = chunkOf('src/features/edit-receipt/components/EditReceiptPage.tsx');
    const masterData = chunkOf('src/features/master-data/components/MasterDataPage.tsx');
    for (const later of [receipts, editReceipt, masterData]) expect(scripts).not.toContain(later);
    await screenshot(page, 'spa-weight-signin');

    // Act: sign in
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });

    // Assess: once signed in, the other screens are fetched in the background (each its own chunk)
    await expect.poll(() => scripts.includes(receipts) && scripts.includes(editReceipt) && scripts.includes(masterData), { timeout: 20_000 }).toBe(true);
    await page.goto(`${e2e.stack.url}/receipts/inbox`);
    await expect.poll(() => page.locator('header').innerText(), { timeout: 20_000 }).toContain('Inbox');
    await expect.poll(() => page.getByTestId('spinner').count(), { timeout: 20_000 }).toBe(0);
    await screenshot(page, 'spa-weight-receipts');
    expect(errors).toEqual([]);
  });
});
