import { describe, expect, it } from 'vitest';
import { bundleReport, staticClosure, type Manifest } from '../../../scripts/bench/bundle';

const manifest: Manifest = {
  'index.html': { file: 'assets/index-a.js', isEntry: true, imports: ['_vendor.js'], dynamicImports: ['src/Page.tsx'], css: ['assets/index.css'] },
  '_vendor.js': { file: 'assets/vendor-b.js', imports: ['_runtime.js'] },
  '_runtime.js': { file: 'assets/runtime-c.js' },
  'src/Page.tsx': { file: 'assets/Page-d.js', isDynamicEntry: true, imports: ['_vendor.js', '_heavy.js'] },
  '_heavy.js': { file: 'assets/heavy-e.js' },
};

const sizes: Record<string, number> = { 'assets/index-a.js': 1000, 'assets/vendor-b.js': 500, 'assets/runtime-c.js': 10, 'assets/Page-d.js': 300, 'assets/heavy-e.js': 9000 };
const sizeOf = (file: string) => ({ file, bytes: sizes[file]! * 3, gzipBytes: sizes[file]! });

describe('SPA bundle report (npm run bench:bundle)', () => {
  it('counts the entry and its static imports as initial, and dynamic imports as loaded on first use', () => {
    // Prepare / Act
    const report = bundleReport(manifest, sizeOf);
    // Assess
    expect(staticClosure(manifest, 'index.html')).toEqual(['index.html', '_vendor.js', '_runtime.js']);
    expect(report.entry).toBe('assets/index-a.js');
    expect(report.initial.map((c) => c.file)).toEqual(['assets/index-a.js', 'assets/vendor-b.js', 'assets/runtime-c.js']);
    expect(report.initialGzipBytes).toBe(1510);
    expect(report.initialBytes).toBe(4530);
    expect(report.lazy.map((c) => c.file)).toEqual(['assets/heavy-e.js', 'assets/Page-d.js']);
  });

  it('refuses a manifest without exactly one entry, or with a missing import', () => {
    expect(() => bundleReport({ a: { file: 'a.js' } }, sizeOf)).toThrow(/one entry/);
    expect(() => staticClosure({ e: { file: 'e.js', isEntry: true, imports: ['missing'] } }, 'e')).toThrow(/missing/);
  });
});
