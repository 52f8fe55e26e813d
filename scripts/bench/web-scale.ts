/**
 * npm run bench:web-scale — the web app at a firm's year of data, in Chromium.
 *
 * Seeds a fresh temporary local-mode data dir through the product's own stores (documents with their search
 * index items, suppliers, customers, items, categories, the status counts, and one invoice of BENCH_LINES line
 * items, the newest document), starts the local stack on a free port serving web/dist, signs in as the demo user
 * in headless Chromium (the e2e tests' flags) and prints one line per measure:
 *   - documents list: first render from the Inbox link (ms, requests), scrolling to BENCH_ROWS rows (pages read,
 *     elements, JS heap after GC), a checkbox click and header Select all with those rows (ms, long tasks);
 *   - To Review (Flag needs a selection without archived documents): Select all, then the whole list, and
 *     Tools → Flag of it (ms, long tasks, React commits, requests to /companies and /total-documents);
 *   - the Lines pop-up of the big invoice: open (ms, elements), a key typed in row 151 (ms, long tasks), the
 *     autosave that follows (requests, bytes sent and received), Add row (ms, requests);
 *   - the edit screen's walk: the oldest archived document opened by its address (requests, the pager text) and
 *     one Next from a document deeper in the archive (requests, the pager before and after).
 * Times are wall times of one run (action until two frames after it): read them next to the counts, on the same
 * machine, never as thresholds. Long tasks come from PerformanceObserver('longtask'), requests from playwright's
 * page events, React commits from a stand-in devtools hook. A part the web app no longer matches prints
 * "NOT MEASURED: …", the others still run, and the exit code is 1.
 * Needs web/dist (npm run build:web, or any local start) and Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 * Env: BENCH_DOCS (3000), BENCH_SUPPLIERS (1000), BENCH_CUSTOMERS (300), BENCH_ITEMS (300), BENCH_LINES (300),
 * BENCH_ROWS (1000); BENCH_LARGE=1: the audit's sizes (8000 documents, 1500 suppliers, 500 customers, 500 items).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, CDPSession, Page, Request } from 'playwright-core';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { masterItems } from '../../lambdas/adapters/ddb/master-data-store';
import { batchWrite, tableName } from '../../lambdas/adapters/ddb/table-ops';
import { s3Files } from '../../lambdas/adapters/s3/files';
import { buildContentFromExtraction } from '../../lambdas/core/content/build';
import { toStored } from '../../lambdas/core/content/service';
import type { DocumentRecord } from '../../lambdas/core/documents/types';
import { newStakeholderRecord } from '../../lambdas/core/master-data/stakeholders';
import { LINE_ITEM_COLUMNS } from '../../shared/schemas/content';
import { launchBrowser } from '../../test/support/browser';
import { seededDocument } from '../../test/support/document-records';
import { categoryRecord, itemRecord } from '../../test/support/master-data-records';
import { accessTokenOf, DEMO_USER, registerUser } from '../local/seed';
import { startLocalStack, type LocalStack } from '../local/stack';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LARGE = process.env.BENCH_LARGE === '1';
const size = (name: string, normal: number, large: number) => Number(process.env[name] ?? (LARGE ? large : normal));
const DOCS = size('BENCH_DOCS', 3000, 8000);
const SUPPLIERS = size('BENCH_SUPPLIERS', 1000, 1500);
const CUSTOMERS = size('BENCH_CUSTOMERS', 300, 500);
const ITEMS = size('BENCH_ITEMS', 300, 500);
const LINES = size('BENCH_LINES', 300, 300);
const ROWS = size('BENCH_ROWS', 1000, 1000);
const CATEGORIES = 30;
/** The row of the Lines pop-up a key is typed in (1-based, as the pop-up numbers them). */
const KEY_ROW = Math.min(151, LINES);
const BIG = 'BIGINVOICE0000000000000000';
const docId = (i: number) => `DOC${String(i).padStart(23, '0')}`;

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// ---------------------------------------------------------------- seeding (the audit's approach)

interface Seeded {
  companyId: string;
  /** The oldest archived document (a receipt) and one about 10% down the archive list (newest first). */
  oldest: string;
  deep: string;
}

