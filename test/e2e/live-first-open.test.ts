import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../scripts/local/seed';
import { screenshot, signInOn } from '../support/browser';
import { apiClient, newUser, signIn } from '../support/local-stack';
import { useBrowserStack } from '../support/e2e-stack';

const WAIT = { timeout: 15_000 };

/**
 * The screens read their data before the live channel listens (the sign-in reads the companies, then the socket is
 * made: a cold $connect function can take seconds). A change made in between sends its event to no one, so once the
 * channel opens, what was read before it is read again (LiveChannel's reloadAfterGap).
 */
describe('the live channel opening after the screen read its data, in Chromium', () => {
  const user = newUser('firstopen');

  const e2e = useBrowserStack('live-first-open');
  beforeAll(async () => {
    await registerUser(e2e.stack, user);
  }, 120_000);

  it('shows a change a colleague made while the channel was being made, without a reload', async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1440, height: 950 } });
    // the socket's handshake is held until the change is made
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.routeWebSocket(/./, async (ws) => {
      await held;
      ws.connectToServer();
    });
    let loads = 0;
    page.on('load', () => (loads += 1));
    await signInOn(page, e2e.stack.url, user);
    const card = page.getByTestId('company-card');
    await expect.poll(() => card.innerText(), WAIT).toContain(user.company);
    expect(await page.getByTestId('live-status').getAttribute('data-status')).not.toBe('open');

    // a colleague renames the company meanwhile: its event goes to no open channel of this page
    const api = apiClient(e2e.stack.apiUrl, await signIn(e2e.stack, user));
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
