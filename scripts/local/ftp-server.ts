/**
 * A real FTP server for local mode and tests: Debian's pyftpdlib (`apt-get install -y python3-pyftpdlib`), run as
 * a child process on a loopback port with one user whose home folder is under the data folder. (The npm
 * `ftp-srv` has had no release since 2023 and pulls a vulnerable `ip`; docs/decisions.md "Integrations".)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const SERVER_PY = `
import logging, os, sys, threading, time
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer
home, port = sys.argv[1], int(sys.argv[2])
parent = os.getppid()
def watch_parent():
    # Stops with the Node process that started it, even when that one is killed (SIGKILL leaves no handler).
    while True:
        time.sleep(1)
        if os.getppid() != parent:
            os._exit(0)
threading.Thread(target=watch_parent, daemon=True).start()
auth = DummyAuthorizer()
auth.add_user(os.environ["FTP_USER"], os.environ["FTP_PASSWORD"], home, perm="elradfmwMT")
handler = FTPHandler
handler.authorizer = auth
handler.banner = "Receipts local FTP server"
logging.basicConfig(level=logging.WARNING)
server = FTPServer(("127.0.0.1", port), handler)
print("LISTENING %d" % server.address[1], flush=True)
server.serve_forever()
`;

/** The Python that has pyftpdlib: FTP_PYTHON, else Debian's /usr/bin/python3, else python3 on PATH. */
export function ftpPython(): string | undefined {
  for (const candidate of [process.env.FTP_PYTHON, '/usr/bin/python3', 'python3'].filter(Boolean) as string[]) {
    const r = spawnSync(candidate, ['-c', 'import pyftpdlib'], { stdio: 'ignore' });
    if (r.status === 0) return candidate;
  }
  return undefined;
}

export interface LocalFtpServer {
  host: string;
  port: number;
  user: string;
  password: string;
  /** The user's home folder on disk (what the server shows as /). */
  root: string;
  /** The server process (Python). */
  pid: number | undefined;
  stop(): Promise<void>;
}

export async function startLocalFtpServer(opts: { root: string; user: string; password: string; port?: number }): Promise<LocalFtpServer> {
  const python = ftpPython();
  if (!python) throw new Error('No Python with pyftpdlib: apt-get install -y python3-pyftpdlib');
  mkdirSync(opts.root, { recursive: true });
  const child: ChildProcess = spawn(python, ['-c', SERVER_PY, path.resolve(opts.root), String(opts.port ?? 0)], {
    env: { ...process.env, FTP_USER: opts.user, FTP_PASSWORD: opts.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Listened for from the start: a server ended by a signal (Ctrl+C and SIGTERM reach the whole process group) has
  // no exit code, and waiting for an 'exit' already emitted held the stop for its 20 s.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the FTP server did not start: ${err}`)), 15_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the FTP server exited (${code}): ${err}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    host: '127.0.0.1',
    port,
    user: opts.user,
    password: opts.password,
    root: opts.root,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
