/**
 * FTP and FTPS delivery with basic-ftp (docs/decisions.md "Integrations"). Port 990 is implicit FTPS; on any
 * other port (default 21) explicit FTPS (AUTH TLS) is tried first and plain FTP is used only when the server
 * refuses AUTH TLS. Files are written under a temporary name and renamed, so a reader never sees half a file.
 * Errors become TargetErrors: a refused login or a refused path is permanent; a connection that fails, times
 * out or a 4xx reply ("try again") is transient.
 */
import { Readable } from 'node:stream';
import { Client, FTPError } from 'basic-ftp';
import { TargetError, type FileDrop, type ServerLogin } from '../../core/integrations/ports';

const TIMEOUT_MS = 15_000;

function toTargetError(error: unknown, login: ServerLogin): TargetError {
  if (error instanceof TargetError) return error;
  if (error instanceof FTPError) {
    const text = error.message.replace(/^\d{3}[ -]/, '').trim() || `FTP error ${error.code}`;
    return new TargetError(`${error.code} ${text}`, error.code >= 400 && error.code < 500);
  }
  const code = (error as NodeJS.ErrnoException)?.code;
  const where = `${login.host}:${login.port ?? 21}`;
  if (code === 'ECONNREFUSED') return new TargetError(`Connection refused by ${where}`, true);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new TargetError(`Host ${login.host} not found`, code === 'EAI_AGAIN');
  if (code === 'ETIMEDOUT' || /timeout/i.test(String((error as Error)?.message))) return new TargetError(`No answer from ${where} in time`, true);
  if (code === 'ECONNRESET' || code === 'EPIPE') return new TargetError(`The connection to ${where} was closed`, true);
  if (/certificate|self.signed|TLS|SSL/i.test(String((error as Error)?.message))) return new TargetError(`TLS failed: ${(error as Error).message}`, false);
  return new TargetError(`FTP failed: ${error instanceof Error ? error.message : String(error)}`, true);
}

async function connect(login: ServerLogin): Promise<Client> {
  const port = login.port ?? 21;
  const base = { host: login.host, port, user: login.user, password: login.password };
  const client = new Client(TIMEOUT_MS);
  if (port === 990) {
    await client.access({ ...base, secure: 'implicit' });
    return client;
  }
  try {
    await client.access({ ...base, secure: true });
    return client;
  } catch (error) {
    client.close();
    // 5xx to AUTH TLS: the server has no TLS; anything else (login refused, network) is the answer.
    const refusedTls = error instanceof FTPError && [500, 502, 504, 534, 431].includes(error.code) && !/login|password|user/i.test(error.message);
    if (!refusedTls) throw error;
  }
  const plain = new Client(TIMEOUT_MS);
  await plain.access({ ...base, secure: false });
  return plain;
}

export const ftpFileDrop: FileDrop = {
  async test(login) {
    let client: Client | undefined;
    try {
      client = await connect(login);
      await client.list();
    } catch (error) {
      throw toTargetError(error, login);
    } finally {
      client?.close();
    }
  },
  async upload(login, folder, files) {
    let client: Client | undefined;
    try {
      client = await connect(login);
      await client.ensureDir(folder);
      for (const file of files) {
        const temp = `${file.name}.part`;
        await client.uploadFrom(Readable.from(Buffer.from(file.bytes)), temp);
        await client.remove(file.name, true);
        await client.rename(temp, file.name);
      }
    } catch (error) {
      throw toTargetError(error, login);
    } finally {
      client?.close();
    }
  },
};
