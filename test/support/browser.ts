import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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

/** Signs `user` in on `page` through the sign-in screen (LOG IN tapped on a touch page, clicked otherwise) and waits for the dashboard. */
export async function signInOn(page: Page, appUrl: string, user: { email: string; password: string }, press: 'click' | 'tap' = 'click'): Promise<Page> {
  await page.goto(`${appUrl}/signin`);
  await page.locator('input[name="email"]').fill(user.email);
  await page.locator('input[name="password"]').fill(user.password);
  await page.getByRole('button', { name: 'LOG IN' })[press]();
  await page.waitForURL(/\/dashboard$/, { timeout: 20_000 });
  return page;
}

/** A new page signed in through the sign-in screen, on the dashboard. */
export async function signInPage(
  browser: Browser,
  appUrl: string,
  user: { email: string; password: string },
  viewport = { width: 1440, height: 950 },
): Promise<Page> {
  return signInOn(await browser.newPage({ viewport }), appUrl, user);
}

interface AXNode {
  nodeId: string;
  ignored?: boolean;
  role?: { value?: string };
  name?: { value?: string };
  childIds?: string[];
  backendDOMNodeId?: number;
}

/** What Chromium's accessibility tree holds for the element of `selector`: its role, name, cells, buttons and text. */
export async function axOf(page: Page, selector: string) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: 0 })) as { root: { nodeId: number } };
    const { nodeId } = (await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })) as { nodeId: number };
    const { node } = (await cdp.send('DOM.describeNode', { nodeId })) as { node: { backendNodeId: number } };
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const own = nodes.find((n) => n.backendDOMNodeId === node.backendNodeId);
    const below: AXNode[] = [];
    const walk = (n: AXNode | undefined) => {
      for (const c of n?.childIds ?? []) {
        const child = byId.get(c);
        if (!child) continue;
        below.push(child);
        walk(child);
      }
    };
    walk(own);
    const shown = below.filter((n) => !n.ignored);
    return {
      role: own?.role?.value,
      name: own?.name?.value ?? '',
      cells: shown.filter((n) => n.role?.value === 'cell').length,
      buttons: shown.filter((n) => n.role?.value === 'button').map((n) => n.name?.value ?? ''),
      text: shown
        .filter((n) => n.role?.value === 'StaticText')
        .map((n) => n.name?.value ?? '')
        .join(' '),
    };
  } finally {
    await cdp.detach();
  }
}

/**
 * Every info pop-up the context's pages show, recorded as it appears (they go after 3 s): call before the page is
 * opened; `popups(page)` reads the texts seen so far, each once.
 */
export async function recordPopups(context: BrowserContext): Promise<(page: Page) => Promise<string[]>> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __popups: string[] }).__popups = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('.info-popups')) {
        const t = el.textContent?.trim();
        if (t && !seen.includes(t)) seen.push(t);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return (page) => page.evaluate(() => (window as unknown as { __popups: string[] }).__popups);
}
