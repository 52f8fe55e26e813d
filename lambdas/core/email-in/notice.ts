/**
 * The notice of a mail that did not become documents in full: sent to the owner of the Email-in address it came
 * to (the member of a personal address, the company's owner for the company's address), never to the sender —
 * a sender's address can be forged, the owner is a known user. A mail whose every attachment became a document
 * being read sends nothing. The notice is marked `Auto-Submitted: auto-generated` (RFC 3834), so that it is never
 * answered by a machine — nor by this product, should the owner's inbox forward it to an Email-in address.
 */
import { NO_ATTACHMENT } from '../../../shared/schemas/emails';
import { UPLOAD_MSG } from '../../../shared/schemas/receipts';
import { escapeHtml } from '../mail/html';
import type { OutgoingMail } from '../team/types';
import type { EmailRecord } from './types';

/** What became of a mail's attachments that were taken. */
export interface TakenFiles {
  /** Documents being read (their upload holds one document of the month). */
  reading: number;
  /** Names of the files kept as failed documents because the company's monthly document limit is reached. */
  overQuota: string[];
}

/**
 * The marker of every notice, so that a notice coming back to an Email-in address is never answered by another one:
 * a header (kept by a redirect) and a line of the body (kept by a forward, which is a new message without the
 * notice's headers: an Outlook/Exchange rule "forward to", or a person's FW:). mime.ts looks for both, also in a
 * message attached to the mail. The line's reference is one word, so that a forward that rewraps the text keeps it.
 */
export const NOTICE_MARKER_HEADER = 'X-Receipts-Notice';
export const NOTICE_MARKER_REFERENCE = 'RECEIPTS-EMAIL-IN-NOTICE';
export const NOTICE_MARKER_LINE = `Notice reference: ${NOTICE_MARKER_REFERENCE} (mail carrying this line is never answered by another notice).`;

/** The header fields of every notice: sent by a machine, not to be answered automatically; the marker. */
export const NOTICE_HEADERS: Readonly<Record<string, string>> = { 'Auto-Submitted': 'auto-generated', [NOTICE_MARKER_HEADER]: 'not-taken' };


const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The notice for the owner, or null when every part of the mail was taken and is being read. */
export function notTakenNotice(
  record: Pick<EmailRecord, 'subject' | 'from' | 'address' | 'arrived_at' | 'rejected_files' | 'auth'>,
  taken: TakenFiles,
  owner: { email: string; name: string },
): OutgoingMail | null {
  const notTaken = record.rejected_files;
  const { reading, overQuota } = taken;
  const documents = reading + overQuota.length;
  if (documents > 0 && notTaken.length === 0 && overQuota.length === 0) return null;
  const subjectLine = record.subject.trim() || '(no subject)';
  const subject =
    documents === 0
      ? `No document was taken from your mail: ${subjectLine}`
      : notTaken.length
        ? `Not every part of your mail was taken: ${subjectLine}`
        : `Not every document of your mail is being read: ${subjectLine}`;
  const about = `The mail "${subjectLine}" from ${record.from || 'an unknown sender'} to ${record.address}, received ${when(record.arrived_at)}`;
  const outcome =
    documents === 0
      ? `${about}, did not become a document.`
      : overQuota.length === 0
        ? `${about}, became ${reading === 1 ? '1 document, which is' : `${reading} documents, which are`} being read.`
        : `${about}, became ${documents === 1 ? '1 document' : `${documents} documents`}; ${reading === 0 ? 'none is' : reading === 1 ? '1 is' : `${reading} are`} being read.`;
  const quotaLine =
    overQuota.length === 1
      ? `This file was kept as a failed document: ${UPLOAD_MSG.quotaExceeded}. It can be tried again once the limit is raised:`
      : `These files were kept as failed documents: ${UPLOAD_MSG.quotaExceeded}. Each can be tried again once the limit is raised:`;
  const reasons = notTaken.map((f) => `${f.original_file_name}: ${f.reason}`);
  const warning = record.auth.warning ?? null;
  const lines = [
    `Hello ${owner.name},`,
    '',
    outcome,
    ...(overQuota.length ? ['', quotaLine, ...overQuota.map((name) => `- ${name}`)] : []),
    ...(reasons.length ? ['', 'These parts were not taken:', ...reasons.map((r) => `- ${r}`)] : []),
    ...(documents === 0 && reasons.length === 0 && !warning ? ['', NO_ATTACHMENT] : []),
    ...(warning ? ['', warning] : []),
    '',
    'You get this notice because you own this Email-in address. The mail is kept with the company.',
    '',
    NOTICE_MARKER_LINE,
  ];
  const html = [
    `<p>Hello ${escapeHtml(owner.name)},</p>`,
    `<p>${escapeHtml(outcome)}</p>`,
    overQuota.length ? `<p>${escapeHtml(quotaLine)}</p><ul>${overQuota.map((name) => `<li>${escapeHtml(name)}</li>`).join('')}</ul>` : '',
    reasons.length ? `<p>These parts were not taken:</p><ul>${reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>` : '',
    documents === 0 && reasons.length === 0 && !warning ? `<p>${escapeHtml(NO_ATTACHMENT)}</p>` : '',
    warning ? `<p>${escapeHtml(warning)}</p>` : '',
    '<p>You get this notice because you own this Email-in address. The mail is kept with the company.</p>',
    `<p>${escapeHtml(NOTICE_MARKER_LINE)}</p>`,
  ]
    .filter(Boolean)
    .join('\n');
  return { to: owner.email, subject, text: lines.join('\n'), html, headers: { ...NOTICE_HEADERS } };
}
