/**
 * npm packages a bundled handler loads from node_modules at run time (native addons and packages that read
 * their own files), copied next to the bundle with their production dependencies. Platform binaries
 * (optionalDependencies with os/cpu, e.g. @img/sharp-linux-arm64) are those of Lambda's Linux/glibc and the
 * function's architecture (LAMBDA_ARCHITECTURE), whatever the deploying machine is: taken from the
 * repository's node_modules when installed there, otherwise fetched from the npm registry (`npm pack` of the
 * exact version and integrity package-lock.json records) into a folder of their own,
 * infra/.build/platform-packages/, never into node_modules (where they would not be the host's). Docker is not used.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { REPO_ROOT } from './paths';

export type LambdaArchitecture = 'arm64' | 'x86_64';
/** Every function's architecture (Graviton), the same from any deploying machine. */
export const LAMBDA_ARCHITECTURE: LambdaArchitecture = 'arm64';
const NODE_CPU: Record<LambdaArchitecture, string> = { arm64: 'arm64', x86_64: 'x64' };
/** Platform packages fetched for other machines than the host, one folder per name and version. */
export const PLATFORM_PACKAGES_DIR = join(REPO_ROOT, 'infra', '.build', 'platform-packages');

interface PackageJson {
  name?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

interface PlatformMeta {
  version?: string;
  integrity?: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

const NODE_MODULES = join(REPO_ROOT, 'node_modules');

let lockCache: Record<string, PlatformMeta> | undefined;
function lockPackages(): Record<string, PlatformMeta> {
  if (!lockCache) {
    try {
      const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages?: Record<string, PlatformMeta> };
      lockCache = lock.packages ?? {};
    } catch {
      lockCache = {};
    }
  }
  return lockCache;
}

function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** The package name of an import specifier: 'pdfjs-dist/legacy/build/pdf.mjs' → 'pdfjs-dist'. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Node's resolution from a package folder upwards: nested node_modules first, then the hoisted copy. */
function resolvePackageDir(name: string, fromDir: string): string | undefined {
  let dir = fromDir;
  while (dir.startsWith(NODE_MODULES) || dir === REPO_ROOT) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === REPO_ROOT) break;
    const parent = join(dir, '..');
    dir = parent.startsWith(NODE_MODULES) ? parent : REPO_ROOT;
  }
  return undefined;
}

function platformMetaOf(name: string, installedDir: string | undefined): PlatformMeta | undefined {
  if (installedDir) {
    const pkg = readPackageJson(installedDir);
    return pkg.os || pkg.cpu ? pkg : undefined;
  }
  const fromLock = lockPackages()[`node_modules/${name}`];
  return fromLock && (fromLock.os || fromLock.cpu) ? fromLock : undefined;
}

function runsOnLambda(name: string, meta: PlatformMeta, arch: LambdaArchitecture): boolean {
  if (meta.os && !meta.os.includes('linux')) return false;
  if (meta.cpu && !meta.cpu.includes(NODE_CPU[arch])) return false;
  if (meta.libc) return meta.libc.includes('glibc');
  return !name.includes('musl');
}

export interface RuntimePackages {
  architecture: LambdaArchitecture;
  /** Absolute package folder → its path under the handler's node_modules/ (POSIX). */
  folders: Map<string, string>;
}

/**
 * The folder of platform package `name@version` for another machine, fetched once: `npm pack` from the registry,
 * its integrity checked against package-lock.json when the lock records it, unpacked next to the others.
 */
