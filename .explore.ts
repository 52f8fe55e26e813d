import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { registerUser } from './scripts/local/seed';
import { startLocalStack } from './scripts/local/stack';
import { launchBrowser } from './test/support/browser';
import { newUser } from './test/support/local-stack';

const dataDir = mkdtempSync(path.join(tmpdir(), 'explore-'));
const stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined });
const user = newUser('x');
await registerUser(stack, user);
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(`${stack.url}/signin`);
await page.locator('input[name="email"]').fill(user.email);
await page.locator('input[name="password"]').fill(user.password);
await page.getByRole('button', { name: 'LOG IN' }).click();
await page.waitForURL(/\/dashboard$/);
await page.goto(`${stack.url}/receipts/inbox`);
await page.waitForTimeout(3000);
await page.screenshot({ path: '/tmp/explore/inbox.png' });
for (const sel of ['.list-head', '.filter-bar', '.list-toolbar', '.filter-dates', '.switch', '.filter-types', '.filter-search']) {
  console.log(sel, JSON.stringify(await page.locator(sel).boundingBox()));
}
await browser.close();
await stack.stop();
process.exit(0);
