/**
 * A raw message (RFC 5322 / MIME) as the email-in job sees it: who sent it, to whom, its text, and which of its
 * parts become documents. Parsed with postal-mime (docs/decisions.md "Email-in"). Types are decided by the
 * bytes, not by the name or the declared type; the upload limits of the spec apply (images 10 MB, others 30 MB).
 */
import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import PostalMime, { type Address, type Attachment, type Email } from 'postal-mime';
// The WHATWG list of named character references (with the legacy forms without ';'), as postal-mime (pinned, a
// dependency already) ships it; its package exports only the parser, so the table is read from its file.
import { decodeHTML } from 'entities';
import { EMAIL_MAX_ATTACHMENTS, EMAIL_MAX_FORWARD_DEPTH, EMAIL_TEXT_MAX } from '../../../shared/constants';
import type { EmailAuthView } from '../../../shared/schemas/emails';
import { checkContent, EXTENSIONS, extensionOf, type FileKind } from '../documents/files';
import { fromProven, mailAuth, type MailHeader } from './auth';
import { NOTICE_MARKER_HEADER, NOTICE_MARKER_REFERENCE } from './notice';
import { isOutlookItem, outlookItemParts, type OutlookPart } from './outlook-item';

/**
 * Images that are part of the mail's design, not documents, are left out silently (not listed as refused): the
 * signature's logo and social icons, banners, tracking pixels. Decided by what the image is, never by its name:
 * - too small to be read: a side shorter than DOCUMENT_IMAGE_MIN_SIDE pixels (the recogniser's own floor,
 *   lambdas/jobs/lib/renderer.ts MIN_IMAGE_SIDE, 'Resolution of the image is too low to be processed'), inline or
 *   attached;
 * - shown in the body by the HTML's `cid:` and smaller than a photo (BODY_IMAGE_PHOTO_*): a logo or a banner; a
 *   photo of a receipt pasted into the body stays a document;
 * - an inline image whose size its header does not tell, under INLINE_IMAGE_MIN_BYTES.
 */
export const DOCUMENT_IMAGE_MIN_SIDE = 64;
/** An image the body shows by `cid:` is a document when it has at least this many pixels (a 640×480 photo)… */
export const BODY_IMAGE_PHOTO_MIN_PIXELS = 300_000;
/** …and a short side of at least this many (a long banner of many pixels is still a banner). */
export const BODY_IMAGE_PHOTO_MIN_SIDE = 300;
/** Inline images whose pixel size is unknown and smaller than this are logos and tracking pixels, not documents. */
export const INLINE_IMAGE_MIN_BYTES = 8 * 1024;
export const WINMAIL_MESSAGE = 'winmail.dat (Outlook rich text) is not supported: ask the sender to send the files as ordinary attachments';
export const TOO_MANY_MESSAGE = `Only the first ${EMAIL_MAX_ATTACHMENTS} attachments of a message become documents`;
export const TOO_DEEP_MESSAGE = `A forwarded message nested more than ${EMAIL_MAX_FORWARD_DEPTH} levels deep is not opened`;
export const UNREADABLE_MESSAGE = 'The forwarded message could not be read';
/** The longest file name a document gets, as for uploads (shared/schemas/receipts.ts `original_file_name`). */
export const FILE_NAME_MAX = 255;

export interface MailAttachment {
  /** The name the document gets: the part's own, with the extension of what the bytes are, or a made-up one. */
  original_file_name: string;
  bytes: Uint8Array;
  kind: FileKind;
  content_type: string;
  sha256: string;
}

export interface RejectedPart {
  original_file_name: string;
  reason: string;
}

