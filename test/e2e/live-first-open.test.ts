import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { startLocalStack, type LocalStack } from '../../scripts/local/stack';
import { launchBrowser, screenshot, signInOn } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';

const WAIT = { timeout: 15_000 };

/**
 * The screens read their data before the live channel listens (the sign-in reads the companies, then the socket is
 * made: a cold $connect function can take seconds). A change made in between sends its event to no one, so once the
 * channel opens, what was read before it is read again (LiveChannel's reloadAfterGap).
 */
describe('the live channel opening after the screen read its data, in Chromium', () => {
  let stack: LocalStack;
  let browser: Browser;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'receipts-live-first-open-e2e-'));
  const user = newUser('firstopen');

  beforeAll(async () => {
    stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined });
    await registerUser(stack, user);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows a change a colleague made while the channel was being made, without a reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 950 } });
    // the socket's handshake is held until the change is made
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.routeWebSocket(/./, async (ws) => {
      await held;
      ws.connectToServer();
    });
    let loads = 0;
    page.on('load', () => (loads += 1));
    await signInOn(page, stack.url, user);
    const card = page.getByTestId('company-card');
    await expect.poll(() => card.innerText(), WAIT).toContain(user.company);
    expect(await page.getByTestId('live-status').getAttribute('data-status')).not.toBe('open');

    // a colleague renames the company meanwhile: its event goes to no open channel of this page
    const api = apiClient(stack.apiUrl, await signIn(stack, user));
    const companyId = ((await api.get('/companies')).body as { items: { company_id: string }[] }).items[0]!.company_id;
    expect((await api.put(`/company?company_id=${companyId}`, { name: 'Renamed while connecting', code: user.company_code })).status).toBe(200);

    release();
    await expect.poll(() => page.getByTestId('live-status').getAttribute('data-status'), WAIT).toBe('open');
    await expect.poll(() => card.innerText(), WAIT).toContain('Renamed while connecting');
    expect(loads).toBe(1);
    await screenshot(page, 'live-first-open-renamed');
    await page.close();
  });
});