async function seed(stack: LocalStack): Promise<Seeded> {
  await registerUser(stack, DEMO_USER);
  const token = await accessTokenOf(stack, DEMO_USER);
  const get = async <T>(route: string) => (await (await fetch(`${stack.apiUrl}${route}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
  const company = (await get<{ items: { company_id: string; name: string; code: string }[] }>('/companies')).items[0]!;
  const companyId = company.company_id;
  const me = await get<{ user_id?: string; id?: string }>('/user').catch(() => ({}) as { user_id?: string; id?: string });
  const userId = me.user_id ?? me.id ?? 'demo';

  const SYL = ['ka', 'ro', 'mi', 'ne', 'tu', 'sa', 'li', 'po', 've', 'da', 'gi', 'zu', 'be', 'fo', 'ha', 'je', 'lu', 'pe', 'ri', 'so'];
  const word = (i: number) => {
    let n = i;
    let w = '';
    do {
      w += SYL[n % SYL.length];
      n = Math.floor(n / SYL.length);
    } while (n > 0);
    return w.charAt(0).toUpperCase() + w.slice(1);
  };
  const SUFFIX = ['UAB', 'AB', 'MB', 'Trading', 'Logistics', 'Foods', 'Services', 'Group', 'Baltic', 'Auto'];
  const t0 = performance.now();
  const cats = Array.from({ length: CATEGORIES }, (_, i) =>
    categoryRecord(companyId, { id: `CAT${String(i).padStart(23, '0')}`, name: `Category ${word(i + 400)} ${i}`, category_code: String(6000 + i * 10) }),
  );
  const stakeholders = Array.from({ length: SUPPLIERS + CUSTOMERS }, (_, i) => {
    const rec = newStakeholderRecord(
      { ids: { newId: () => `SH${String(i).padStart(24, '0')}` }, clock: { now: () => new Date(Date.UTC(2025, 0, 1) + i * 1000) } },
      companyId,
      i < SUPPLIERS ? 'supplier' : 'customer',
      { name: `${word(i + 1000)} ${word(i * 7 + 3)} ${SUFFIX[i % 10]}`, code: String(300000000 + i), vat_id: `LT${100000000000 + i}`, city: 'Vilnius', country: 'LT' },
    );
    return { ...rec, category_id: cats[i % CATEGORIES]!.id };
  });
  const items = Array.from({ length: ITEMS }, (_, i) => itemRecord(companyId, `Item ${word(i + 2000)} ${i}`, [word(i + 2000).toLowerCase(), `code${i}`]));
  const mdItems = [...cats, ...stakeholders, ...items].flatMap((r) => masterItems(r));
  for (let i = 0; i < mdItems.length; i += 500) await batchWrite(mdItems.slice(i, i + 500).map((Item) => ({ PutRequest: { Item } })));
  const mdSeconds = (performance.now() - t0) / 1000;

  const t1 = performance.now();
  const START = Date.UTC(2025, 0, 1);
  const SPAN = 360 * 86400_000;
  const members = [
    { name: 'Demo', surname: 'User' },
    { name: 'Rasa', surname: 'Colleague' },
    { name: 'Jonas', surname: 'Accountant' },
    { name: 'Ona', surname: 'Bookkeeper' },
  ];
  const statuses = ['review', 'ready', 'archive', 'archive', 'review', 'ready', 'archive', 'rejected', 'review', 'archive'] as const;
  const counts: Record<'receipt' | 'invoice', Record<string, number>> = { receipt: {}, invoice: {} };
  const docs: DocumentRecord[] = [];
  const customer = (i: number) => stakeholders[SUPPLIERS + (i % Math.max(1, CUSTOMERS))] ?? stakeholders[0]!;
  for (let i = 0; i < DOCS; i++) {
    const created = new Date(START + Math.floor((i * SPAN) / DOCS)).toISOString();
    const type = i % 3 === 0 ? 'invoice' : 'receipt';
    const status = i % 97 === 5 ? 'failed' : statuses[i % 10]!;
    const sh = type === 'invoice' ? customer(i) : stakeholders[i % Math.max(1, SUPPLIERS)]!;
    counts[type][status] = (counts[type][status] ?? 0) + 1;
    docs.push(
      seededDocument({
        receipt_id: docId(i),
        scope: `C#${companyId}`,
        created_at: created,
        company_name: company.name,
        company_code: company.code,
        user_id: userId,
        user: members[i % 4]!,
        receipt_type: type,
        status,
        flag: i % 17 === 0,
        original_file_name: `scan-${i}.pdf`,
        counterparty_name: sh.name,
        stakeholder_id: sh.id,
        document_number: `INV-${i}`,
        issue_date: created.slice(0, 10),
        total: ((i % 500) + 0.99).toFixed(2),
        category: cats[i % CATEGORIES]!.name,
        version: 2,
        pages: [{ page: 1, document: `scan-${i}.pdf`, image_key: null, status: 'processed', width: 1200, height: 1700 }],
        charged_month: created.slice(0, 7),
      }),
    );
  }
  // the big invoice: the newest document, LINES line items, its content JSON in S3
  const at = (value: string, row: number) => ({ value, page: 1, box: { left: 0.1, top: ((row % 40) + 1) / 45, width: 0.2, height: 0.01 }, confidence: 96 });
  const extracted = {
    customer_name: at(customer(0).name, 0),
    document_id: at(`BIG-${LINES}`, 0),
    issue_date: at('2025-12-28', 0),
    amount_total: at('3750.00', 0),
    currency: at('EUR', 0),
    vat_lines: [],
    line_items: Array.from({ length: LINES }, (_, row) => Object.fromEntries(LINE_ITEM_COLUMNS.map((c) => [c, at(c === 'description' ? `Prekė ${row}` : String(row + 1), row)]))),
  };
  const content = buildContentFromExtraction(extracted as unknown as Parameters<typeof buildContentFromExtraction>[0]);
  const contentKey = `documents/${BIG}/content/seed.json`;
  await s3Files.putJson(contentKey, toStored(content));
  const imageKey = `documents/${BIG}/pages/1.jpg`;
  await s3Files.put(imageKey, readFileSync(path.join(ROOT, 'scripts/local/demo/shop-receipt.jpg')), 'image/jpeg');
  counts.invoice.review = (counts.invoice.review ?? 0) + 1;
  docs.push(
    seededDocument({
      receipt_id: BIG,
      scope: `C#${companyId}`,
      created_at: '2025-12-30T12:00:00.000Z',
      company_name: company.name,
      company_code: company.code,
      user_id: userId,
      user: members[0]!,
      receipt_type: 'invoice',
      status: 'review',
      original_file_name: `big-invoice-${LINES}-lines.pdf`,
      counterparty_name: customer(0).name,
      document_number: `BIG-${LINES}`,
      issue_date: '2025-12-28',
      total: '3750.00',
      version: 2,
      content_key: contentKey,
      pages: [{ page: 1, document: `big-invoice-${LINES}-lines.pdf`, image_key: imageKey, status: 'processed', width: 800, height: 1100 }],
      charged_month: '2025-12',
    }),
  );
  const docItems = docs.flatMap((d) => documentItemsWithIndex(d));
  for (let i = 0; i < docItems.length; i += 500) await batchWrite(docItems.slice(i, i + 500).map((Item) => ({ PutRequest: { Item } })));
  for (const type of ['receipt', 'invoice'] as const) {
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keys.companyCounts(companyId, type), ...counts[type] } }));
  }
  console.log(
    `seeded: ${int(docs.length)} documents (${int(docItems.length)} items) in ${((performance.now() - t1) / 1000).toFixed(1)} s; ` +
      `${int(SUPPLIERS)} suppliers, ${int(CUSTOMERS)} customers, ${int(ITEMS)} items, ${CATEGORIES} categories (${int(mdItems.length)} items) in ${mdSeconds.toFixed(1)} s; ` +
      `one invoice of ${LINES} lines`,
  );
  // archived receipts are the documents i ≡ 2 (mod 30) that are not 'failed'; the oldest is document 2
  const archivedReceipts = docs.filter((d) => d.status === 'archive' && d.receipt_type === 'receipt').map((d) => d.receipt_id);
  return { companyId, oldest: archivedReceipts[0]!, deep: archivedReceipts[Math.floor(archivedReceipts.length * 0.9)] ?? archivedReceipts[0]! };
}

