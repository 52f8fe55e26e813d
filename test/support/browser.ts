import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../e2e/output');

/** Debian's Chromium, headless (playwright gives each launch a fresh profile), with the flags this machine needs (no background networking). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A new page signed in through the sign-in screen, on the dashboard. */
export async function signInPage(
  browser: Browser,
  appUrl: string,
  user: { email: string; password: string },
  viewport = { width: 1440, height: 950 },
): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(`${appUrl}/signin`);
  await page.locator('input[name="email"]').fill(user.email);
  await page.locator('input[name="password"]').fill(user.password);
  await page.getByRole('button', { name: 'LOG IN' }).click();
  await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
  return page;
}