export interface ParsedMail {
  message_id: string | null;
  subject: string;
  /** `Name <address>` (or the address alone). */
  from: string;
  from_address: string;
  /** Addresses the message names as recipients (To, Cc, Delivered-To, X-Original-To, the receiving server's headers), lower case. */
  recipients: string[];
  /** When the receiving server took the message (its Received header), else the Date header. */
  received_at: string | null;
  text: string;
  attachments: MailAttachment[];
  rejected: RejectedPart[];
  auth: EmailAuthView;
  /**
   * Whether the receiving server proved the From address's domain (DMARC pass, or a DKIM or SPF pass of that domain:
   * auth.ts `fromProven`); what the allowed senders ask of a mail where the server checks senders.
   */
  from_proven: boolean;
  /**
   * Why the message was sent by a machine rather than a person (RFC 3834 Auto-Submitted other than `no`,
   * Precedence bulk/junk/list, a delivery report: multipart/report, MAILER-DAEMON or the empty Return-Path of the
   * receiving server; a mail an Exchange mailbox rule sent; a mail carrying a notice's marker in its headers, its
   * text or a message attached to it), or null. Such a message is recorded but never answered with a notice; a
   * delivery report also takes nothing.
   */
  automatic: string | null;
  /** sha256 of what the message says (subject, sender, text, attachments): with the Message-ID, what "the same mail" means. */
  content_hash: string;
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

function mailbox(address: Address | undefined): { name: string; address: string } | undefined {
  if (!address) return undefined;
  if (address.group) return address.group[0];
  return { name: address.name, address: address.address ?? '' };
}

function addresses(list: Address[] | undefined): string[] {
  return (list ?? []).flatMap((a) => (a.group ? a.group.map((m) => m.address) : [a.address ?? ''])).filter(Boolean);
}

/** Addresses in headers the receiving server writes: `for <x@y>` of the topmost Received, X-Receipts-Envelope-To of the local server. */
function envelopeHints(headers: MailHeader[]): string[] {
  const out: string[] = [];
  const received = headers.find((h) => h.key === 'received')?.value ?? '';
  const forClause = /\bfor\s+<?([^\s<>;]+@[^\s<>;]+)>?/i.exec(received);
  if (forClause) out.push(forClause[1]!);
  const envelope = headers.find((h) => h.key === 'x-receipts-envelope-to')?.value;
  if (envelope) out.push(...envelope.split(',').map((s) => s.trim()));
  for (const key of ['delivered-to', 'x-original-to']) {
    const h = headers.find((x) => x.key === key)?.value;
    if (h) out.push(h.trim().replace(/^<|>$/g, ''));
  }
  return out;
}

/**
 * Why the message is a delivery report (a bounce): multipart/report, MAILER-DAEMON, or the empty Return-Path of the
 * null sender (the topmost Return-Path is the receiving server's). Nothing of it becomes a document: the message it
 * returns is the sender's own (often a spammer's, who used an Email-in address as the sender), not the company's.
 */
function deliveryReportOf(headers: MailHeader[], fromAddress: string): string | null {
  const first = (key: string) => headers.find((h) => h.key === key)?.value.trim() ?? '';
  if (/^multipart\/report\b/i.test(first('content-type'))) return 'a delivery report (multipart/report)';
  if (/^mailer-daemon@/i.test(fromAddress)) return 'a delivery report (MAILER-DAEMON)';
  if (/^<\s*>$/.test(first('return-path'))) return 'a delivery report (empty Return-Path)';
  return null;
}

/**
 * A message sent by an Exchange/Outlook mailbox rule ("forward to", "redirect to"): a new message without
 * Auto-Submitted, so the notice it carries back would be answered again and again. Exchange marks it with
 * X-MS-Exchange-Inbox-Rules-Loop (the mailbox whose rule sent it), X-MS-Exchange-Generated-Message-Source
 * "Mailbox Rules Agent" or X-MS-Exchange-Organization-AutoForwarded: true.
 */
function mailboxRuleOf(headers: MailHeader[]): string | null {
  const has = (key: string, test: (value: string) => boolean) => headers.some((h) => h.key === key && test(h.value.trim()));
  if (has('x-ms-exchange-inbox-rules-loop', () => true)) return 'forwarded by a mailbox rule (X-MS-Exchange-Inbox-Rules-Loop)';
  if (has('x-ms-exchange-generated-message-source', (v) => /mailbox rules agent/i.test(v))) return 'sent by a mailbox rule (Mailbox Rules Agent)';
  if (has('x-ms-exchange-organization-autoforwarded', (v) => /^true$/i.test(v))) return 'forwarded by a mailbox rule (AutoForwarded)';
  return null;
}

const NOTICE_MARKED = 'a notice of this product (its marker)';

function carriesNoticeMarker(headers: { key: string }[], ...texts: (string | undefined)[]): boolean {
  const header = NOTICE_MARKER_HEADER.toLowerCase();
  return headers.some((h) => h.key === header) || texts.some((t) => !!t && t.includes(NOTICE_MARKER_REFERENCE));
}

/** Why the message is automatic (see ParsedMail.automatic), from its own headers and the receiving server's. */
function automaticOf(headers: MailHeader[], fromAddress: string): string | null {
  const first = (key: string) => headers.find((h) => h.key === key)?.value.trim() ?? '';
  const report = deliveryReportOf(headers, fromAddress);
  if (report) return report;
  const submitted = headers.map((h) => (h.key === 'auto-submitted' ? h.value.split(';')[0]!.trim().toLowerCase() : '')).find((v) => v && v !== 'no');
  if (submitted) return `Auto-Submitted: ${submitted}`;
  const precedence = first('precedence').toLowerCase();
  if (['bulk', 'junk', 'list'].includes(precedence)) return `Precedence: ${precedence}`;
  return mailboxRuleOf(headers) ?? (carriesNoticeMarker(headers) ? NOTICE_MARKED : null);
}

function receivedAt(headers: MailHeader[], date: string | undefined): string | null {
  const received = headers.find((h) => h.key === 'received')?.value;
  const stamp = received?.split(';').pop()?.trim();
  for (const candidate of [stamp, date]) {
    if (!candidate) continue;
    const t = Date.parse(candidate);
    if (!Number.isNaN(t)) return new Date(t).toISOString();
  }
  return null;
}

/**
 * Character references in one pass (`&amp;lt;` stays `&lt;`): numeric ones, and the HTML5 named ones of the
 * WHATWG table; unknown names stay as written, invalid code points become U+FFFD, no-break spaces plain spaces.
 */
function decodeEntities(text: string): string {
  // Numeric and named references as a browser reads them (the WHATWG table, `&name` without `;` too), then
  // no-break spaces as spaces.
  return decodeHTML(text).replace(/\u00a0/g, ' ');
}

/** Plain text of an HTML body (the panel shows text only; HTML is never rendered). Table cells end with a tab. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|tr|li|h[1-6])\s*>/gi, '\n')
    .replace(/<\/t[dh]\s*>/gi, '\t')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n[ \t]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function bodyText(email: Email): string {
  const text = email.text?.trim() ? email.text : email.html ? htmlToText(email.html) : '';
  return text.replace(/\r\n/g, '\n').trim().slice(0, EMAIL_TEXT_MAX);
}

/** What file-type calls the bytes → the accepted extension, for PDFs and images (office files keep their own). */
const DETECTED_EXT: Record<string, string> = { pdf: 'pdf', jpg: 'jpg', png: 'png' };

function isWinmail(part: Attachment): boolean {
  return part.mimeType === 'application/ms-tnef' || part.mimeType === 'application/vnd.ms-tnef' || /^winmail\.dat$/i.test(part.filename ?? '');
}

function isForwarded(part: Attachment): boolean {
  return part.mimeType === 'message/rfc822' || /\.eml$/i.test(part.filename ?? '');
}

function cleanName(name: string | null): string {
  // A MIME file name has no folders: a slash or backslash is part of the name (an invoice series 'AB-2026/015')
  // and becomes '-'; empty, '.' and '..' pieces are dropped, so no path survives. No control characters; several
  // dots and non-ASCII letters stay as written.
  return (name ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .split(/[\\/]/)
    .map((piece) => piece.trim())
    .filter((piece) => piece && piece !== '.' && piece !== '..')
    .join('-')
    .trim();
}

/** At most FILE_NAME_MAX characters: the stem is shortened (never inside a letter), the extension kept. */
function fitName(name: string): string {
  if (name.length <= FILE_NAME_MAX) return name;
  const ext = /\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? '';
  let stem = '';
  for (const letter of name.slice(0, name.length - ext.length)) {
    if (stem.length + letter.length + ext.length > FILE_NAME_MAX) break;
    stem += letter;
  }
  return `${stem.trimEnd()}${ext}`;
}

/**
 * The name a part gets as a document: its own when its extension fits what the bytes are; with the right
 * extension added when it has none or another (a PDF sent as `scan` or `invoice.dat`); `attachment-<n>.<ext>`
 * when it has no name.
 */
export function documentName(name: string | null, detectedExt: string | undefined, n: number): string {
  const clean = cleanName(name);
  const target = detectedExt ? DETECTED_EXT[detectedExt] : undefined;
  if (!clean) return `attachment-${n}.${target ?? 'bin'}`;
  if (!target) return fitName(clean);
  const ext = extensionOf(clean);
  const rule = EXTENSIONS[ext];
  if (rule && rule.detected.includes(detectedExt!)) return fitName(clean);
  return fitName(`${clean}.${target}`);
}

interface Collected {
  attachments: MailAttachment[];
  rejected: RejectedPart[];
  skipped: number;
  /** A message attached to the mail carries the notice's marker (a notice forwarded as an attachment). */
  noticeMarker: boolean;
}

async function parse(raw: Uint8Array | string): Promise<Email> {
  return PostalMime.parse(raw, {
    attachmentEncoding: 'arraybuffer',
    // Every forwarded message is an attachment here; this module opens them itself, with its own depth bound.
    forceRfc822Attachments: true,
    maxRfc822NestingDepth: 0,
    maxNestingDepth: 64,
  });
}

/** A part of a message, from MIME or from an Outlook item: what `collect` needs to take it or say why not. */
interface MailPart {
  filename: string | null;
  bytes: Uint8Array;
  /** Shown in the message's body rather than attached (inline disposition, related, hidden). */
  inline: boolean;
  /** A message of its own: a forwarded `.eml` (message/rfc822) or an item an Outlook item embeds. */
  forwarded: boolean;
  winmail: boolean;
  /** Shown in the body of its message by the HTML's `cid:` (a signature logo, a banner, a pasted photo). */
  shownInBody: boolean;
}

/** The Content-IDs the HTML body shows (`src="cid:…"`), lower case, without angle brackets. */
function shownContentIds(html: string | undefined): Set<string> {
  const ids = new Set<string>();
  for (const m of (html ?? '').matchAll(/cid:([^"'\s)>]+)/gi)) {
    let id = m[1]!;
    try {
      id = decodeURIComponent(id);
    } catch {
      // kept as written
    }
    ids.add(id.replace(/^<|>$/g, '').toLowerCase());
  }
  return ids;
}

function mimePart(part: Attachment, shown: Set<string>): MailPart {
  const contentId = (part.contentId ?? '').trim().replace(/^<|>$/g, '').toLowerCase();
  return {
    filename: part.filename,
    bytes: new Uint8Array(part.content as ArrayBuffer),
    inline: part.disposition === 'inline' || part.related === true || (!part.disposition && !part.filename),
    forwarded: isForwarded(part),
    winmail: isWinmail(part),
    shownInBody: !!contentId && shown.has(contentId),
  };
}

function outlookPart(part: OutlookPart): MailPart {
  return { filename: part.filename, bytes: part.bytes, inline: part.inline, forwarded: part.embedded, winmail: false, shownInBody: part.shownInBody };
}

function mimeParts(email: Email): MailPart[] {
  const shown = shownContentIds(email.html);
  return email.attachments.map((part) => mimePart(part, shown));
}

async function collect(email: Email, depth: number, out: Collected, virus: boolean): Promise<void> {
  for (const part of mimeParts(email)) await collectPart(part, depth, out, virus);
}

/** Whether an image part is part of the mail's design rather than a document (see DOCUMENT_IMAGE_MIN_SIDE). */
function isDesignImage(part: MailPart, detected: { ext: string; mime: string } | undefined): boolean {
  if (!detected?.mime.startsWith('image/')) return false;
  let size: { width: number; height: number } | undefined;
  try {
    const { width, height } = imageSize(part.bytes);
    if (width > 0 && height > 0) size = { width, height };
  } catch {
    size = undefined;
  }
  if (!size) return part.inline && part.bytes.length < INLINE_IMAGE_MIN_BYTES;
  const short = Math.min(size.width, size.height);
  if (short < DOCUMENT_IMAGE_MIN_SIDE) return true;
  if (part.shownInBody) return size.width * size.height < BODY_IMAGE_PHOTO_MIN_PIXELS || short < BODY_IMAGE_PHOTO_MIN_SIDE;
  return false;
}

/**
 * A forwarded message or an Outlook item (`.msg`, what desktop Outlook attaches when it forwards a mail as an
 * attachment): its own attachments are taken, one level deeper, up to EMAIL_MAX_FORWARD_DEPTH.
 */
async function openMessage(part: MailPart, shownName: string, outlook: boolean, depth: number, out: Collected, virus: boolean): Promise<void> {
  if (depth >= EMAIL_MAX_FORWARD_DEPTH) {
    out.rejected.push({ original_file_name: shownName, reason: TOO_DEEP_MESSAGE });
    return;
  }
  let inner: MailPart[];
  try {
    if (outlook) inner = outlookItemParts(part.bytes).map(outlookPart);
    else {
      const email = await parse(part.bytes);
      if (carriesNoticeMarker(email.headers, email.text, email.html)) out.noticeMarker = true;
      inner = mimeParts(email);
    }
  } catch {
    out.rejected.push({ original_file_name: shownName, reason: UNREADABLE_MESSAGE });
    return;
  }
  for (const innerPart of inner) await collectPart(innerPart, depth + 1, out, virus);
}

async function collectPart(part: MailPart, depth: number, out: Collected, virus: boolean): Promise<void> {
  const { bytes } = part;
  const outlook = isOutlookItem(bytes, part.filename);
  const shownName =
    fitName(cleanName(part.filename)) ||
    (outlook ? 'forwarded message.msg' : part.forwarded ? 'forwarded message.eml' : `attachment-${out.attachments.length + out.rejected.length + 1}`);
  if (outlook || part.forwarded) {
    await openMessage(part, shownName, outlook, depth, out, virus);
    return;
  }
  if (part.winmail) {
    out.rejected.push({ original_file_name: shownName, reason: WINMAIL_MESSAGE });
    return;
  }
  const detected = bytes.length ? await fileTypeFromBuffer(bytes) : undefined;
  if (isDesignImage(part, detected)) {
    out.skipped += 1;
    return;
  }
  const name = documentName(part.filename, detected?.ext, out.attachments.length + out.rejected.length + 1);
  if (virus) {
    out.rejected.push({ original_file_name: name, reason: 'Not taken: the mail server found a virus in this message' });
    return;
  }
  const check = await checkContent(bytes, name, 'single');
  if (!check.ok) {
    out.rejected.push({ original_file_name: name, reason: check.message });
    return;
  }
  if (out.attachments.length >= EMAIL_MAX_ATTACHMENTS) {
    out.rejected.push({ original_file_name: name, reason: TOO_MANY_MESSAGE });
    return;
  }
  out.attachments.push({ original_file_name: name, bytes, kind: check.kind, content_type: check.mime, sha256: sha256(bytes) });
}

function contentHash(mail: Omit<ParsedMail, 'content_hash'>): string {
  return sha256(
    JSON.stringify([mail.subject, mail.from_address, mail.text, mail.attachments.map((a) => [a.original_file_name, a.sha256]), mail.rejected]),
  );
}

function envelope(email: Email): Omit<ParsedMail, 'content_hash' | 'attachments' | 'rejected' | 'text'> {
  const headers: MailHeader[] = email.headers.map((h) => ({ key: h.key, value: h.value }));
  const from = mailbox(email.from);
  const fromAddress = (from?.address ?? '').toLowerCase();
  const recipients = [...addresses(email.to), ...addresses(email.cc), ...(email.deliveredTo ? [email.deliveredTo] : []), ...envelopeHints(headers)];
  return {
    message_id: email.messageId?.trim() || null,
    subject: (email.subject ?? '').trim().slice(0, 1000),
    from: (from?.name ? `${from.name} <${from.address}>` : (from?.address ?? '')).slice(0, 500),
    from_address: fromAddress.slice(0, 320),
    recipients: [...new Set(recipients.map((r) => r.trim().toLowerCase()).filter((r) => r.includes('@')))],
    received_at: receivedAt(headers, email.date),
    auth: mailAuth(headers),
    from_proven: fromProven(headers, fromAddress),
    automatic: automaticOf(headers, fromAddress),
  };
}

/** Refused parts a mail record lists by name; the rest are counted in one line (the record stays within DynamoDB's 400 KB). */
export const REJECTED_LISTED_MAX = 100;

/** The refused parts as the record keeps them: the first REJECTED_LISTED_MAX by name, then how many more. */
export function listedRejected(rejected: RejectedPart[]): RejectedPart[] {
  if (rejected.length <= REJECTED_LISTED_MAX) return rejected;
  const more = rejected.length - (REJECTED_LISTED_MAX - 1);
  return [...rejected.slice(0, REJECTED_LISTED_MAX - 1), { original_file_name: `${more} more parts`, reason: 'Not taken: too many refused parts to list' }];
}

/** The whole message: sender, recipients, text, the parts that become documents and those that do not (with why). */
export async function parseMail(raw: Uint8Array | string): Promise<ParsedMail> {
  const email = await parse(raw);
  const head = envelope(email);
  const out: Collected = { attachments: [], rejected: [], skipped: 0, noticeMarker: false };
  // A delivery report takes nothing: the message it returns (message/rfc822, text/rfc822-headers) is not opened,
  // its status part is not listed as refused. The report is recorded with its text.
  if (!deliveryReportOf(email.headers, head.from_address)) await collect(email, 0, out, head.auth.virus === 'fail');
  const marked = out.noticeMarker || carriesNoticeMarker([], email.text, email.html);
  const automatic = head.automatic ?? (marked ? NOTICE_MARKED : null);
  const mail = { ...head, automatic, text: bodyText(email), attachments: out.attachments, rejected: listedRejected(out.rejected) };
  return { ...mail, content_hash: contentHash(mail) };
}

/** A message over the size limit: only its header block is read; nothing of it becomes a document. */
export async function parseMailHeaders(raw: Uint8Array, reason: string): Promise<ParsedMail> {
  const window = Buffer.from(raw.subarray(0, 256 * 1024)).toString('utf8');
  const end = window.search(/\r?\n\r?\n/);
  const headerBlock = end >= 0 ? window.slice(0, end) : window;
  const email = await parse(`${headerBlock}\r\n\r\n`);
  const head = envelope(email);
  const mail = { ...head, text: '', attachments: [], rejected: [{ original_file_name: 'message', reason }] };
  return { ...mail, content_hash: sha256(raw) };
}