export function fetchPlatformPackage(name: string, version: string, integrity?: string, cacheDir: string = PLATFORM_PACKAGES_DIR): string {
  const dest = join(cacheDir, `${name.replace('/', '+')}@${version}`);
  if (existsSync(join(dest, 'package.json'))) return dest;
  const work = join(cacheDir, `tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(join(work, 'unpacked'), { recursive: true });
  try {
    let packed: Array<{ filename: string; integrity?: string }>;
    try {
      const out = execFileSync('npm', ['pack', `${name}@${version}`, '--json', '--silent', '--pack-destination', work], {
        cwd: work,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: process.platform === 'win32',
        timeout: 120_000,
      });
      packed = JSON.parse(out) as typeof packed;
    } catch (error) {
      throw new Error(
        `Could not fetch ${name}@${version} (the Lambda binary for linux-${name.includes('arm64') ? 'arm64' : 'x64'}) from the npm registry: ` +
          `${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const tarball = join(work, packed[0]!.filename);
    if (integrity) {
      const [algorithm, expected] = integrity.split('-', 2) as [string, string];
      const actual = createHash(algorithm).update(readFileSync(tarball)).digest('base64');
      if (actual !== expected) throw new Error(`${name}@${version} from the registry does not match the integrity in package-lock.json`);
    }
    execFileSync('tar', ['-xzf', tarball, '-C', join(work, 'unpacked')], { stdio: 'ignore' });
    try {
      renameSync(join(work, 'unpacked', 'package'), dest);
    } catch (error) {
      // Another process unpacked the same package first.
      if (!existsSync(join(dest, 'package.json'))) throw error;
    }
    return dest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

interface Resolution {
  folders: Map<string, string>;
  /** Packages with platform binaries but none for this architecture. */
  missingBinaries: string[];
}

interface Wanted {
  name: string;
  from: string;
  required: boolean;
  /** A platform package for the target: fetched when not installed. */
  platform?: { version: string; integrity?: string };
}

function resolveFor(roots: readonly string[], arch: LambdaArchitecture, fetch: typeof fetchPlatformPackage): Resolution {
  const folders = new Map<string, string>();
  const missingBinaries: string[] = [];
  const queue: Wanted[] = roots.map((name) => ({ name, from: REPO_ROOT, required: true }));
  while (queue.length > 0) {
    const { name, from, required, platform } = queue.shift()!;
    let dir = resolvePackageDir(name, from);
    let rel = dir ? relative(NODE_MODULES, dir).split(sep).join('/') : undefined;
    if (!dir && platform) {
      dir = fetch(name, platform.version, platform.integrity);
      rel = name;
    }
    if (!dir || !rel) {
      if (required) throw new Error(`Package ${name} is needed at run time but is not installed in node_modules`);
      continue;
    }
    if ([...folders.values()].includes(rel)) continue;
    folders.set(dir, rel);
    // Packages fetched outside node_modules resolve their dependencies from the repository's node_modules.
    const base = dir.startsWith(NODE_MODULES) ? dir : REPO_ROOT;
    const pkg = readPackageJson(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {})) queue.push({ name: dep, from: base, required: true });
    const binaries: string[] = [];
    let binaryFound = false;
    for (const [dep, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
      const installed = resolvePackageDir(dep, base);
      const installedMeta = platformMetaOf(dep, installed);
      const locked = lockPackages()[`node_modules/${dep}`];
      const meta = installedMeta ?? (locked && (locked.os || locked.cpu) ? locked : undefined);
      if (meta) {
        binaries.push(dep);
        if (!runsOnLambda(dep, meta, arch)) continue;
        // Installed for the host but not for Lambda's platform: the installed copy is not used.
        binaryFound = true;
        const version = locked?.version ?? spec.replace(/^[=^~]/, '');
        queue.push({ name: dep, from: base, required: true, platform: { version, integrity: locked?.version === version ? locked.integrity : undefined } });
        continue;
      }
      if (installed) queue.push({ name: dep, from: base, required: false });
    }
    if (binaries.length > 0 && !binaryFound) missingBinaries.push(name);
  }
  return { folders, missingBinaries };
}

/**
 * The folders to copy for `roots` on Lambda's `architecture`: installed packages, and the Linux/glibc binaries
 * of that architecture, fetched when node_modules holds another platform's.
 */
export function resolveRuntimePackages(
  handler: string,
  roots: readonly string[],
  architecture: LambdaArchitecture = LAMBDA_ARCHITECTURE,
  fetch: typeof fetchPlatformPackage = fetchPlatformPackage,
): RuntimePackages {
  const { folders, missingBinaries } = resolveFor(roots, architecture, fetch);
  if (missingBinaries.length > 0) {
    throw new Error(
      `lambdas/${handler}.ts needs ${roots.join(', ')} at run time, but ${missingBinaries.join(', ')} list no ` +
        `linux-${NODE_CPU[architecture]} (glibc) binary among their optional dependencies.`,
    );
  }
  return { architecture, folders };
}