// ---------------------------------------------------------------- the browser session

interface Logged {
  method: string;
  route: string;
  sent: number;
  received: number;
  t: number;
}

/** Long tasks and React commits, counted in the page from its first script on. */
const INIT_SCRIPT = `
window.__lt = [];
window.__commits = 0;
window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true, renderers: new Map(), inject: function () { return 1; },
  onCommitFiberRoot: function () { window.__commits++; }, onCommitFiberUnmount: function () {}, onPostCommitFiberRoot: function () {}, checkDCE: function () {},
};
try {
  new PerformanceObserver(function (list) { for (const e of list.getEntries()) window.__lt.push(e.duration); }).observe({ type: 'longtask', buffered: true });
} catch (e) {}
`;

interface Measured {
  ms: number;
  longTasks: number;
  longMax: number;
  commits: number;
  requests: Logged[];
}

class Session {
  readonly log: Logged[] = [];
  private pending = new Set<Promise<void>>();
  private lastActivity = 0;
  private constructor(
    readonly browser: Browser,
    readonly page: Page,
    private readonly cdp: CDPSession,
  ) {}

  static async start(appUrl: string): Promise<Session> {
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 950 } });
      await context.addInitScript({ content: INIT_SCRIPT });
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      await page.goto(`${appUrl}/signin`);
      await page.locator('input[name="email"]').fill(DEMO_USER.email);
      await page.locator('input[name="password"]').fill(DEMO_USER.password);
      await page.getByRole('button', { name: 'LOG IN' }).click();
      await page.waitForURL(/\/dashboard$/, { timeout: 60_000 });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const session = new Session(browser, page, cdp);
      session.listen();
      return session;
    } catch (error) {
      await browser.close();
      throw error;
    }
  }

  private listen() {
    const api = (r: Request) => new URL(r.url()).pathname.startsWith('/api/');
    this.page.on('request', (r) => {
      if (api(r)) this.lastActivity = performance.now();
    });
    const done = (r: Request) => {
      if (!api(r)) return;
      this.lastActivity = performance.now();
      const t = performance.now();
      const p = (async () => {
        const sizes = await r.sizes().catch(() => ({ requestBodySize: r.postDataBuffer()?.length ?? 0, responseBodySize: 0 }));
        const route = new URL(r.url()).pathname.slice('/api'.length).replace(/\/(DOC|BIG|SH|CAT)[A-Z0-9]+/g, '/{id}');
        this.log.push({ method: r.method(), route, sent: sizes.requestBodySize, received: sizes.responseBodySize, t });
      })();
      this.pending.add(p);
      void p.finally(() => this.pending.delete(p));
    };
    this.page.on('requestfinished', done);
    this.page.on('requestfailed', done);
  }

  /** Waits until no API request started or ended for `quietMs` (at most `maxMs`), and the log has them all. */
  async quiet(quietMs = 1000, maxMs = 60_000) {
    const end = performance.now() + maxMs;
    this.lastActivity = Math.max(this.lastActivity, performance.now());
    while (performance.now() < end && performance.now() - this.lastActivity < quietMs) await this.page.waitForTimeout(200);
    await Promise.all([...this.pending]);
  }

  /** Two frames after the action: what the user sees once the browser painted it. */
  async settle() {
    await this.page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));
  }

  /** Wall time of `action` until two frames after it, its long tasks and React commits; its requests once `after` returns. */
  async measure(action: () => Promise<unknown>, after: () => Promise<void> = () => this.quiet(500, 5000)): Promise<Measured> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __lt: number[]; __commits: number };
      w.__lt = [];
      w.__commits = 0;
    });
    const mark = performance.now();
    await action();
    await this.settle();
    const ms = performance.now() - mark;
    const [lt, commits] = await this.page.evaluate(() => {
      const w = window as unknown as { __lt: number[]; __commits: number };
      return [w.__lt, w.__commits] as const;
    });
    await after();
    return { ms, longTasks: lt.length, longMax: Math.max(0, ...lt), commits, requests: this.log.filter((r) => r.t >= mark) };
  }

  async elements(): Promise<number> {
    return this.page.evaluate(() => document.getElementsByTagName('*').length);
  }

  async heapMB(): Promise<number> {
    await this.cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
    const { metrics } = await this.cdp.send('Performance.getMetrics');
    return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1048576;
  }

  async close() {
    await this.browser.close();
  }
}

