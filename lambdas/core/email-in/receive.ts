/**
 * The email-in job's rules. A raw message stored under inbound/ (by SES's S3 action, or the local SMTP server)
 * is parsed, routed by its recipients to companies (and, for a member's personal address, to that member), and
 * recorded once per company as an email record. Each accepted attachment becomes a pending upload — with the
 * quota reservation of an upload (D11) — whose object is written where an upload's would be, so the documents
 * are created and processed by the processing job exactly like uploads, with `email_id` set.
 *
 * Idempotent: the email id is derived from Message-ID + content hash + company, the record is created with a
 * conditional put, and the upload ids from the email id and the attachment's position, so a redelivered or
 * resent message creates nothing new; a run that died half way is finished by the next delivery. The record is
 * finished conditionally (receiving → done), and only the run that finished it sends the notice.
 */
import { EMAIL_IN_PREFIX, EMAIL_MAX_BYTES } from '../../../shared/constants';
import { monthOf } from '../accounts/companies';
import type { CompanyRecord } from '../accounts/types';
import type { AccountsStore, Clock } from '../ports';
import { digest, documentIdFor, uploadKey } from '../documents/files';
import { CommitConflict, type DocumentsStore, type FileStore } from '../documents/ports';
import { RESERVATION_SECONDS, releaseExpiredReservations, reserveOneDocument } from '../documents/upload';
import { companyScope, type UploadRecord } from '../documents/types';
import { parseMail, parseMailHeaders, type MailAttachment, type ParsedMail } from './mime';
import type { Mailer } from '../team/types';
import { notTakenNotice, type TakenFiles } from './notice';
import type { EmailStore } from './ports';
import { shownEmailInAddress } from './address';
import { addressedAs, inAddresses, isSalesTag, receiptTypeOf } from './routing';
import type { EmailInClaim, EmailRecord } from './types';
import { emailIdOf } from './ids';
import { refusedParts, senderRefusal } from './senders';

export interface EmailInDeps {
  emails: EmailStore;
  documents: DocumentsStore;
  files: FileStore;
  store: AccountsStore;
  clock: Clock;
  /** Domains mail is received for besides EMAIL_IN_DOMAIN (the deployed domain). */
  domains: string[];
  /** Outgoing mail: the notice to the address's owner of a mail not taken in full (notice.ts). */
  mailer: Mailer;
  /** The product's own sender (MAIL_FROM, `Name <address>` or the address): mail from it gets no notice. */
  mailFrom: string;
  /**
   * Whether the receiving server checks senders (SES: SPF, DKIM, DMARC), so that the allowed senders ask for its proof
   * of the From address; local mode's SMTP server checks none (senders.ts).
   */
  serverChecksSenders: boolean;
  log: { info(msg: string, data?: Record<string, unknown>): void; warn(msg: string, data?: Record<string, unknown>): void };
}

/**
 * Notices one Email-in address may set off in an hour (counted in the table, E7): a backstop for a notice loop no
 * marker stops (a forwarding set-up that strips both the headers and the text); the other mails are recorded only.
 */
export const NOTICES_PER_HOUR = 5;
/** How long an hour's notice count is kept (the table's ttl removes it). */
const NOTICE_COUNT_LIFETIME_SECONDS = 2 * 24 * 3600;

export const TOO_LARGE_MESSAGE = `The message is larger than ${EMAIL_MAX_BYTES / 1024 / 1024} MB: nothing of it was taken`;
export const UNREADABLE_MAIL = 'The message could not be read: nothing of it was taken';
/** Shown on the upload of an attachment: who and what it came from. */
const EMAIL_UPLOAD_TYPE = 'email';

