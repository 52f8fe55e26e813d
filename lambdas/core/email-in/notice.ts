/**
 * The notice of a mail that did not become documents in full: sent to the owner of the Email-in address it came
 * to (the member of a personal address, the company's owner for the company's address), never to the sender —
 * a sender's address can be forged, the owner is a known user. A mail whose every attachment became a document
 * sends nothing.
 */
import { escapeHtml } from '../mail/html';
import type { OutgoingMail } from '../team/types';
import type { EmailRecord } from './types';

/** Why nothing was taken from a mail without attachments. */
export const NO_ATTACHMENT = 'It had no attachment: documents are taken from attached PDF, JPEG and PNG files and office documents.';

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The notice for the owner, or null when every part of the mail was taken. */
export function notTakenNotice(
  record: Pick<EmailRecord, 'subject' | 'from' | 'address' | 'arrived_at' | 'rejected_files' | 'auth'>,
  taken: number,
  owner: { email: string; name: string },
): OutgoingMail | null {
  const notTaken = record.rejected_files;
  if (taken > 0 && notTaken.length === 0) return null;
  const subjectLine = record.subject.trim() || '(no subject)';
  const subject = taken === 0 ? `No document was taken from your mail: ${subjectLine}` : `Not every part of your mail was taken: ${subjectLine}`;
  const about = `The mail "${subjectLine}" from ${record.from || 'an unknown sender'} to ${record.address}, received ${when(record.arrived_at)}`;
  const outcome =
    taken === 0
      ? `${about}, did not become a document.`
      : `${about}, became ${taken === 1 ? '1 document, which is' : `${taken} documents, which are`} being read.`;
  const reasons = notTaken.map((f) => `${f.original_file_name}: ${f.reason}`);
  const warning = record.auth.warning ?? null;
  const lines = [
    `Hello ${owner.name},`,
    '',
    outcome,
    ...(reasons.length ? ['', 'These parts were not taken:', ...reasons.map((r) => `- ${r}`)] : []),
    ...(taken === 0 && reasons.length === 0 && !warning ? ['', NO_ATTACHMENT] : []),
    ...(warning ? ['', warning] : []),
    '',
    'You get this notice because you own this Email-in address. The mail is kept with the company.',
  ];
  const html = [
    `<p>Hello ${escapeHtml(owner.name)},</p>`,
    `<p>${escapeHtml(outcome)}</p>`,
    reasons.length ? `<p>These parts were not taken:</p><ul>${reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>` : '',
    taken === 0 && reasons.length === 0 && !warning ? `<p>${escapeHtml(NO_ATTACHMENT)}</p>` : '',
    warning ? `<p>${escapeHtml(warning)}</p>` : '',
    '<p>You get this notice because you own this Email-in address. The mail is kept with the company.</p>',
  ]
    .filter(Boolean)
    .join('\n');
  return { to: owner.email, subject, text: lines.join('\n'), html };
}
