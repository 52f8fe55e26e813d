/**
 * SPA weight: the JavaScript a browser loads before the first screen shows, from Vite's manifest of the built
 * SPA (web/dist/.vite/manifest.json): the entry chunk and, transitively, its static imports. Dynamic imports
 * (the screens, app/router.tsx) are loaded on first use and are listed separately.
 *
 *   npm run build:web && npm run bench:bundle [-- <dist dir>] [--limit-kb 150]
 *
 * Exits 1 when the initial JavaScript is over the limit (gzipped, default 150 KB: issue 18 point 7).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  entry: string;
  /** The entry chunk and everything it imports statically: loaded before the first screen. */
  initial: ChunkSize[];
  initialGzipBytes: number;
  initialBytes: number;
  /** Chunks reached only through dynamic imports (route screens and what they pull in). */
  lazy: ChunkSize[];
}

/** The manifest keys reached from `key` through static imports (the entry included). */
export function staticClosure(manifest: Manifest, key: string): string[] {
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (seen.has(k)) return;
    const chunk = manifest[k];
    if (!chunk) throw new Error(`manifest has no chunk ${k}`);
    seen.add(k);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return [...seen];
}

export function bundleReport(manifest: Manifest, sizeOf: (file: string) => ChunkSize): BundleReport {
  const entries = Object.entries(manifest).filter(([, c]) => c.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry chunk in the manifest, found ${entries.length}`);
  const [entryKey, entry] = entries[0]!;
  const initialKeys = staticClosure(manifest, entryKey);
  const initialFiles = new Set(initialKeys.map((k) => manifest[k]!.file));
  const initial = [...initialFiles].filter((f) => f.endsWith('.js')).map(sizeOf);
  const lazyFiles = new Set(
    Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith('.js') && !initialFiles.has(f)),
  );
  return {
    entry: entry.file,
    initial,
    initialGzipBytes: initial.reduce((sum, c) => sum + c.gzipBytes, 0),
    initialBytes: initial.reduce((sum, c) => sum + c.bytes, 0),
    lazy: [...lazyFiles].map(sizeOf).sort((a, b) => b.gzipBytes - a.gzipBytes),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function main() {
  const args = process.argv.slice(2);
  const limitAt = args.indexOf('--limit-kb');
  const limitKb = limitAt >= 0 ? Number(args[limitAt + 1]) : 150;
  const positional = args.filter((a, i) => !a.startsWith('--') && (limitAt < 0 || i !== limitAt + 1));
  const dist = path.resolve(positional[0] ?? path.join(import.meta.dirname, '../../web/dist'));
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    console.error(`No Vite manifest under ${dist}/.vite: run \`npm run build:web\` first.`);
    process.exit(2);
  }
  const sizeOf = (file: string): ChunkSize => {
    const bytes = readFileSync(path.join(dist, file));
    return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  };
  const report = bundleReport(manifest, sizeOf);
  console.log(`SPA bundle (${dist})`);
  console.log('Initial JavaScript (entry and its static imports):');
  for (const c of report.initial) console.log(`  ${c.file.padEnd(48)} ${kb(c.bytes).padStart(10)}  gzip ${kb(c.gzipBytes).padStart(9)}`);
  console.log(`  ${'total'.padEnd(48)} ${kb(report.initialBytes).padStart(10)}  gzip ${kb(report.initialGzipBytes).padStart(9)}`);
  console.log(`Loaded on first use: ${report.lazy.length} chunks, gzip ${kb(report.lazy.reduce((s, c) => s + c.gzipBytes, 0))}; largest:`);
  for (const c of report.lazy.slice(0, 8)) console.log(`  ${c.file.padEnd(48)} gzip ${kb(c.gzipBytes).padStart(9)}`);
  const ok = report.initialGzipBytes <= limitKb * 1024;
  console.log(`initial JavaScript gzipped: ${kb(report.initialGzipBytes)} (limit ${limitKb} KB) ${ok ? 'OK' : 'OVER THE LIMIT'}`);
  if (!ok) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