interface Target {
  /** The claim that owns the mail in its company: a member's personal address before the company's address. */
  claim: EmailInClaim;
  /** The `+tag` that decides the receipt type: a sales tag of any recipient of the company, else the claim's own. */
  tag: string | null;
  /** The company's recipients as addressed (`addressedAs`). */
  addressed: string[];
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Whether mail to the recipient is taken: an address of an accepted domain with a claim (E1), the look-up the job
 * routes by. The local SMTP server refuses other recipients with 550 during the SMTP dialogue, so the sender's own
 * server tells the sender; a released address is no claim, so it is refused too.
 */
export async function isKnownRecipient(deps: Pick<EmailInDeps, 'emails' | 'domains'>, recipient: string): Promise<boolean> {
  const [address] = inAddresses([recipient], deps.domains);
  return !!address && !!(await deps.emails.claim(address.address));
}

/**
 * One target per company: a member's personal address wins over the company's address (the member owns the
 * documents); a sales tag on any recipient of the company (`acme+sales@…` next to `rasa@…`) makes sales invoices.
 */
async function targetsOf(deps: EmailInDeps, key: string, mail: ParsedMail): Promise<{ targets: Target[]; unknown: string[] }> {
  const byCompany = new Map<string, Target>();
  const unknown: string[] = [];
  // In AWS the receipt rule's action kept the envelope (recipients.ts, E12), by SES's message id, the object's name.
  const envelope = (await deps.emails.envelope(key.slice(EMAIL_IN_PREFIX.length))) ?? [];
  const recipients = [...new Set([...mail.recipients, ...envelope.map((r) => r.trim().toLowerCase())])];
  for (const recipient of inAddresses(recipients, deps.domains)) {
    const claim = await deps.emails.claim(recipient.address);
    if (!claim) {
      unknown.push(recipient.address);
      continue;
    }
    const known = byCompany.get(claim.company_id);
    const owner = !known || (!known.claim.user_id && claim.user_id) ? claim : known.claim;
    const tag = known && !isSalesTag(recipient.tag) ? known.tag : recipient.tag;
    byCompany.set(claim.company_id, { claim: owner, tag, addressed: [...(known?.addressed ?? []), addressedAs(recipient)] });
  }
  return { targets: [...byCompany.values()], unknown };
}

export async function receiveInbound(deps: EmailInDeps, key: string): Promise<void> {
  let raw: Uint8Array;
  try {
    raw = (await deps.files.get(key)).bytes;
  } catch (error) {
    if (!isMissing(error)) throw error;
    deps.log.warn('inbound message is gone', { key });
    return;
  }
  const mail = raw.length > EMAIL_MAX_BYTES ? await parseMailHeaders(raw, TOO_LARGE_MESSAGE) : await readableMail(deps, key, raw);
  const { targets, unknown } = await targetsOf(deps, key, mail);
  if (unknown.length) deps.log.info('unknown email-in recipients dropped', { key, recipients: unknown, message_id: mail.message_id });
  if (targets.length === 0) {
    // Nothing is kept of a message for nobody: it is not stored under any company.
    deps.log.info('inbound message for no known address deleted', { key, message_id: mail.message_id });
    await deps.files.delete([key]);
    return;
  }
  const companies = targets.map((t) => t.claim.company_id);
  for (const target of targets) await receiveFor(deps, key, mail, target, companies);
}

/**
 * The whole message, or its header block when the message cannot be parsed (MIME nested deeper than the parser goes,
 * broken structure): parsing reads only these bytes, so every retry would fail the same way and the mail would reach
 * the dead-letter queue with nobody told. Recorded this way, the address's owner gets the not-taken notice.
 */
async function readableMail(deps: EmailInDeps, key: string, raw: Uint8Array): Promise<ParsedMail> {
  try {
    return await parseMail(raw);
  } catch (error) {
    deps.log.warn('inbound message could not be parsed', { key, error: error instanceof Error ? error.message : String(error) });
    return parseMailHeaders(raw, UNREADABLE_MAIL);
  }
}

export { emailIdOf };

async function ownerOf(deps: EmailInDeps, company: CompanyRecord, claim: EmailInClaim): Promise<string> {
  if (claim.user_id && (await deps.store.getMembership(claim.user_id, company.company_id))) return claim.user_id;
  return company.owner.user_id;
}

async function receiveFor(deps: EmailInDeps, key: string, mail: ParsedMail, target: Target, companies: string[]): Promise<void> {
  const companyId = target.claim.company_id;
  const company = (await deps.store.getCompanies([companyId]))[0];
  if (!company) {
    deps.log.warn('email-in claim of a company that is gone', { address: target.claim.address, company_id: companyId });
    return;
  }
  const emailId = emailIdOf(mail, companyId);
  let record = await deps.emails.get(emailId);
  if (record?.state === 'done') {
    deps.log.info('message already received', { email_id: emailId, key });
    return;
  }
  const now = deps.clock.now().toISOString();
  const refusal = senderRefusal(company.email_in_senders, mail, deps.serverChecksSenders);
  if (!record) {
    const fresh: EmailRecord = {
      email_id: emailId,
      company_id: companyId,
      owner_id: await ownerOf(deps, company, target.claim),
      address: target.claim.address,
      to_addresses: target.addressed,
      message_id: mail.message_id,
      content_hash: mail.content_hash,
      subject: mail.subject,
      from: mail.from,
      from_address: mail.from_address,
      arrived_at: mail.received_at ?? now,
      text: mail.text,
      receipt_type: receiptTypeOf(target.tag, mail.subject),
      files: [],
      rejected_files: refusal ? refusedParts(mail, refusal) : mail.rejected,
      sender_refused: refusal,
      auth: mail.auth,
      raw_key: key,
      to_companies: companies,
      state: 'receiving',
      created_at: now,
    };
    if (await deps.emails.create(fresh)) record = fresh;
    else record = (await deps.emails.get(emailId))!;
    if (record.state === 'done') return;
  }
  const [owner] = await deps.store.getProfiles([record.owner_id]);
  const files: EmailRecord['files'] = [];
  const taken: TakenFiles = { reading: 0, overQuota: [] };
  // The record says whether the sender was refused (a later delivery follows it, whatever the list says by then).
  const refused = Boolean(record.sender_refused);
  const attachments = refused ? [] : mail.attachments;
  if (attachments.length) await releaseExpiredReservations(deps, companyId);
  for (const [index, attachment] of attachments.entries()) {
    const upload = await uploadOf(deps, record, company, owner ? { name: owner.name, surname: owner.surname } : { name: '', surname: '' }, attachment, index);
    if (!(await deps.files.head(upload.key))) await deps.files.put(upload.key, attachment.bytes, attachment.content_type);
    const stored = await deps.files.head(upload.key);
    if (!stored) throw new Error(`the attachment object ${upload.key} was not stored`);
    files.push({ receipt_id: documentIdFor(upload.key, stored.etag, null), original_file_name: attachment.original_file_name });
    // An upload made without a month's reservation is over the quota: the processing job keeps it as a failed document.
    if (upload.month === null) taken.overQuota.push(attachment.original_file_name);
    else taken.reading += 1;
  }
  if (!(await deps.emails.finish(emailId, files))) {
    // Another delivery of the same message finished the record (and sends the notice).
    deps.log.info('message already received', { email_id: emailId, key });
    return;
  }
  deps.log.info('message received', {
    email_id: emailId,
    company_id: companyId,
    documents: files.length,
    over_quota: taken.overQuota.length,
    not_taken: record.rejected_files.length,
    ...(refused ? { sender_refused: true } : {}),
  });
  // A sender the company does not take mail from gets no notice to the owner: the mail list shows it, and a notice
  // for every mail of a stranger (spam) is what the list was made to stop.
  if (!refused) await sendNotice(deps, record, mail, taken, owner);
}

/** Why no notice may answer the mail: it was sent by a machine (ParsedMail.automatic) or by this product itself. */
function automaticReason(deps: Pick<EmailInDeps, 'mailFrom'>, mail: ParsedMail): string | null {
  const own = (/<([^<>\s]+@[^<>\s]+)>\s*$/.exec(deps.mailFrom)?.[1] ?? deps.mailFrom).trim().toLowerCase();
  if (own && mail.from_address === own) return 'sent by this product (MAIL_FROM)';
  return mail.automatic;
}

/**
 * Tells the address's owner what of the mail was not taken or is over the quota (nothing is sent when all of it
 * is being read). Sent by the one run that finished the record; a failure to send is logged and does not fail the
 * mail, whose documents exist already (a run that dies between the two sends no notice: the next delivery finds
 * the mail done). An automatic mail gets no notice: a notice answering an auto-reply, a delivery report, a mail
 * a mailbox rule sent or a notice forwarded back to the address (its marker) could set off another one, forever;
 * and at most NOTICES_PER_HOUR notices go out an hour for one address, whatever comes in.
 */
async function sendNotice(
  deps: EmailInDeps,
  record: EmailRecord,
  mail: ParsedMail,
  taken: TakenFiles,
  owner: { email: string; name: string } | undefined,
): Promise<void> {
  if (!owner?.email) return;
  // The notice names the address as its owner sees it: at the deployed domain (address.ts), not the stored form.
  const notice = notTakenNotice({ ...record, address: shownEmailInAddress(record.address, deps.domains[0] ?? '') }, taken, owner);
  if (!notice) return;
  const automatic = automaticReason(deps, mail);
  if (automatic) {
    deps.log.info('no notice for an automatic mail', { email_id: record.email_id, automatic });
    return;
  }
  const now = deps.clock.now();
  const expiresAt = Math.floor(now.getTime() / 1000) + NOTICE_COUNT_LIFETIME_SECONDS;
  if (!(await deps.emails.countNotice(record.address, now.toISOString().slice(0, 13), NOTICES_PER_HOUR, expiresAt))) {
    deps.log.warn('no notice: the notices of the hour for this address are used up', { email_id: record.email_id, address: record.address, max: NOTICES_PER_HOUR });
    return;
  }
  try {
    await deps.mailer.send(notice);
    deps.log.info('not-taken notice sent', {
      email_id: record.email_id,
      reading: taken.reading,
      over_quota: taken.overQuota.length,
      not_taken: record.rejected_files.length,
    });
  } catch (error) {
    deps.log.warn('not-taken notice not sent', { email_id: record.email_id, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * The pending upload of one attachment, created once: with one document of the month reserved (D11); over the
 * quota, without a reservation (state released), so the processing job keeps the file as a failed document with
 * the quota message the user sees, as for an upload that ran over the quota.
 */
async function uploadOf(
  deps: EmailInDeps,
  email: EmailRecord,
  company: CompanyRecord,
  owner: { name: string; surname: string },
  attachment: MailAttachment,
  index: number,
): Promise<UploadRecord> {
  const uploadId = digest(`${email.email_id}#${index}`);
  const existing = await deps.documents.getUpload(uploadId);
  if (existing) return existing;
  const now = deps.clock.now();
  const month = monthOf(now);
  const upload: UploadRecord = {
    upload_id: uploadId,
    key: uploadKey(company.company_id, email.owner_id, uploadId, attachment.original_file_name),
    scope: companyScope(company.company_id),
    company_id: company.company_id,
    company_name: company.name,
    company_code: company.code,
    owner_id: email.owner_id,
    owner,
    created_by: email.owner_id,
    created_by_name: owner,
    receipt_type: email.receipt_type,
    mode: 'single',
    upload_type: EMAIL_UPLOAD_TYPE,
    notes: '',
    receipt_id: null,
    category: null,
    original_file_name: attachment.original_file_name,
    content_type: attachment.content_type,
    declared_size: attachment.bytes.length,
    process_rows: true,
    month,
    state: 'pending',
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + RESERVATION_SECONDS * 1000).toISOString(),
    document_ids: [],
    email_id: email.email_id,
  };
  try {
    await deps.documents.putUpload(upload, reserveOneDocument(company.company_id, month, company.available_documents));
    return upload;
  } catch (error) {
    if (!(error instanceof CommitConflict)) throw error;
    if (error.reason === 'exists') return (await deps.documents.getUpload(uploadId))!;
    if (error.reason !== 'quota') throw error;
  }
  const unreserved: UploadRecord = { ...upload, state: 'released', month: null };
  try {
    await deps.documents.putUpload(unreserved);
    deps.log.info('email attachment over the monthly quota', { email_id: email.email_id, upload_id: uploadId });
    return unreserved;
  } catch (error) {
    if (error instanceof CommitConflict && error.reason === 'exists') return (await deps.documents.getUpload(uploadId))!;
    throw error;
  }
}