const lt = (m: Measured) => `${m.longTasks} long task${m.longTasks === 1 ? '' : 's'}${m.longTasks ? ` (max ${int(m.longMax)} ms)` : ''}`;
const count = (reqs: Logged[], test: (r: Logged) => boolean) => reqs.filter(test).length;
/** "12 requests (GET /receipts 10, GET /companies 2)" */
function requests(reqs: Logged[]): string {
  const by = new Map<string, number>();
  for (const r of reqs) by.set(`${r.method} ${r.route}`, (by.get(`${r.method} ${r.route}`) ?? 0) + 1);
  const parts = [...by].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`);
  return `${reqs.length} request${reqs.length === 1 ? '' : 's'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

// ---------------------------------------------------------------- the measures

async function measureList(s: Session) {
  const page = s.page;
  const rows = page.locator('[data-testid=receipt-row]');
  await page.locator('[data-testid=badge-inbox]').waitFor().catch(() => undefined);
  await s.quiet();

  const first = await s.measure(async () => {
    await page.getByRole('link', { name: /^Inbox/ }).click();
    await rows.first().waitFor({ timeout: 120_000 });
  });
  console.log(`documents list: first render ${int(first.ms)} ms, ${await rows.count()} rows, ${requests(first.requests)}, ${lt(first)}`);

  // infinite scroll to ROWS rows
  const mark = performance.now();
  const pageMs: number[] = [];
  let longTasks = 0;
  for (let n = await rows.count(); n < ROWS; ) {
    const before = n;
    const step = await s.measure(async () => {
      await page.locator('.list-sentinel').scrollIntoViewIfNeeded();
      await page.waitForFunction((k) => document.querySelectorAll('[data-testid=receipt-row]').length > k, before, { timeout: 60_000 });
    }, async () => undefined);
    pageMs.push(step.ms);
    longTasks += step.longTasks;
    n = await rows.count();
  }
  await s.quiet();
  const scrolled = s.log.filter((r) => r.t >= mark);
  const n = await rows.count();
  const pages = count(scrolled, (r) => r.method === 'GET' && r.route === '/receipts');
  const sorted = [...pageMs].sort((a, b) => a - b);
  console.log(
    `documents list: scrolled to ${int(n)} rows: ${int(await s.elements())} elements, JS heap ${(await s.heapMB()).toFixed(1)} MB; ` +
      `${pages} list pages read, ${int(pageMs.length)} scroll steps (median ${int(sorted[Math.floor(sorted.length / 2)] ?? 0)} ms, last ${int(pageMs.at(-1) ?? 0)} ms), ` +
      `${longTasks} long tasks while scrolling, ${requests(scrolled)}`,
  );

  // one row's checkbox, with the rows loaded
  const box = rows.nth(3).locator('input[type=checkbox]');
  await box.scrollIntoViewIfNeeded();
  const click = await s.measure(async () => {
    await box.click();
    await page.getByTestId('selection-count').waitFor();
  });
  console.log(`documents list: checkbox click at ${int(n)} rows: ${int(click.ms)} ms, ${lt(click)}, ${click.commits} React commits`);
  await box.click();
  await page.getByTestId('selection-count').waitFor({ state: 'detached' });
  await s.quiet();

  // header Select all of the loaded rows, and off again
  const selectAll = page.getByLabel('Select all');
  await selectAll.scrollIntoViewIfNeeded();
  const all = await s.measure(async () => {
    await selectAll.click();
    await page.waitForFunction((k) => (document.querySelector('[data-testid=selection-count]')?.textContent ?? '').startsWith(String(k)), n);
  });
  const selected = (await page.getByTestId('selection-count').textContent())?.trim() ?? '?';
  console.log(`documents list: Select all (${selected}): ${int(all.ms)} ms, ${lt(all)}, ${all.commits} React commits`);
  await selectAll.click();
  await page.getByTestId('selection-count').waitFor({ state: 'detached' });
  await s.quiet();
}

/** Tools → Flag needs a selection without archived documents: To Review, header Select all, then the whole list. */
async function measureFlag(s: Session) {
  const page = s.page;
  const rows = page.locator('[data-testid=receipt-row]');
  await page.getByRole('link', { name: /^To Review/ }).click();
  await page.waitForURL(/review/);
  await rows.first().waitFor();
  await s.quiet();
  await page.getByLabel('Select all').click();
  await page.getByTestId('selection-count').waitFor();
  const whole = await s.measure(async () => {
    await page.getByTestId('select-whole-list').click();
    await page.getByTestId('select-all-bar').filter({ hasText: /The first|All / }).waitFor({ timeout: 300_000 });
  });
  const selected = (await page.getByTestId('selection-count').textContent())?.trim() ?? '?';
  console.log(`To Review: select the whole list (${selected}): ${int(whole.ms)} ms, ${lt(whole)}, ${whole.commits} React commits, ${requests(whole.requests)}`);
  const flag = await s.measure(
    async () => {
      await page.getByRole('button', { name: 'Tools' }).click();
      await page.getByRole('menuitem', { name: 'Flag', exact: true }).click();
      await page.locator('[data-testid=info-popup]').filter({ hasText: /^Flagged/ }).first().waitFor({ timeout: 300_000 });
    },
    () => s.quiet(1500, 60_000),
  );
  const companies = count(flag.requests, (r) => r.route === '/companies');
  const totals = count(flag.requests, (r) => r.route === '/receipts/total-documents');
  const bulk = count(flag.requests, (r) => r.route === '/receipts/bulk');
  console.log(
    `To Review: Tools → Flag of ${selected}: ${int(flag.ms)} ms until the notice, ${lt(flag)}, ${flag.commits} React commits; ` +
      `${bulk} bulk calls, ${companies} GET /companies, ${totals} GET /receipts/total-documents; ${requests(flag.requests)}`,
  );
}

async function measureLines(s: Session, appUrl: string, seeded: Seeded) {
  const page = s.page;
  await page.goto(`${appUrl}/edit-receipt/${BIG}?company_id=${seeded.companyId}`);
  await page.getByTestId('field-form').waitFor({ timeout: 120_000 });
  await s.quiet();
  const table = page.locator('.er-table');
  const open = await s.measure(async () => {
    await page.getByTestId('tool-line-items').click();
    await page.locator('[data-testid=popup-row]').first().waitFor({ timeout: 120_000 });
  });
  const drawn = await page.locator('[data-testid=popup-row]').count();
  console.log(
    `lines popup: open ${int(open.ms)} ms, ${int(await s.elements())} elements (${drawn} of ${LINES} rows drawn), JS heap ${(await s.heapMB()).toFixed(1)} MB, ${lt(open)}`,
  );

  // a key typed at the end of the description of row KEY_ROW (aria-rowindex counts the header row as 1)
  const cell = page.locator(`input[name$=".description"][aria-label$=", row ${KEY_ROW}"]`);
  await page.locator('.er-table-wrap').evaluate((wrap, target) => {
    const first = wrap.querySelector('[data-testid=popup-row]');
    wrap.scrollTop = Math.max(0, (target - 5) * (first?.getBoundingClientRect().height ?? 37));
  }, KEY_ROW);
  await cell.waitFor({ state: 'attached', timeout: 15_000 });
  // a click as the user does; the focus alone where a click cannot land (what covers the cell is the app's matter)
  await cell.click({ timeout: 10_000 }).catch(() => cell.focus());
  await page.keyboard.press('End');
  await s.settle();
  const key = await s.measure(() => page.keyboard.press('x'), async () => undefined);
  console.log(`lines popup: key in row ${KEY_ROW}: ${int(key.ms)} ms, ${lt(key)}, ${key.commits} React commits`);

  // the autosave the key starts (after its delay), until its requests settle
  const save = await s.measure(
    () => page.waitForResponse((r) => r.request().method() === 'PUT' && /\/content$/.test(new URL(r.url()).pathname), { timeout: 60_000 }),
    () => s.quiet(1500, 30_000),
  );
  const sent = save.requests.reduce((sum, r) => sum + r.sent, 0);
  const received = save.requests.reduce((sum, r) => sum + r.received, 0);
  console.log(`lines popup: one autosave: ${requests(save.requests)}; ${kb(sent)} sent, ${kb(received)} received`);

  const add = await s.measure(
    async () => {
      await page.getByRole('button', { name: 'Add row' }).click();
      await page.waitForFunction((k) => document.querySelector('.er-table')?.getAttribute('aria-rowcount') === String(k), LINES + 2, { timeout: 60_000 });
    },
    () => s.quiet(1500, 30_000),
  );
  console.log(`lines popup: Add row: ${int(add.ms)} ms (rows ${Number(await table.getAttribute('aria-rowcount')) - 1}), ${lt(add)}, ${requests(add.requests)}`);
  await page.keyboard.press('Escape');
}

async function measureWalk(s: Session, appUrl: string, seeded: Seeded) {
  const page = s.page;
  const pager = page.getByTestId('pager-position');
  const openOld = await s.measure(
    async () => {
      await page.goto(`${appUrl}/edit-receipt/${seeded.oldest}?company_id=${seeded.companyId}`);
      await page.getByTestId('field-form').waitFor({ timeout: 120_000 });
    },
    () => s.quiet(1500, 120_000),
  );
  const next = page.getByRole('button', { name: 'Next document' });
  const prev = page.getByRole('button', { name: 'Previous document' });
  console.log(
    `walk: oldest archived document opened by address: pager "${await pager.textContent()}" (next ${(await next.isDisabled()) ? 'disabled' : 'enabled'}, ` +
      `previous ${(await prev.isDisabled()) ? 'disabled' : 'enabled'}), ${int(openOld.ms)} ms until the form, ${requests(openOld.requests)} until quiet`,
  );

  await page.goto(`${appUrl}/edit-receipt/${seeded.deep}?company_id=${seeded.companyId}`);
  await page.getByTestId('field-form').waitFor({ timeout: 120_000 });
  await s.quiet(1500, 120_000);
  const before = (await pager.textContent()) ?? '';
  if (await next.isDisabled()) {
    console.log(`walk: Next from an archived document 10% down the archive list: pager "${before}", Next disabled`);
    return;
  }
  const step = await s.measure(
    async () => {
      await next.click();
      await page.waitForFunction((b) => document.querySelector('[data-testid=pager-position]')?.textContent !== b, before, { timeout: 60_000 });
    },
    () => s.quiet(1000, 60_000),
  );
  console.log(`walk: one Next (pager "${before}" → "${await pager.textContent()}"): ${int(step.ms)} ms, ${requests(step.requests)} until quiet`);
}

async function main() {
  const webRoot = path.join(ROOT, 'web', 'dist');
  if (!existsSync(path.join(webRoot, 'index.html'))) {
    console.error('web/dist is missing: build the web app first (npm run build:web, or flock /tmp/webbuild.lock npm run build:web).');
    process.exit(2);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-web-scale-'));
  let stack: LocalStack | undefined;
  let session: Session | undefined;
  const failed: string[] = [];
  try {
    stack = await startLocalStack({ dataDir, port: 0, webRoot, onCode: () => undefined, smtpPort: 0, mailCatcherPort: 0 });
    const seeded = await seed(stack);
    console.log(`local mode at ${stack.url}, web build of ${new Date(statSync(path.join(webRoot, 'index.html')).mtimeMs).toISOString()}`);
    session = await Session.start(stack.url);
    const s = session;
    const url = stack.url;
    // each part on its own: one the web app changed under it says so and the others still run
    const parts: Array<[string, () => Promise<void>]> = [
      ['documents list', () => measureList(s)],
      ['Flag of a selection', () => measureFlag(s)],
      ['lines popup', () => measureLines(s, url, seeded)],
      ['walk', () => measureWalk(s, url, seeded)],
    ];
    for (const [name, part] of parts) {
      try {
        await part();
      } catch (error) {
        failed.push(name);
        console.log(`${name}: NOT MEASURED: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
      }
    }
  } finally {
    await session?.close().catch(() => undefined);
    await stack?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed.length) {
    console.error(`not measured: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
