/**
 * The handler bundle: one esbuild run for every entry point, ES modules that load on Node 22 from their
 * own folder (nothing resolved from the repository's node_modules), native packages shipped with a Linux
 * binary for the function's architecture, local-only packages never shipped, and grants derived from the
 * AWS SDK clients in each bundle.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, openSync, readdirSync, readSync, closeSync } from 'node:fs';
import { arch, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ONLY_EXTERNALS, bundleHandlers, type HandlerBundle } from '../../infra/build/bundle-handlers';
import { allHandlers, handlerEntries } from '../../infra/build/handler-entries';
import { REPO_ROOT } from '../../infra/build/paths';
import { LAMBDA_ARCHITECTURE, packageNameOf, PLATFORM_PACKAGES_DIR, type LambdaArchitecture } from '../../infra/build/runtime-packages';
import { awsNeedsOf } from '../../infra/constructs/grants';
import { SYNTH_TIMEOUT_MS, removeTempDirs, tempDir, testBundle } from './synth';

// The isolated copies of every bundle take a while to remove.
afterAll(removeTempDirs, 120_000);

const HOST_ARCH = arch() === 'arm64' ? 'arm64' : arch() === 'x64' ? 'x86_64' : 'other';
/** The Lambda architecture that is not this machine's. */
const OTHER_ARCH: LambdaArchitecture = HOST_ARCH === 'arm64' ? 'x86_64' : 'arm64';

/** The CPU an ELF shared object (a .node addon, a .so) is built for, from its header's e_machine. */
function elfMachine(file: string): 'arm64' | 'x86_64' | 'other' {
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  if (header.readUInt32BE(0) !== 0x7f454c46) return 'other';
  const machine = header.readUInt16LE(18);
  return machine === 183 ? 'arm64' : machine === 62 ? 'x86_64' : 'other';
}

/** Files under a folder whose name matches. */
function filesMatching(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesMatching(full, pattern));
    else if (pattern.test(entry.name)) out.push(full);
  }
  return out;
}
const FIXTURES = join(REPO_ROOT, 'test', 'infra', 'fixtures', 'lambdas');
const HANDLER_ENV = {
  TABLE_NAME: 'bundle-test-table',
  DOCUMENTS_BUCKET: 'bundle-test-documents',
  USER_POOL_ID: 'eu-west-1_Test',
  USER_POOL_CLIENT_ID: 'test-client',
  WS_CALLBACK_URL: 'https://example.execute-api.eu-west-1.amazonaws.com/live',
  STAGE: 'aws',
  RECOGNISER: 'textract',
  AWS_REGION: 'eu-west-1',
  LOG_LEVEL: 'error',
};

/** Copies handler folders out of the repository, so bare imports cannot fall back to its node_modules. */
function isolatedCopies(bundle: HandlerBundle, handlers: readonly string[]): Record<string, string> {
  const root = tempDir('receipts-lambda-');
  return Object.fromEntries(
    handlers.map((h) => {
      const dest = join(root, h.split('/').join('__'));
      cpSync(bundle.get(h).dir, dest, { recursive: true });
      return [h, join(dest, 'index.mjs')];
    }),
  );
}

