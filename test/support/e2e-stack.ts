import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../scripts/local/stack';
import { launchBrowser } from './browser';

/** What a browser test runs against: the local stack on its own data folder, and Chromium. */
export interface BrowserStack {
  readonly stack: LocalStack;
  readonly browser: Browser;
  readonly dataDir: string;
}

/**
 * A browser test's frame, as hooks of the describe it is called in: before the describe's own hooks, a local stack
 * on a fresh data folder (`options` over the defaults: any free port, codes not printed) and Chromium; after them,
 * both stopped and the folder removed. The fields are there from the describe's first hook on.
 */
export function useBrowserStack(name: string, options: Partial<LocalStackOptions> = {}): BrowserStack {
  const dataDir = mkdtempSync(path.join(tmpdir(), `receipts-${name}-e2e-`));
  let stack: LocalStack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    stack = await startLocalStack({ dataDir, port: 0, onCode: () => undefined, ...options });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    get stack() {
      if (!stack) throw new Error('The local stack is not started yet: use it in a hook or a test.');
      return stack;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not launched yet: use it in a hook or a test.');
      return browser;
    },
  };
}
