import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalFtpServer } from '../../scripts/local/ftp-server';

const root = mkdtempSync(path.join(tmpdir(), 'local-ftp-stop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('local FTP server: stop', () => {
  it('stops a running server', async () => {
    const ftp = await startLocalFtpServer({ root, user: 'demo', password: 'demo-ftp' });
    expect(await listening(ftp.port)).toBe(true);
    await ftp.stop();
    expect(await listening(ftp.port)).toBe(false);
  });

  it('is stopped at once when a signal to the process group ended the server first (Ctrl+C, SIGTERM)', async () => {
    const ftp = await startLocalFtpServer({ root, user: 'demo', password: 'demo-ftp' });
    process.kill(ftp.pid!, 'SIGTERM');
    await expect.poll(() => listening(ftp.port)).toBe(false);
    // Before, stop waited for an 'exit' already emitted (a process ended by a signal has no exit code): it never
    // settled, and `npm start` ended only at its 20 s deadline. The test's own timeout catches a stop that hangs.
    await ftp.stop();
    expect(await listening(ftp.port)).toBe(false);
  }, 10_000);
});