/** Imports each module in a fresh `node` process (as the Lambda runtime does) and reports what it exports. */
function loadInNode(files: Record<string, string>, call?: { handler: string; event: unknown }): Record<string, string> {
  const script = `
    const files = ${JSON.stringify(files)};
    const call = ${JSON.stringify(call ?? null)};
    const out = {};
    for (const [name, file] of Object.entries(files)) {
      try {
        const mod = await import(file);
        out[name] = typeof mod.handler;
        if (call && call.handler === name) out['result:' + name] = JSON.stringify(await mod.handler(call.event));
      } catch (error) {
        out[name] = 'error: ' + (error && error.message);
      }
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...HANDLER_ENV },
    encoding: 'utf8',
    // About 60 handlers, each importing its own bundle (about 1 s each on a busy 2-core machine).
    timeout: 200_000,
  });
  return JSON.parse(stdout) as Record<string, string>;
}

describe('bundle of the product handlers', () => {
  let bundle: HandlerBundle;
  /** The handlers that ship native packages, bundled for this machine so that they can run here. */
  let hostBundle: HandlerBundle;
  const handlers = allHandlers(handlerEntries());
  beforeAll(async () => {
    bundle = await testBundle();
    const natives = handlers.filter((h) => bundle.get(h).shippedPackages.length > 0);
    hostBundle = await bundleHandlers({ handlers: natives, architecture: HOST_ARCH === 'other' ? LAMBDA_ARCHITECTURE : HOST_ARCH });
  }, SYNTH_TIMEOUT_MS);

  it('bundles every entry point of shared/routes.ts into its own folder with index.mjs', () => {
    expect(Object.keys(bundle.handlers).sort()).toEqual(handlers);
    for (const h of handlers) expect(existsSync(join(bundle.get(h).dir, 'index.mjs')), h).toBe(true);
  });

  it('every handler loads as an ES module on Node from an isolated copy and exports a handler function', () => {
    const plain = handlers.filter((h) => bundle.get(h).shippedPackages.length === 0);
    const natives = Object.keys(hostBundle.handlers);
    const result = { ...loadInNode(isolatedCopies(bundle, plain)), ...(HOST_ARCH === 'other' ? {} : loadInNode(isolatedCopies(hostBundle, natives))) };
    const loaded = HOST_ARCH === 'other' ? plain : handlers;
    expect(result).toEqual(Object.fromEntries(loaded.map((h) => [h, 'function'])));
  }, 240_000);

  it('ships native packages only with a Lambda (linux, glibc) binary for the function architecture', () => {
    for (const built of Object.values(bundle.handlers)) {
      const modules = join(built.dir, 'node_modules');
      // One architecture for every function, whatever machine bundles them.
      expect(built.architecture, built.handler).toBe(LAMBDA_ARCHITECTURE);
      if (built.shippedPackages.length === 0) {
        expect(existsSync(modules), built.handler).toBe(false);
        continue;
      }
      for (const pkg of built.shippedPackages) expect(existsSync(join(modules, pkg, 'package.json')), `${built.handler}: ${pkg}`).toBe(true);
      const cpu = built.architecture === 'arm64' ? 'arm64' : 'x64';
      if (built.shippedPackages.includes('sharp')) {
        expect(existsSync(join(modules, '@img', `sharp-linux-${cpu}`)), built.handler).toBe(true);
        expect(existsSync(join(modules, '@img', `sharp-linuxmusl-${cpu}`)), built.handler).toBe(false);
      }
      if (built.shippedPackages.includes('@napi-rs/canvas')) {
        expect(existsSync(join(modules, '@napi-rs', `canvas-linux-${cpu}-gnu`)), built.handler).toBe(true);
      }
    }
  });

  it('never ships the local-only OCR packages', () => {
    for (const built of Object.values(bundle.handlers)) {
      const modules = join(built.dir, 'node_modules');
      for (const pattern of LOCAL_ONLY_EXTERNALS) {
        const name = pattern.replace(/\/\*$/, '');
        expect(existsSync(join(modules, name)), `${built.handler} ships ${name}`).toBe(false);
      }
    }
  });

  it('the processing job ships its page renderer packages (sharp, @napi-rs/canvas, pdfjs-dist)', () => {
    const job = handlerEntries().jobs.processDocument;
    expect(job).toBeDefined();
    expect(bundle.get(job!).shippedPackages).toEqual(expect.arrayContaining(['sharp', '@napi-rs/canvas', 'pdfjs-dist']));
    // The font data of the standard PDF fonts: without it, text in Helvetica, Times or Courier that a PDF does not embed renders blank.
    expect(existsSync(join(bundle.get(job!).dir, 'node_modules', 'pdfjs-dist', 'standard_fonts', 'LiberationSans-Regular.ttf'))).toBe(true);
  });

  it('bundles the processing job for the other CPU architecture than this machine’s, with that architecture’s sharp and canvas binaries', async () => {
    const job = handlerEntries().jobs.processDocument!;
    const other = await bundleHandlers({ handlers: [job], architecture: OTHER_ARCH, root: tempDir('receipts-other-arch-') });
    const built = other.get(job);
    expect(built.architecture).toBe(OTHER_ARCH);
    const modules = join(built.dir, 'node_modules');
    const cpu = OTHER_ARCH === 'arm64' ? 'arm64' : 'x64';
    const sharpAddon = filesMatching(join(modules, '@img', `sharp-linux-${cpu}`, 'lib'), /^sharp-linux-.*\.node$/)[0] ?? 'none';
    const libvips = filesMatching(join(modules, '@img', `sharp-libvips-linux-${cpu}`, 'lib'), /^libvips-cpp\.so/);
    const canvasAddon = filesMatching(join(modules, '@napi-rs', `canvas-linux-${cpu}-gnu`), /\.node$/);
    expect(existsSync(sharpAddon)).toBe(true);
    expect(libvips.length).toBeGreaterThan(0);
    expect(canvasAddon.length).toBeGreaterThan(0);
    for (const file of [sharpAddon, ...libvips, ...canvasAddon]) expect(elfMachine(file), file).toBe(OTHER_ARCH);
    // No binary of this machine's architecture is shipped with it …
    expect(filesMatching(modules, /\.node$/).filter((f) => elfMachine(f) !== OTHER_ARCH)).toEqual([]);
    // … and the project's own node_modules was not touched: the other platform's packages live in their own folder.
    expect(existsSync(join(REPO_ROOT, 'node_modules', '@img', `sharp-linux-${cpu}`))).toBe(false);
    expect(existsSync(join(PLATFORM_PACKAGES_DIR))).toBe(true);
  }, SYNTH_TIMEOUT_MS);

  it('the processing job reads office files with its bundled Textract recogniser, from an isolated copy, without calling Textract', () => {
    const job = handlerEntries().jobs.processDocument!;
    // The recogniser's chunk loads sharp (through the PDF helper): it runs from the bundle for this machine.
    expect(hostBundle.get(job).architecture).toBe(HOST_ARCH);
    const [dir] = Object.values(isolatedCopies(hostBundle, [job])).map((f) => join(f, '..'));
    const chunk = readdirSync(join(dir!, 'chunks')).find((f) => /^textract-.*\.mjs$/.test(f));
    expect(chunk).toBeDefined();
    const fixtures = join(REPO_ROOT, 'test', 'fixtures', 'recognition');
    const script = `
      import { readFileSync } from 'node:fs';
      const { TextractRecogniser } = await import(${JSON.stringify(join(dir!, 'chunks', chunk!))});
      const r = new TextractRecogniser({ client: { send: async () => { throw new Error('Textract called'); } } });
      const out = {};
      for (const file of ['invoice-lt.docx', 'invoice-lt.xlsx', 'invoice-lt.odt', 'invoice-lt.rtf', 'invoice-en.doc']) {
        const res = await r.analyzeExpense({ bytes: new Uint8Array(readFileSync(${JSON.stringify(fixtures)} + '/' + file)), mime: 'application/octet-stream', fileName: file });
        out[file] = res.ExpenseDocuments[0].SummaryFields.find((f) => f.Type.Text === 'INVOICE_RECEIPT_ID')?.ValueDetection.Text;
      }
      process.stdout.write(JSON.stringify(out));
    `;
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...HANDLER_ENV }, encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({ 'invoice-lt.docx': 'ST000731', 'invoice-lt.xlsx': 'ST000731', 'invoice-lt.odt': 'ST000731', 'invoice-lt.rtf': 'ST000731', 'invoice-en.doc': 'INV-2024-0042' });
  });

  it('records the AWS SDK packages each handler bundles (the source of its grants)', () => {
    for (const h of routeHandlers()) expect(bundle.get(h).awsSdkPackages, h).toContain('@aws-sdk/client-dynamodb');
  });
});

function routeHandlers(): string[] {
  return handlerEntries().routes.map((r) => r.handler);
}

describe('bundling rules (fixtures in test/infra/fixtures/lambdas)', () => {
  const root = tempDir('receipts-bundle-fixtures-');

  it('refuses a handler that loads a local-only package eagerly', async () => {
    await expect(bundleHandlers({ handlers: ['bundling/eager-ocr'], lambdasDir: FIXTURES, root })).rejects.toThrow(
      /bundling\/eager-ocr\.ts loads "tesseract\.js" eagerly/,
    );
    expect(readdirSync(root).filter((n) => n.startsWith('tmp-'))).toEqual([]);
  });

  it('keeps a dynamic import lazy: the chunk is shipped, tesseract.js is not, and the handler runs without it', async () => {
    const bundle = await bundleHandlers({ handlers: ['bundling/lazy-ocr'], lambdasDir: FIXTURES, root });
    const built = bundle.get('bundling/lazy-ocr');
    expect(built.shippedPackages).toEqual([]);
    expect(existsSync(join(built.dir, 'node_modules'))).toBe(false);
    expect(readdirSync(join(built.dir, 'chunks')).some((f) => f.startsWith('lazy-ocr-impl-') && f.endsWith('.mjs'))).toBe(true);
    const result = loadInNode(isolatedCopies(bundle, ['bundling/lazy-ocr']), { handler: 'bundling/lazy-ocr', event: {} });
    expect(result).toEqual({ 'bundling/lazy-ocr': 'function', 'result:bundling/lazy-ocr': '"cloud"' });
  });

  it('ships a native package with its binary and runs it from the isolated folder', async () => {
    const bundle = await bundleHandlers({
      handlers: ['bundling/native-image'],
      lambdasDir: FIXTURES,
      root,
      ...(HOST_ARCH === 'other' ? {} : { architecture: HOST_ARCH }),
    });
    const built = bundle.get('bundling/native-image');
    expect(built.shippedPackages).toEqual(['sharp']);
    expect(existsSync(join(built.dir, 'node_modules', 'sharp', 'package.json'))).toBe(true);
    if (built.architecture === HOST_ARCH) {
      const result = loadInNode(isolatedCopies(bundle, ['bundling/native-image']), { handler: 'bundling/native-image', event: {} });
      expect(result['result:bundling/native-image']).toBe(JSON.stringify({ format: 'png', width: 3 }));
    } else {
      const cpu = built.architecture === 'arm64' ? 'arm64' : 'x64';
      expect(existsSync(join(built.dir, 'node_modules', '@img', `sharp-linux-${cpu}`))).toBe(true);
    }
  });

  it('ships the font data of the standard PDF fonts with the page renderer and finds it from the function’s folder', async () => {
    const bundle = await bundleHandlers({
      handlers: ['bundling/pdf-standard-fonts'],
      lambdasDir: FIXTURES,
      root,
      ...(HOST_ARCH === 'other' ? {} : { architecture: HOST_ARCH }),
    });
    const built = bundle.get('bundling/pdf-standard-fonts');
    expect(built.shippedPackages).toEqual(expect.arrayContaining(['pdfjs-dist', '@napi-rs/canvas', 'sharp']));
    const fonts = join(built.dir, 'node_modules', 'pdfjs-dist', 'standard_fonts');
    expect(readdirSync(fonts).sort()).toEqual(readdirSync(join(REPO_ROOT, 'node_modules', 'pdfjs-dist', 'standard_fonts')).sort());
    if (built.architecture !== HOST_ARCH) return;
    const copies = isolatedCopies(bundle, ['bundling/pdf-standard-fonts']);
    const dir = join(copies['bundling/pdf-standard-fonts']!, '..');
    const result = loadInNode(copies, { handler: 'bundling/pdf-standard-fonts', event: {} });
    const { fontData, darkPixels } = JSON.parse(result['result:bundling/pdf-standard-fonts'] ?? '{}') as { fontData?: string; darkPixels?: number };
    // The folder inside the function's own copy of pdfjs-dist, not the repository's …
    expect(fontData).toBe(join(dir, 'node_modules', 'pdfjs-dist', 'standard_fonts') + sep);
    // … and the text is drawn from it.
    expect(darkPixels).toBeGreaterThan(1000);
  });

  it('reuses an unchanged build (cache) and reports it', async () => {
    const first = await bundleHandlers({ handlers: ['bundling/lazy-ocr'], lambdasDir: FIXTURES, root });
    const second = await bundleHandlers({ handlers: ['bundling/lazy-ocr'], lambdasDir: FIXTURES, root });
    expect(second.fromCache).toBe(true);
    expect(second.buildDir).toBe(first.buildDir);
    expect(second.get('bundling/lazy-ocr').contentHash).toBe(first.get('bundling/lazy-ocr').contentHash);
  });

  it('names missing handler files', async () => {
    await expect(bundleHandlers({ handlers: ['bundling/not-there'], lambdasDir: FIXTURES, root })).rejects.toThrow(
      /without a source file: test\/infra\/fixtures\/lambdas\/bundling\/not-there\.ts/,
    );
  });
});

describe('grants derived from bundled AWS SDK packages', () => {
  it('maps SDK clients to needs', () => {
    expect([...awsNeedsOf('h', ['@aws-sdk/lib-dynamodb', '@aws-sdk/client-dynamodb'])]).toEqual(['table']);
    expect([...awsNeedsOf('h', ['@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner'])]).toEqual(['documentsBucket']);
    expect([...awsNeedsOf('h', ['@aws-sdk/client-cognito-identity-provider'])]).toEqual(['userPoolAdmin']);
    expect([...awsNeedsOf('h', ['@aws-sdk/client-apigatewaymanagementapi'])]).toEqual(['webSocketManage']);
    // Textract's grant includes reading the upload (infra/constructs/handler-function.ts).
    expect([...awsNeedsOf('h', ['@aws-sdk/client-textract'])].sort()).toEqual(['textract']);
  });

  it('ignores the SDK internals and its credential clients', () => {
    expect(awsNeedsOf('h', ['@aws-sdk/core', '@aws-sdk/nested-clients', '@aws-sdk/client-sts', '@aws-sdk/credential-provider-node']).size).toBe(0);
  });

  it('refuses an SDK client infra cannot grant', () => {
    expect(() => awsNeedsOf('jobs/x', ['@aws-sdk/client-sns'])).toThrow(/lambdas\/jobs\/x\.ts uses @aws-sdk\/client-sns/);
  });

  it('packageNameOf takes the package of a subpath import', () => {
    expect(packageNameOf('pdfjs-dist/legacy/build/pdf.mjs')).toBe('pdfjs-dist');
    expect(packageNameOf('@napi-rs/canvas')).toBe('@napi-rs/canvas');
    expect(packageNameOf('@tesseract.js-data/eng/4.0.0')).toBe('@tesseract.js-data/eng');
  });
});
