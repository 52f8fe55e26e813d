/**
 * The LibreOffice converter with a fake command runner (LibreOffice is not needed: the runner writes the
 * PDF soffice would write), the executable look-up on a made-up PATH, and the real runner's timeout on
 * ordinary shell commands.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findSoffice, LibreOfficeConverter, NOT_INSTALLED, runCommand, type CommandRunner } from '../../../lambdas/adapters/libreoffice';

const PDF = new TextEncoder().encode('%PDF-1.7\n%fake\n');
let work: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'soffice-test-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

async function executable(path: string) {
  await writeFile(path, '#!/bin/sh\nexit 0\n');
  await chmod(path, 0o755);
}

describe('finding LibreOffice', () => {
  it('finds soffice or libreoffice on PATH, skipping files that are not executable', async () => {
    const a = join(work, 'a');
    const b = join(work, 'b');
    await mkdir(a);
    await mkdir(b);
    await writeFile(join(a, 'soffice'), 'not executable');
    expect(await findSoffice({ PATH: `${a}:${b}` })).toBeUndefined();
    await executable(join(b, 'libreoffice'));
    expect(await findSoffice({ PATH: `${a}:${b}` })).toBe(join(b, 'libreoffice'));
    await executable(join(a, 'soffice'));
    expect(await findSoffice({ PATH: `${a}:${b}` })).toBe(join(a, 'soffice'));
  });

  it('uses SOFFICE_PATH alone when it is set', async () => {
    await executable(join(work, 'soffice'));
    const own = join(work, 'lo', 'program', 'soffice');
    expect(await findSoffice({ PATH: work, SOFFICE_PATH: own })).toBeUndefined();
    await mkdir(join(work, 'lo', 'program'), { recursive: true });
    await executable(own);
    expect(await findSoffice({ PATH: '', SOFFICE_PATH: own })).toBe(own);
  });

  it('answers "not installed" without running anything when there is no LibreOffice', async () => {
    const calls: string[] = [];
    const run: CommandRunner = async (file) => {
      calls.push(file);
      return { code: 0, stdout: '', stderr: '', timedOut: false };
    };
    expect(await new LibreOfficeConverter({ env: { PATH: work }, run }).toPdf(new Uint8Array([1]), 'a.docx')).toEqual({ pdf: null, reason: NOT_INSTALLED });
    expect(await new LibreOfficeConverter({ executable: null, run }).toPdf(new Uint8Array([1]), 'a.docx')).toEqual({ pdf: null, reason: NOT_INSTALLED });
    expect(calls).toEqual([]);
  });
});

describe('converting with soffice (fake runner)', () => {
  it('runs a headless conversion in a private folder and profile, and returns the PDF', async () => {
    const seen: { file: string; args: string[]; opts: Parameters<CommandRunner>[2]; input: string }[] = [];
    const run: CommandRunner = async (file, args, opts) => {
      const input = args[args.length - 1]!;
      const outDir = args[args.indexOf('--outdir') + 1]!;
      seen.push({ file, args, opts, input: await readFile(input, 'utf8') });
      await writeFile(join(outDir, 'document.pdf'), PDF);
      return { code: 0, stdout: 'convert document.docx -> document.pdf using filter : writer_pdf_Export', stderr: '', timedOut: false };
    };
    const converter = new LibreOfficeConverter({ executable: '/opt/libreoffice/program/soffice', run, tmpDir: work, timeoutMs: 5000 });
    const out = await converter.toPdf(new TextEncoder().encode('the docx bytes'), 'Sąskaita 7.DOCX');
    expect(out).toEqual({ pdf: PDF });

    const [call] = seen;
    expect(call!.file).toBe('/opt/libreoffice/program/soffice');
    expect(call!.input).toBe('the docx bytes');
    const folder = call!.opts.cwd;
    expect(folder.startsWith(join(work, 'office-'))).toBe(true);
    expect(call!.args).toEqual([
      '--headless',
      '--invisible',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      '--nologo',
      '--nofirststartwizard',
      expect.stringMatching(/^-env:UserInstallation=file:\/\/\//),
      '--convert-to',
      'pdf',
      '--outdir',
      join(folder, 'out'),
      join(folder, 'document.docx'),
    ]);
    const profile = call!.args[7]!.slice('-env:UserInstallation='.length);
    expect(fileURLToPath(profile)).toBe(join(folder, 'profile'));
    expect(call!.opts.env.HOME).toBe(folder);
    expect(call!.opts.timeoutMs).toBe(5000);
    // The private folder is gone afterwards.
    expect(await readdir(work)).toEqual([]);
  });

  it('reports a conversion that times out, or ends without a PDF, and cleans up', async () => {
    const timedOut = new LibreOfficeConverter({ executable: '/usr/bin/soffice', tmpDir: work, timeoutMs: 1000, run: async () => ({ code: null, stdout: '', stderr: '', timedOut: true }) });
    expect(await timedOut.toPdf(new Uint8Array([1]), 'a.xlsx')).toEqual({ pdf: null, reason: 'LibreOffice did not finish within 1 s' });
    const failed = new LibreOfficeConverter({ executable: '/usr/bin/soffice', tmpDir: work, run: async () => ({ code: 1, stdout: '', stderr: 'Error: source file could not be loaded', timedOut: false }) });
    expect(await failed.toPdf(new Uint8Array([1]), 'a.doc')).toEqual({ pdf: null, reason: 'LibreOffice did not convert the file (exit code 1): Error: source file could not be loaded' });
    const notPdf = new LibreOfficeConverter({
      executable: '/usr/bin/soffice',
      tmpDir: work,
      run: async (_f, args) => {
        await writeFile(join(args[args.indexOf('--outdir') + 1]!, 'document.pdf'), 'garbage');
        return { code: 0, stdout: '', stderr: '', timedOut: false };
      },
    });
    expect((await notPdf.toPdf(new Uint8Array([1]), 'a.odt')).pdf).toBeNull();
    expect(await readdir(work)).toEqual([]);
  });
});

describe('the command runner', () => {
  it('returns the exit code and output', async () => {
    expect(await runCommand('/bin/sh', ['-c', 'echo converted; echo warn >&2; exit 3'], { timeoutMs: 5000, cwd: work, env: process.env })).toEqual({
      code: 3,
      stdout: 'converted\n',
      stderr: 'warn\n',
      timedOut: false,
    });
  });

  it('kills the whole process group when the timeout passes', async () => {
    const started = Date.now();
    const r = await runCommand('/bin/sh', ['-c', 'sleep 20 & sleep 20; wait'], { timeoutMs: 300, cwd: work, env: process.env });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a command that cannot be started', async () => {
    const r = await runCommand(join(work, 'missing-soffice'), [], { timeoutMs: 1000, cwd: work, env: process.env });
    expect(r.code).toBeNull();
    expect(r.stderr).toMatch(/ENOENT/);
  });
});
