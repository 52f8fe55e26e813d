/**
 * LibreOffice as the office converter: `soffice --headless --convert-to pdf`, where an executable is found
 * (env SOFFICE_PATH, else `soffice` or `libreoffice` on PATH; nothing is installed or downloaded). Each
 * conversion runs in its own temporary folder with a private user profile (`-env:UserInstallation`), so
 * conversions can run side by side and never touch anyone's LibreOffice settings, and is killed (its whole
 * process group: soffice starts soffice.bin) when it outlives the timeout. The command runner is
 * injectable, so the conversion is tested with a fake runner where LibreOffice is not installed.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OfficeConversion, OfficeConverter } from '../../core/documents/ports';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export type CommandRunner = (file: string, args: string[], opts: { timeoutMs: number; cwd: string; env: NodeJS.ProcessEnv }) => Promise<CommandResult>;

/** Output kept per stream (LibreOffice's messages are short; a runaway process is not kept in memory). */
const MAX_OUTPUT = 64 * 1024;
export const DEFAULT_TIMEOUT_MS = 60_000;
export const NOT_INSTALLED = 'LibreOffice (soffice) is not installed';

/** Runs a command in its own process group; on timeout the group is killed. Never rejects. */
export const runCommand: CommandRunner = (file, args, opts) =>
  new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (buf: string, chunk: Buffer) => (buf.length < MAX_OUTPUT ? buf + chunk.toString('utf8').slice(0, MAX_OUTPUT - buf.length) : buf);
    child.stdout.on('data', (c: Buffer) => (stdout = keep(stdout, c)));
    child.stderr.on('data', (c: Buffer) => (stderr = keep(stderr, c)));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, opts.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}${error.message}`, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** SOFFICE_PATH when set (and only it), else `soffice` or `libreoffice` on PATH. */
export async function findSoffice(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const named = env.SOFFICE_PATH?.trim();
  if (named) return (await isExecutableFile(named)) ? named : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['soffice', 'libreoffice']) {
      const candidate = join(dir, name);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The arguments of one headless conversion to PDF. */
export function sofficeArgs(input: string, outDir: string, profileDir: string): string[] {
  return [
    '--headless',
    '--invisible',
    '--norestore',
    '--nolockcheck',
    '--nodefault',
    '--nologo',
    '--nofirststartwizard',
    `-env:UserInstallation=${pathToFileURL(profileDir).href}`,
    '--convert-to',
    'pdf',
    '--outdir',
    outDir,
    input,
  ];
}

export interface LibreOfficeOptions {
  /** The executable; default: looked up with findSoffice. null: LibreOffice is not used. */
  executable?: string | null;
  run?: CommandRunner;
  timeoutMs?: number;
  /** Where the temporary folders go (default the OS temp folder). */
  tmpDir?: string;
  /** The environment of the look-up and of the command (default process.env). */
  env?: NodeJS.ProcessEnv;
}

function tail(s: string, n = 300): string {
  const t = s.trim();
  return t.length > n ? `…${t.slice(-n)}` : t;
}

export class LibreOfficeConverter implements OfficeConverter {
  private readonly run: CommandRunner;
  private readonly timeoutMs: number;

  constructor(private readonly opts: LibreOfficeOptions = {}) {
    this.run = opts.run ?? runCommand;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The LibreOffice executable, looked up for each conversion (a few file checks) unless given. */
  async executable(): Promise<string | undefined> {
    if (this.opts.executable !== undefined) return this.opts.executable ?? undefined;
    return findSoffice(this.opts.env ?? process.env);
  }

  async toPdf(bytes: Uint8Array, fileName: string): Promise<OfficeConversion> {
    const exe = await this.executable();
    if (!exe) return { pdf: null, reason: NOT_INSTALLED };
    const ext = /\.([a-z0-9]{1,5})$/i.exec(fileName.trim())?.[1]?.toLowerCase() ?? 'bin';
    let dir: string | undefined;
    try {
      dir = await mkdtemp(join(this.opts.tmpDir ?? tmpdir(), 'office-'));
      const input = join(dir, `document.${ext}`);
      const outDir = join(dir, 'out');
      await writeFile(input, bytes);
      await mkdir(outDir);
      const env = this.opts.env ?? process.env;
      const r = await this.run(exe, sofficeArgs(input, outDir, join(dir, 'profile')), { timeoutMs: this.timeoutMs, cwd: dir, env: { ...env, HOME: dir } });
      if (r.timedOut) return { pdf: null, reason: `LibreOffice did not finish within ${Math.round(this.timeoutMs / 1000)} s` };
      const pdf = await readFile(join(outDir, 'document.pdf')).catch(() => undefined);
      if (!pdf || pdf.subarray(0, 4).toString('latin1') !== '%PDF') {
        return { pdf: null, reason: `LibreOffice did not convert the file (exit code ${r.code ?? 'none'})${tail(r.stderr || r.stdout) ? `: ${tail(r.stderr || r.stdout)}` : ''}` };
      }
      return { pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength) };
    } catch (error) {
      return { pdf: null, reason: `LibreOffice conversion failed: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  }
}
