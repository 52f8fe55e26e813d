/**
 * Bundles every Lambda handler in ONE esbuild run (instead of one NodejsFunction/esbuild run per function,
 * and never Docker). Output: `<root>/b-<content hash>/<handler>/index.mjs` (+ `.map`), one folder per handler,
 * used as `lambda.Code.fromAsset(folder)` with handler `index.handler`.
 *
 * - ESM for Node 22 (`format: esm`, `.mjs`), with a banner that defines `require`, `__filename` and
 *   `__dirname` for the CommonJS dependencies that esbuild folds into the ES module.
 * - The AWS SDK v3 is bundled (not taken from the runtime): the versions in package-lock.json are the ones
 *   tested, lib-dynamodb always matches client-dynamodb, and minified single files load fast.
 * - Heavy native/optional packages of the local recogniser are external (HEAVY_EXTERNALS) and are NOT shipped.
 *   A handler that imports one of them with a static `import` would fail at cold start, so that is a build
 *   error; load them with `await import()` behind the RECOGNISER=local switch.
 * - Cache: a stamp per handler set records every input file (size + mtime); unchanged inputs → the previous
 *   build is reused. Builds are written to a temporary folder and renamed to their content hash, so parallel
 *   processes (vitest workers, `cdk synth`) never see a half-written folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { allHandlers, handlerEntries } from './handler-entries';
import { HANDLER_BUILD_ROOT, REPO_ROOT, handlerSourcePath } from './paths';

/** Never bundled: native or very large optional dependencies of the local recogniser (see the file comment). */
export const HEAVY_EXTERNALS = ['sharp', 'tesseract.js', '@tesseract.js-data/*', '@napi-rs/canvas', 'canvas', 'pdfjs-dist'];

/** Bumped when the options below change in a way the input stamp cannot see. */
const BUILD_FORMAT = 3;

const BANNER = [
  "import { createRequire as __cjsCreateRequire } from 'node:module';",
  "import { fileURLToPath as __cjsFileURLToPath } from 'node:url';",
  "import { dirname as __cjsDirname } from 'node:path';",
  'const require = __cjsCreateRequire(import.meta.url);',
  'const __filename = __cjsFileURLToPath(import.meta.url);',
  'const __dirname = __cjsDirname(__filename);',
].join('');

const OUTPUT_FILE = 'index.mjs';
/** The Lambda `handler` setting for every bundled function. */
export const LAMBDA_HANDLER = 'index.handler';

export interface BuiltHandler {
  handler: string;
  /** Folder to give to lambda.Code.fromAsset. */
  dir: string;
  bytes: number;
  /** @aws-sdk/* packages that contribute code to the bundle (used to derive IAM grants). */
  awsSdkPackages: string[];
}

export interface HandlerBundle {
  buildDir: string;
  fromCache: boolean;
  handlers: Record<string, BuiltHandler>;
  get(handler: string): BuiltHandler;
}

interface Stamp {
  key: string;
  buildDir: string;
  inputs: Record<string, [size: number, mtimeMs: number]>;
  handlers: Record<string, Omit<BuiltHandler, 'dir'>>;
}

