import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { verifySigV4, type LocalCredentials } from '../sigv4';

/** A message the local SMTP catcher received. */
export interface CaughtMail {
  id: string;
  received_at: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the text part, in order. */
  links: string[];
  /** The message's header fields as received (lower-case keys), e.g. `auto-submitted`; absent in mail kept by older versions. */
  headers?: { key: string; value: string }[];
}

export interface LocalMail {
  /** The catcher's SMTP port on 127.0.0.1. */
  smtpPort: number;
  /** Caught messages, oldest first. */
  messages(): CaughtMail[];
  /** The newest message to `to` received after `after` messages, waiting for it up to `timeoutMs`. */
  waitFor(to: string, options?: { timeoutMs?: number; after?: number }): Promise<CaughtMail>;
  /** The local SES v2 endpoint (POST /v2/email/outbound-emails): hands the message to the catcher over SMTP. */
  handleSes(req: IncomingMessage, res: ServerResponse, prefix: string): Promise<void>;
  /** The mail page (/_mail) and its JSON (/_mail/messages.json). */
  handlePage(req: IncomingMessage, res: ServerResponse, prefix: string): void;
  close(): Promise<void>;
}

export interface LocalMailOptions {
  dataDir: string;
  /** SendEmail calls must be signed with local mode's credentials, as SES requires IAM. */
  credentials: LocalCredentials;
  /** Port of the SMTP catcher; 0 picks a free one. */
  smtpPort?: number;
  onMail?: (mail: CaughtMail) => void;
}

const LINK = /https?:\/\/[^\s<>"')]+/g;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

async function readBody(req: IncomingMessage, limit = 1_048_576): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw Object.assign(new Error('Message too large'), { status: 400 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sesError(res: ServerResponse, status: number, type: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type });
  res.end(JSON.stringify({ message }));
}

interface SesSendEmailBody {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  Content?: {
    Simple?: {
      Subject?: { Data?: string };
      Body?: { Text?: { Data?: string }; Html?: { Data?: string } };
      Headers?: { Name?: string; Value?: string }[];
    };
  };
}

/**
 * Local mail path: an SMTP catcher (smtp-server) that keeps every message under `<dataDir>` (.eml plus a
 * parsed .json), and the SES v2 SendEmail stand-in that delivers to it over real SMTP (nodemailer).
 */
export async function startLocalMail(opts: LocalMailOptions): Promise<LocalMail> {
  mkdirSync(opts.dataDir, { recursive: true });
  const caught: CaughtMail[] = readdirSync(opts.dataDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(opts.dataDir, f), 'utf8')) as CaughtMail)
    .sort((a, b) => a.received_at.localeCompare(b.received_at));

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    banner: 'Receipts local mail catcher',
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        PostalMime.parse(raw)
          .then((email) => {
            const id = `${Date.now()}-${randomUUID().slice(0, 8)}`;
            const text = email.text ?? '';
            const mail: CaughtMail = {
              id,
              received_at: new Date().toISOString(),
              from: email.from?.address ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              subject: email.subject ?? '',
              text,
              html: email.html ?? '',
              links: [...text.matchAll(LINK)].map((m) => m[0]),
              headers: email.headers.map((h) => ({ key: h.key, value: h.value })),
            };
            writeFileSync(path.join(opts.dataDir, `${id}.eml`), raw);
            writeFileSync(path.join(opts.dataDir, `${id}.json`), JSON.stringify(mail, null, 2));
            caught.push(mail);
            opts.onMail?.(mail);
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.smtpPort ?? 0, '127.0.0.1', () => resolve());
  });
  const smtpPort = (server.server.address() as AddressInfo).port;
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });

  return {
    smtpPort,
    messages: () => [...caught],
    async waitFor(to, { timeoutMs = 10_000, after = 0 } = {}) {
      const address = to.toLowerCase();
      const start = Date.now();
      for (;;) {
        const found = caught.slice(after).reverse().find((m) => m.to.includes(address));
        if (found) return found;
        if (Date.now() - start > timeoutMs) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async handleSes(req, res, prefix) {
      const pathname = (req.url ?? '/').split('?')[0]!.slice(prefix.length);
      if (req.method !== 'POST' || pathname !== '/v2/email/outbound-emails') {
        return sesError(res, 404, 'NotFoundException', 'The local SES stand-in supports SendEmail only');
      }
      let raw: string;
      try {
        raw = await readBody(req);
      } catch {
        return sesError(res, 400, 'BadRequestException', 'Request body too large');
      }
      // The signature covers the path as the client sent it (with the /_ses prefix the SDK's endpoint carries).
      const verdict = await verifySigV4(req, raw, opts.credentials);
      if (!verdict.ok) {
        return sesError(res, 403, verdict.error === 'MissingAuthenticationToken' ? 'MissingAuthenticationTokenException' : 'AccessDeniedException', verdict.message);
      }
      let body: SesSendEmailBody;
      try {
        body = JSON.parse(raw) as SesSendEmailBody;
      } catch {
        return sesError(res, 400, 'BadRequestException', 'Malformed request body');
      }
      const to = body.Destination?.ToAddresses ?? [];
      const simple = body.Content?.Simple;
      if (!body.FromEmailAddress || to.length === 0 || !simple?.Subject?.Data) {
        return sesError(res, 400, 'BadRequestException', 'FromEmailAddress, Destination.ToAddresses and Content.Simple.Subject are required');
      }
      try {
        const info = await transport.sendMail({
          from: body.FromEmailAddress,
          to,
          cc: body.Destination?.CcAddresses,
          bcc: body.Destination?.BccAddresses,
          subject: simple.Subject.Data,
          text: simple.Body?.Text?.Data,
          html: simple.Body?.Html?.Data,
          // Simple.Headers, as SES adds them to the message (e.g. Auto-Submitted on the email-in notices).
          headers: (simple.Headers ?? []).filter((h) => h.Name && h.Value !== undefined).map((h) => ({ key: h.Name!, value: h.Value! })),
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ MessageId: String(info.messageId ?? randomUUID()).replace(/[<>]/g, '') }));
      } catch (error) {
        sesError(res, 500, 'InternalFailure', error instanceof Error ? error.message : 'SMTP delivery failed');
      }
    },
    handlePage(req, res, prefix) {
      const pathname = (req.url ?? '/').split('?')[0]!.slice(prefix.length);
      const newestFirst = [...caught].reverse();
      if (pathname === '/messages.json') {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
        res.end(JSON.stringify({ items: newestFirst }));
        return;
      }
      const linkify = (text: string) =>
        escapeHtml(text).replace(/https?:\/\/[^\s<>"')]+/g, (url) => `<a href="${url}">${url}</a>`);
      const items = newestFirst
        .map(
          (m) => `<article class="mail" data-testid="mail">
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(m.to.join(', '))}</strong> · from ${escapeHtml(m.from)} · ${escapeHtml(m.received_at)}</p>
  <pre>${linkify(m.text)}</pre>
</article>`,
        )
        .join('\n');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local mail · Receipts</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:56rem;color:#1f2937}
.mail{border:1px solid #e5e7eb;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
.mail h2{font-size:1.1rem;margin:0 0 .25rem}.meta{color:#6b7280;margin:0 0 .75rem}pre{white-space:pre-wrap;font:inherit}</style>
</head><body><h1>Local mail</h1><p>${caught.length} message(s) caught by the local SMTP catcher on port ${smtpPort}.</p>
${items || '<p>No mail yet.</p>'}</body></html>`);
    },
    async close() {
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
