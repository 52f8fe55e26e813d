import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFtpFileDrop } from '../../lambdas/adapters/ftp/file-drop';
import { startLocalFtpServer, type LocalFtpServer } from '../../scripts/local/ftp-server';

/**
 * The FTP delivery against a real FTP server (pyftpdlib): two exports of one document at the same moment (FTP and
 * NSOFT on one server both send its original to the month's folder) each write the file under a temporary name of
 * their own, so neither deletes or overwrites the other's, and the file is there afterwards.
 */
describe('FTP delivery: the same file written by two exports at once', () => {
  let ftp: LocalFtpServer;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'ftp-drop-'));
    ftp = await startLocalFtpServer({ root, user: 'acme', password: 'ftp-secret-1' });
  }, 30_000);
  afterAll(async () => {
    await ftp?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('delivers every upload, leaves the file whole and no temporary file behind', async () => {
    const drop = createFtpFileDrop({ allowPrivateHosts: () => true });
    const login = { host: '127.0.0.1', port: ftp.port, user: 'acme', password: 'ftp-secret-1' };
    const pdf = new Uint8Array(200_000).map((_, i) => i % 251);
    for (let round = 0; round < 5; round++) {
      const folder = `300000001/2024-0${round + 1}`;
      const sends = [0, 1, 2].map((n) =>
        drop.upload(login, folder, [
          { name: 'R1_invoice.pdf', bytes: pdf },
          { name: n === 0 ? 'R1.xml' : `R1.nsoft-${n}.csv`, bytes: new TextEncoder().encode(`file ${n}`) },
        ]),
      );
      await Promise.all(sends);
      const names = readdirSync(path.join(root, folder)).sort();
      expect(names).toEqual(['R1.nsoft-1.csv', 'R1.nsoft-2.csv', 'R1.xml', 'R1_invoice.pdf']);
      expect(Buffer.compare(readFileSync(path.join(root, folder, 'R1_invoice.pdf')), Buffer.from(pdf))).toBe(0);
    }
  }, 60_000);
});

/**
 * The connection test of the credentials pop-up ends by its deadline whatever the server does: a server that
 * trickles its greeting a byte a second never lets a socket's 15 s of silence run out (a firewall that stalls does the
 * same), and the test used to wait past the API's 29 s.
 */
describe('FTP connection test: a deadline for the whole test', () => {
  it("answers 'No answer … in time' by its deadline from a server that never finishes its greeting", async () => {
    const sockets = new Set<Socket>();
    const trickle = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      const timer = setInterval(() => socket.write('2'), 500);
      socket.on('close', () => (clearInterval(timer), sockets.delete(socket)));
    });
    await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
    const port = (trickle.address() as { port: number }).port;
    try {
      const drop = createFtpFileDrop({ allowPrivateHosts: () => true, testDeadlineMs: 2_000 });
      await expect(drop.test({ host: '127.0.0.1', port, user: 'acme', password: 'x' })).rejects.toThrow(`No answer from 127.0.0.1:${port} in time`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => trickle.close(() => resolve()));
    }
  }, 10_000);
});