export interface BundleOptions {
  /** Handler paths under lambdas/ without `.ts`; default: every entry point named by shared/routes.ts. */
  handlers?: readonly string[];
  /** Default infra/.build/handlers. */
  root?: string;
  /** Rebuild even when the stamp says nothing changed. */
  force?: boolean;
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

function statOf(path: string): [number, number] | undefined {
  try {
    const s = statSync(path);
    return [s.size, s.mtimeMs];
  } catch {
    return undefined;
  }
}

function readStamp(file: string): Stamp | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

function stampIsFresh(stamp: Stamp, root: string): boolean {
  if (!existsSync(join(root, stamp.buildDir))) return false;
  for (const [path, [size, mtimeMs]] of Object.entries(stamp.inputs)) {
    const now = statOf(join(REPO_ROOT, path));
    if (!now || now[0] !== size || now[1] !== mtimeMs) return false;
  }
  return true;
}

function makeBundle(root: string, stamp: Stamp, fromCache: boolean): HandlerBundle {
  const handlers: Record<string, BuiltHandler> = {};
  for (const [name, built] of Object.entries(stamp.handlers)) {
    handlers[name] = { ...built, dir: join(root, stamp.buildDir, ...name.split('/')) };
  }
  return {
    buildDir: join(root, stamp.buildDir),
    fromCache,
    handlers,
    get(handler: string): BuiltHandler {
      const found = handlers[handler];
      if (!found) throw new Error(`Handler ${handler} was not bundled (bundled: ${Object.keys(handlers).join(', ')})`);
      return found;
    },
  };
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out.sort();
}

/** Removes builds no stamp refers to and abandoned temporary folders, once they are 15 minutes old. */
function prune(root: string): void {
  const referenced = new Set<string>();
  for (const name of readdirSync(root)) {
    if (name.startsWith('stamp-') && name.endsWith('.json')) {
      const stamp = readStamp(join(root, name));
      if (stamp) referenced.add(stamp.buildDir);
    }
  }
  const cutoff = Date.now() - 15 * 60_000;
  for (const name of readdirSync(root)) {
    if (!(name.startsWith('b-') || name.startsWith('tmp-')) || referenced.has(name)) continue;
    const s = statOf(join(root, name));
    if (s && s[1] < cutoff) rmSync(join(root, name), { recursive: true, force: true });
  }
}

function buildOptions(handlers: readonly string[], outdir: string): esbuild.BuildOptions & { metafile: true } {
  return {
    absWorkingDir: REPO_ROOT,
    entryPoints: Object.fromEntries(handlers.map((h) => [`${h}/index`, handlerSourcePath(h)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: false,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    mainFields: ['module', 'main'],
    banner: { js: BANNER },
    external: HEAVY_EXTERNALS,
    minify: true,
    keepNames: true,
    sourcemap: true,
    sourcesContent: false,
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
    metafile: true,
    logLevel: 'silent',
  };
}

function sdkPackagesOf(output: esbuild.Metafile['outputs'][string]): string[] {
  const packages = new Set<string>();
  for (const [path, info] of Object.entries(output.inputs)) {
    const match = /(?:^|\/)node_modules\/(@aws-sdk\/[^/]+)\//.exec(path);
    if (match && info.bytesInOutput > 0) packages.add(match[1]);
  }
  return [...packages].sort();
}

/** Static imports of packages that are not in the bundle and not built into Node: they would fail at cold start. */
function unshippedStaticImports(output: esbuild.Metafile['outputs'][string]): string[] {
  return output.imports
    .filter((i) => i.external && i.kind === 'import-statement' && !isBuiltin(i.path))
    .map((i) => i.path);
}

export async function bundleHandlers(options: BundleOptions = {}): Promise<HandlerBundle> {
  const handlers = [...new Set(options.handlers ?? allHandlers(handlerEntries()))].sort();
  if (handlers.length === 0) throw new Error('No handlers to bundle');
  const missing = handlers.filter((h) => !existsSync(handlerSourcePath(h)));
  if (missing.length > 0) {
    throw new Error(`shared/routes.ts names handlers without a source file: ${missing.map((h) => `lambdas/${h}.ts`).join(', ')}`);
  }

  const root = options.root ?? HANDLER_BUILD_ROOT;
  mkdirSync(root, { recursive: true });
  const key = sha256(JSON.stringify({ BUILD_FORMAT, esbuild: esbuild.version, handlers, externals: HEAVY_EXTERNALS, banner: BANNER }));
  const stampFile = join(root, `stamp-${key.slice(0, 16)}.json`);

  const previous = readStamp(stampFile);
  if (!options.force && previous && previous.key === key && stampIsFresh(previous, root)) {
    return makeBundle(root, previous, true);
  }

  const tmpName = `tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmpDir = join(root, tmpName);
  let result: esbuild.BuildResult<{ metafile: true }>;
  try {
    result = await esbuild.build(buildOptions(handlers, tmpDir));
  } catch (error) {
    rmSync(tmpDir, { recursive: true, force: true });
    const failure = error as esbuild.BuildFailure;
    if (Array.isArray(failure.errors) && failure.errors.length > 0) {
      const text = await esbuild.formatMessages(failure.errors, { kind: 'error', color: false });
      throw new Error(`Bundling the Lambda handlers failed:\n${text.join('\n')}`);
    }
    throw error;
  }

  const built: Stamp['handlers'] = {};
  const problems: string[] = [];
  for (const handler of handlers) {
    const outPath = toPosix(relative(REPO_ROOT, join(tmpDir, ...handler.split('/'), OUTPUT_FILE)));
    const output = result.metafile.outputs[outPath];
    if (!output) throw new Error(`esbuild wrote no ${outPath} for ${handler}`);
    for (const path of unshippedStaticImports(output)) {
      problems.push(
        `lambdas/${handler}.ts statically imports "${path}", which is not shipped to Lambda (HEAVY_EXTERNALS in ` +
          'infra/build/bundle-handlers.ts). Load it with `await import()` only where it is used (RECOGNISER=local).',
      );
    }
    built[handler] = { handler, bytes: output.bytes, awsSdkPackages: sdkPackagesOf(output) };
  }
  if (problems.length > 0) {
    rmSync(tmpDir, { recursive: true, force: true });
    throw new Error(problems.join('\n'));
  }

  const contentHash = sha256(
    filesUnder(tmpDir)
      .map((file) => `${toPosix(relative(tmpDir, file))}\0${sha256(readFileSync(file))}`)
      .join('\n'),
  );
  const buildDir = `b-${contentHash.slice(0, 20)}`;
  if (existsSync(join(root, buildDir))) {
    rmSync(tmpDir, { recursive: true, force: true });
  } else {
    try {
      renameSync(tmpDir, join(root, buildDir));
    } catch (error) {
      // Another process renamed an identical build into place first.
      rmSync(tmpDir, { recursive: true, force: true });
      if (!existsSync(join(root, buildDir))) throw error;
    }
  }

  const inputs: Stamp['inputs'] = {};
  for (const path of [...Object.keys(result.metafile.inputs), 'tsconfig.json', 'package-lock.json']) {
    const s = statOf(join(REPO_ROOT, path));
    if (s) inputs[path] = s;
  }
  const stamp: Stamp = { key, buildDir, inputs, handlers: built };
  const tmpStamp = `${stampFile}.${tmpName}`;
  writeFileSync(tmpStamp, JSON.stringify(stamp));
  renameSync(tmpStamp, stampFile);
  prune(root);
  return makeBundle(root, stamp, false);
}

// `npx tsx infra/build/bundle-handlers.ts [--force]`: bundle and print a summary.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const bundle = await bundleHandlers({ force: process.argv.includes('--force') });
  for (const h of Object.values(bundle.handlers)) {
    console.log(`${h.handler.padEnd(40)} ${(h.bytes / 1024).toFixed(0).padStart(6)} KiB  ${h.awsSdkPackages.filter((p) => p.startsWith('@aws-sdk/client-') || p.startsWith('@aws-sdk/lib-')).join(' ')}`);
  }
  console.log(`${bundle.fromCache ? 'cached' : 'built'} ${bundle.buildDir} in ${Date.now() - started} ms`);
}
