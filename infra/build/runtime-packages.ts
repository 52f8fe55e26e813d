/**
 * npm packages a bundled handler loads from node_modules at run time (native addons and packages that read
 * their own files), copied next to the bundle with their production dependencies. Platform binaries
 * (optionalDependencies with os/cpu, e.g. @img/sharp-linux-x64) are taken for Lambda's Linux/glibc and the
 * chosen architecture, from the repository's node_modules: nothing is downloaded and Docker is not used.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { REPO_ROOT } from './paths';

export type LambdaArchitecture = 'arm64' | 'x86_64';
/** Preferred first: Graviton unless a native package has no arm64 binary installed. */
export const ARCHITECTURE_PREFERENCE: readonly LambdaArchitecture[] = ['arm64', 'x86_64'];
const NODE_CPU: Record<LambdaArchitecture, string> = { arm64: 'arm64', x86_64: 'x64' };

interface PackageJson {
  name?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

interface PlatformMeta {
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

interface Resolution {
  folders: Map<string, string>;
  /** Packages with platform binaries but none installed for this architecture. */
  missingBinaries: string[];
}

function resolveFor(roots: readonly string[], arch: LambdaArchitecture): Resolution {
  const folders = new Map<string, string>();
  const missingBinaries: string[] = [];
  const queue: Array<{ name: string; from: string; required: boolean }> = roots.map((name) => ({ name, from: REPO_ROOT, required: true }));
  while (queue.length > 0) {
    const { name, from, required } = queue.shift()!;
    const dir = resolvePackageDir(name, from);
    if (!dir) {
      if (required) throw new Error(`Package ${name} is needed at run time but is not installed in node_modules`);
      continue;
    }
    if (folders.has(dir)) continue;
    folders.set(dir, relative(NODE_MODULES, dir).split(sep).join('/'));
    const pkg = readPackageJson(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {})) queue.push({ name: dep, from: dir, required: true });
    const binaries: string[] = [];
    let binaryFound = false;
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) {
      const installed = resolvePackageDir(dep, dir);
      const meta = platformMetaOf(dep, installed);
      if (meta) {
        binaries.push(dep);
        if (!runsOnLambda(dep, meta, arch)) continue;
        if (installed) binaryFound = true;
      }
      if (installed) queue.push({ name: dep, from: dir, required: false });
    }
    if (binaries.length > 0 && !binaryFound) missingBinaries.push(name);
  }
  return { folders, missingBinaries };
}

/**
 * The folders to copy for `roots` and the Lambda architecture they can run on: the first of
 * ARCHITECTURE_PREFERENCE for which every native package has an installed Linux/glibc binary.
 */
export function resolveRuntimePackages(handler: string, roots: readonly string[]): RuntimePackages {
  const attempts: string[] = [];
  for (const architecture of ARCHITECTURE_PREFERENCE) {
    const { folders, missingBinaries } = resolveFor(roots, architecture);
    if (missingBinaries.length === 0) return { architecture, folders };
    attempts.push(`${architecture}: no linux-${NODE_CPU[architecture]} (glibc) binary installed for ${missingBinaries.join(', ')}`);
  }
  throw new Error(
    `lambdas/${handler}.ts needs ${roots.join(', ')} at run time, but node_modules has no Linux binary for Lambda ` +
      `(${attempts.join('; ')}). Install one without saving, e.g. ` +
      `\`npm install --no-save --os=linux --cpu=arm64 --libc=glibc ${roots.join(' ')}\`.`,
  );
}
