/**
 * Local stand-in for SES receiving: a real SMTP server (Nodemailer's smtp-server) on loopback that accepts mail
 * for the email-in domain and writes each message, as SES's S3 action does, to the documents bucket under
 * `inbound/<messageId>`, so the bucket's object-created notification runs the same email-in job as in AWS.
 *
 * Like SES it prepends what the receiving server knows: `Return-Path`, a `Received` line, the envelope
 * recipients (`X-Receipts-Envelope-To`, as SES's rule knows them) and an `Authentication-Results` header —
 * `spf=none dkim=none dmarc=none`, because this server checks nothing (docs/decisions.md "Email-in").
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { EMAIL_IN_DOMAIN, EMAIL_IN_PREFIX, EMAIL_MAX_BYTES } from '../../shared/constants';

export const LOCAL_SMTP_HOST_NAME = 'receipts-local-smtp';

export interface LocalSmtp {
  host: string;
  port: number;
  close(): Promise<void>;
}

export interface LocalSmtpOptions {
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** When the port is taken, use any free one instead of failing (npm start without SMTP_PORT). */
  anyPortIfTaken?: boolean;
  /** Domains accepted as recipients (default: EMAIL_IN_DOMAIN). */
  domains?: string[];
  /** Stores the raw message (the S3 PUT of SES's S3 action). */
  store(key: string, bytes: Uint8Array): Promise<void>;
  /** The largest message taken, in bytes (default EMAIL_MAX_BYTES, SES's; tests lower it). */
  maxBytes?: number;
  /**
   * Whether a recipient of an accepted domain is an Email-in address mail is taken for (the email-in job's own
   * look-up, core/email-in/receive.ts `isKnownRecipient`); others are refused with 550 5.1.1 during the SMTP
   * dialogue, so the sender's server tells the sender. Absent: every address of the domain is taken.
   */
  acceptsRecipient?(address: string): Promise<boolean>;
}

/** The answer to RCPT TO of an unknown or released Email-in address. */
export const UNKNOWN_RECIPIENT_REPLY = '5.1.1 No such Email-in address';

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

/** The header block the receiving server puts above the message. */
export function receivedHeaders(session: Pick<SMTPServerSession, 'envelope' | 'clientHostname' | 'remoteAddress'>, id: string, now: Date): string {
  const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  const rcpts = session.envelope.rcptTo.map((r) => r.address);
  const lines = [
    `Return-Path: <${from}>`,
    `Received: from ${session.clientHostname || 'unknown'} ([${session.remoteAddress}]) by ${LOCAL_SMTP_HOST_NAME} with SMTP id ${id}${rcpts.length === 1 ? ` for <${rcpts[0]}>` : ''}; ${rfc2822(now)}`,
    `X-Receipts-Envelope-To: ${rcpts.join(', ')}`,
    `Authentication-Results: ${LOCAL_SMTP_HOST_NAME}; spf=none smtp.mailfrom=${from || 'unknown'}; dkim=none; dmarc=none`,
  ];
  return `${lines.join('\r\n')}\r\n`;
}

export async function startLocalSmtp(opts: LocalSmtpOptions): Promise<LocalSmtp> {
  const host = opts.host ?? '127.0.0.1';
  const domains = new Set((opts.domains ?? [EMAIL_IN_DOMAIN]).map((d) => d.toLowerCase()));
  const maxBytes = opts.maxBytes ?? EMAIL_MAX_BYTES;
  const server = new SMTPServer({
    name: LOCAL_SMTP_HOST_NAME,
    banner: 'Receipts local email-in',
    // Loopback only, like a test double of SES: no TLS, no authentication.
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: maxBytes,
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const domain = address.address.split('@').pop()?.toLowerCase() ?? '';
      if (!domains.has(domain)) return callback(smtpError(`Relay access denied: this server receives mail for ${[...domains].join(', ')} only`, 550));
      if (!opts.acceptsRecipient) return callback();
      opts.acceptsRecipient(address.address).then(
        (known) => callback(known ? undefined : smtpError(UNKNOWN_RECIPIENT_REPLY, 550)),
        (error: unknown) => {
          console.error('[smtp] could not look up a recipient', error);
          callback(smtpError('Temporary failure, try again later', 451));
        },
      );
    },
    onData(stream, session, callback) {
      // Chunks past the limit are read and dropped (the stream must be drained to answer 552 at its end), so an
      // oversized message never sits in memory whole.
      const chunks: Buffer[] = [];
      let received = 0;
      stream.on('data', (c: Buffer) => {
        received += c.length;
        if (received <= maxBytes) chunks.push(c);
      });
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded || received > maxBytes) {
          const error = new Error(`Message exceeds the limit of ${maxBytes} bytes`) as Error & { responseCode: number };
          error.responseCode = 552;
          return callback(error);
        }
        const id = randomUUID().replace(/-/g, '');
        const bytes = Buffer.concat([Buffer.from(receivedHeaders(session, id, new Date()), 'utf8'), ...chunks]);
        opts.store(`${EMAIL_IN_PREFIX}${id}`, new Uint8Array(bytes)).then(
          () => callback(null, `Queued as ${id}`),
          (error: unknown) => {
            console.error('[smtp] could not store a message', error);
            const failure = new Error('Temporary failure, try again later') as Error & { responseCode: number };
            failure.responseCode = 451;
            callback(failure);
          },
        );
      });
    },
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(opts.port ?? 0);
  } catch (error) {
    if (!opts.anyPortIfTaken || (error as { code?: string }).code !== 'EADDRINUSE') throw error;
    console.warn(`[smtp] port ${opts.port} is taken: using a free port`);
    await listen(0);
  }
  server.on('error', (error) => console.error('[smtp] server error', error));
  const { port } = server.server.address() as AddressInfo;
  return {
    host,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
