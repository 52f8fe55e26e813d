/**
 * A throwaway PostgreSQL server for the SQL import's tests (and local mode's demo accounting database): initdb in a
 * temporary folder, `postgres` on a free loopback port, stopped and removed by `stop()`. It uses Debian's
 * postgresql package (binaries in /usr/lib/postgresql/<version>/bin, installed by .ci/run). PostgreSQL refuses to
 * run as root, so as root the server runs as the `postgres` user (runuser).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface LocalPostgres {
  host: string;
  port: number;
  /** The superuser's password (user `postgres`). */
  password: string;
  /** A client connected as the superuser to `database` (default: postgres); the caller ends it. */
  admin(database?: string): Promise<pg.Client>;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's bin folder, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A free port: the preferred range first, then any the system gives. */
async function freePort(range?: [number, number]): Promise<number> {
  if (range) {
    for (let i = 0; i < 50; i++) {
      const p = range[0] + Math.floor(Math.random() * (range[1] - range[0]));
      if (await portIsFree(p)) return p;
    }
  }
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface LocalPostgresOptions {
  portRange?: [number, number];
  /** The port wanted (local mode's demo database); another free one when it is taken. */
  port?: number;
  dir?: string;
  /** A certificate (PEM) and its key: the server then offers TLS with them (`ssl=on`); plain connections still work. */
  tls?: { cert: string; key: string };
}

export async function startLocalPostgres(opts: LocalPostgresOptions = {}): Promise<LocalPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const asRoot = userInfo().uid === 0;
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), 'receipts-pg-'));
  const data = path.join(dir, 'data');
  const password = `pg-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, password);
  let uid = -1;
  if (asRoot) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    uid = Number(id.stdout.trim());
    chownSync(dir, uid, Number(gid.stdout.trim()));
    chownSync(pwfile, uid, Number(gid.stdout.trim()));
    chmodSync(dir, 0o700);
  }
  const command = (exe: string, args: string[]): [string, string[]] => (asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, exe), ...args]] : [path.join(bin, exe), args]);

  const [initCmd, initArgs] = command('initdb', ['-D', data, '-U', 'postgres', '--pwfile', pwfile, '--auth', 'scram-sha-256', '-E', 'UTF8', '--locale', 'C', '--no-sync']);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);

  const tlsArgs: string[] = [];
  if (opts.tls) {
    // The key must belong to the server's user and be readable by it alone, or postgres refuses to start.
    const certFile = path.join(dir, 'server.crt');
    const keyFile = path.join(dir, 'server.key');
    writeFileSync(certFile, opts.tls.cert);
    writeFileSync(keyFile, opts.tls.key, { mode: 0o600 });
    if (asRoot) {
      const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      chownSync(certFile, uid, gid);
      chownSync(keyFile, uid, gid);
    }
    tlsArgs.push('-c', 'ssl=on', '-c', `ssl_cert_file=${certFile}`, '-c', `ssl_key_file=${keyFile}`);
  }
  const port = opts.port && (await portIsFree(opts.port)) ? opts.port : await freePort(opts.portRange);
  const [cmd, args] = command('postgres', ['-D', data, '-p', String(port), '-k', dir, '-h', '127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', ...tlsArgs]);
  const child: ChildProcess = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (c: Buffer) => {
    log = (log + c.toString()).slice(-4000);
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));

  const admin = async (database = 'postgres') => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database, connectionTimeoutMillis: 5000 });
    await client.connect();
    return client;
  };
  const stop = async () => {
    if (!exited) {
      // A fast shutdown through pg_ctl (a signal to runuser does not reach the server).
      const [stopCmd, stopArgs] = command('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '20']);
      await new Promise<void>((resolve) => spawn(stopCmd, stopArgs, { stdio: 'ignore' }).once('exit', () => resolve()));
      await Promise.race([exit, new Promise((r) => setTimeout(r, 10_000))]);
      if (!exited) child.kill('SIGKILL');
    }
    if (!opts.dir) rmSync(dir, { recursive: true, force: true });
  };

  for (let attempt = 0; ; attempt++) {
    if (exited) throw new Error(`postgres exited: ${log}`);
    try {
      const c = await admin();
      await c.end();
      break;
    } catch (error) {
      if (attempt > 300) {
        await stop();
        throw new Error(`postgres did not start: ${(error as Error).message} ${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { host: '127.0.0.1', port, password, admin, stop };
}
