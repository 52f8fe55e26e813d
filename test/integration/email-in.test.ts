/**
 * Email-in through the real local path: an SMTP client (nodemailer) → the local SMTP server → the bucket's
 * inbound/ → queue → email-in job → pending uploads → processing job → documents, and GET /emails/{id}.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import nodemailer from 'nodemailer';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_IN_DOMAIN, EMAIL_IN_PREFIX } from '../../shared/constants';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { outlookMsg } from '../support/outlook-msg';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { s3 } from '../../lambdas/adapters/s3/files';
import {
  addMembership,
  apiClient,
  openLiveChannel,
  registeredUser,
  setAvailableDocuments,
  startTestStack,
  subOf,
  type TestStack,
} from '../support/local-stack';

const DEMO = path.resolve(import.meta.dirname, '../../scripts/local/demo');
const JPEG = readFileSync(path.join(DEMO, 'shop-receipt.jpg'));

/** A born-digital PDF with a few lines: recognised, but not complete enough to be ready by itself. */
async function textPdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 14, font }));
  return Buffer.from(await doc.save());
}

type Summary = { receipt_id: string; status: string; email_id: string | null; original_file_name: string; user_id: string; receipt_type: string; error: { message: string } | null };
type Email = {
  email_id: string;
  subject: string;
  from: string;
  to: string;
  arrived_at: string;
  text: string;
  files: { receipt_id: string; original_file_name: string; failed?: string }[];
  rejected_files: { original_file_name: string; reason: string }[];
  auth: { spf: string; dkim: string; dmarc: string; warning: string | null };
  state: string;
};

function compose(options: Mail.Options): Promise<Buffer> {
  return new MailComposer(options).compile().build();
}

describe('email-in', () => {
  let t: TestStack;
  let send: (to: string[], raw: Buffer) => Promise<void>;
  let PDF_A: Buffer;
  let PDF_B: Buffer;
  beforeAll(async () => {
    PDF_A = await textPdf(['Taxi ride', 'Total 12.50 EUR']);
    PDF_B = await textPdf(['Parking', 'Paid 4.00 EUR']);
    t = await startTestStack();
    const transport = nodemailer.createTransport({ host: t.stack.smtp.host, port: t.stack.smtp.port, secure: false, ignoreTLS: true });
    send = async (to, raw) => {
      await transport.sendMail({ envelope: { from: 'billing@supplier.example', to }, raw });
    };
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function settle() {
    await t.stack.emailJobs.idle();
    await t.stack.jobs.idle();
  }
  async function inboundKeys(): Promise<string[]> {
    const res = await s3().send(new ListObjectsV2Command({ Bucket: process.env.DOCUMENTS_BUCKET, Prefix: EMAIL_IN_PREFIX }));
    return (res.Contents ?? []).map((o) => o.Key!);
  }
  async function documents(api: ReturnType<typeof apiClient>, companyId: string): Promise<Summary[]> {
    const res = await api.get(`/receipts?company_id=${companyId}`);
    expect(res.status).toBe(200);
    return (res.body as { items: Summary[] }).items;
  }
  async function companyEmail(api: ReturnType<typeof apiClient>, companyId: string): Promise<string> {
    const companies = (await api.get('/companies')).body as { items: { company_id: string; email: string }[] };
    return companies.items.find((c) => c.company_id === companyId)!.email;
  }

  it('turns two PDFs and an inline JPEG into documents with email_id; the .txt is listed as not taken; resending creates nothing', async () => {
    const { api, token, companyId, user } = await registeredUser(t.stack, 'mailin');
    const address = await companyEmail(api, companyId);
    expect(address.endsWith(`@${EMAIL_IN_DOMAIN}`)).toBe(true);
    const mailsBefore = t.stack.mail.messages().length;
    const live = await openLiveChannel(t.stack.wsUrl, token, companyId);
    const raw = await compose({
      from: 'Supplier Billing <billing@supplier.example>',
      to: address,
      subject: 'Receipts for March',
      messageId: '<march-receipts@supplier.example>',
      text: 'Hello,\nplease find the March receipts attached.\n<b>not bold</b>',
      html: '<p>Hello,<br>please find the March receipts attached.</p><img src="cid:shop@receipt">',
      attachments: [
        { filename: 'office-supplies-invoice.pdf', content: PDF_A, contentType: 'application/pdf' },
        { filename: 'sąskaita faktūra.2026.03.pdf', content: PDF_B, contentType: 'application/octet-stream' },
        { filename: 'shop-receipt.jpg', content: JPEG, contentType: 'image/jpeg', cid: 'shop@receipt', contentDisposition: 'inline' },
        { filename: 'notes.txt', content: 'call the supplier', contentType: 'text/plain' },
      ],
    });
    await send([address], raw);
    await settle();

    // The three documents appeared In Processing (live events, like uploads), each with the email's id.
    const events = async (n: number) => {
      for (let i = 0; i < 100 && live.messages.filter((m) => m.event === 'receipt').length < n; i++) await new Promise((r) => setTimeout(r, 50));
      return live.messages.filter((m) => m.event === 'receipt').map((m) => m.payload as Summary);
    };
    const created = await events(3);
    expect(created).toHaveLength(3);
    for (const doc of created) expect(doc).toMatchObject({ status: 'processing', email_id: expect.any(String) });
    const emailId = created[0]!.email_id!;
    expect(new Set(created.map((d) => d.email_id))).toEqual(new Set([emailId]));
    live.close();

    const docs = await documents(api, companyId);
    expect(docs).toHaveLength(3);
    expect(docs.map((d) => d.original_file_name).sort()).toEqual(['office-supplies-invoice.pdf', 'shop-receipt.jpg', 'sąskaita faktūra.2026.03.pdf']);
    for (const d of docs) expect(d).toMatchObject({ status: 'review', email_id: emailId, receipt_type: 'receipt', user_id: subOf(token) });
    const review = (await api.get(`/receipts?company_id=${companyId}&receipt_status=review`)).body as { items: Summary[] };
    expect(review.items).toHaveLength(3);

    const email = await api.get(`/emails/${emailId}?company_id=${companyId}`);
    expect(email.status).toBe(200);
    const record = email.body as Email;
    expect(record).toMatchObject({
      email_id: emailId,
      subject: 'Receipts for March',
      from: 'Supplier Billing <billing@supplier.example>',
      to: address,
      state: 'done',
      auth: { spf: 'none', dkim: 'none', dmarc: 'none', warning: null },
    });
    expect(record.text).toContain('please find the March receipts attached.');
    expect(record.text).toContain('<b>not bold</b>');
    expect(Date.now() - Date.parse(record.arrived_at)).toBeLessThan(10 * 60_000);
    expect(record.files.map((f) => f.receipt_id).sort()).toEqual(docs.map((d) => d.receipt_id).sort());
    expect(record.rejected_files).toEqual([{ original_file_name: 'notes.txt', reason: 'This file type is not allowed' }]);
    const history = (await api.get(`/receipts/${docs[0]!.receipt_id}/history?company_id=${companyId}`)).body as { items: { name: string }[] };
    expect(history.items.map((h) => h.name)[0]).toBe('Received by email');
    // The owner of the address (the company's owner) is told, by mail through SES, what was not taken
    const notice = await t.stack.mail.waitFor(user.email, { after: mailsBefore });
    expect(notice.subject).toBe('Not every part of your mail was taken: Receipts for March');
    expect(notice.text).toContain('became 3 documents, which are being read.');
    expect(notice.text).toContain('- notes.txt: This file type is not allowed');
    expect(t.stack.mail.messages().some((m) => m.to.includes('billing@supplier.example'))).toBe(false);

    // The same mail delivered again: nothing new.
    const inboundBefore = await inboundKeys();
    await send([address], raw);
    await settle();
    expect(await documents(api, companyId)).toHaveLength(3);
    expect((await inboundKeys()).length).toBe(inboundBefore.length + 1);
    const companies = (await api.get('/companies')).body as { items: { company_id: string; used_documents: number }[] };
    expect(companies.items.find((c) => c.company_id === companyId)!.used_documents).toBe(3);
    expect(t.stack.mail.messages().filter((m) => m.to.includes(user.email))).toHaveLength(1);
  }, 240_000);

  it('a mail forwarded as attachment by desktop Outlook (.msg) gives the documents of the forwarded mail', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'outlook');
    const address = await companyEmail(api, companyId);
    const forwarded = outlookMsg({ subject: 'Invoice 17', from: 'billing@supplier.example', files: [{ name: 'invoice 17.pdf', bytes: PDF_A }] });
    const raw = await compose({
      from: 'Bookkeeper <bookkeeper@client.example>',
      to: address,
      subject: 'FW: Invoice 17',
      text: 'See the attached mail.',
      attachments: [{ filename: 'Invoice 17.msg', content: Buffer.from(forwarded), contentType: 'application/vnd.ms-outlook' }],
    });
    await send([address], raw);
    await settle();
    const docs = await documents(api, companyId);
    expect(docs.map((d) => [d.original_file_name, d.status])).toEqual([['invoice 17.pdf', 'review']]);
    const email = (await api.get(`/emails/${docs[0]!.email_id}?company_id=${companyId}`)).body as Email;
    expect(email).toMatchObject({ subject: 'FW: Invoice 17', rejected_files: [] });
    expect(email.files.map((f) => f.receipt_id)).toEqual([docs[0]!.receipt_id]);
  }, 240_000);

  it('refuses a mistyped or released Email-in address during the SMTP dialogue with 550, so the sender is told; nothing is kept', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mailnone');
    const address = await companyEmail(api, companyId);
    const released = `old.member.${Date.now().toString(36)}@${EMAIL_IN_DOMAIN}`;
    await ddb().send(
      new PutCommand({ TableName: process.env.TABLE_NAME, Item: { ...keys.emailIn(released), type: 'EMAILIN', kind: 'released', released_company_id: companyId, address: released } }),
    );
    await settle();
    const before = await inboundKeys();
    const typo = address.replace(/^(.)/, (c) => (c === 'z' ? 'y' : 'z'));
    for (const to of [typo, released, `nobody-here@${EMAIL_IN_DOMAIN}`]) {
      const raw = await compose({ from: 'billing@supplier.example', to, subject: 'Lost', text: 'x', attachments: [{ filename: 'a.pdf', content: PDF_A }] });
      await expect(send([to], raw), to).rejects.toMatchObject({ responseCode: 550, rejected: [to], message: expect.stringContaining('No such Email-in address') });
    }
    // A mail to a known and an unknown address: the unknown one refused, the mail taken for the known one.
    const raw = await compose({ from: 'billing@supplier.example', to: [address, typo], subject: 'Half', text: 'x', attachments: [{ filename: 'a.pdf', content: PDF_A }] });
    const transport = nodemailer.createTransport({ host: t.stack.smtp.host, port: t.stack.smtp.port, secure: false, ignoreTLS: true });
    const info = await transport.sendMail({ envelope: { from: 'billing@supplier.example', to: [address, typo] }, raw });
    expect(info.accepted).toEqual([address]);
    expect(info.rejected).toEqual([typo]);
    await settle();
    expect(await inboundKeys()).toHaveLength(before.length + 1);
    expect((await documents(api, companyId)).map((d) => d.original_file_name)).toEqual(['a.pdf']);
  });

  it('a signature logo shown by cid and re-attached social icons become no document and use none of the quota; no notice', async () => {
    const { api, companyId, user } = await registeredUser(t.stack, 'mailsig');
    const address = await companyEmail(api, companyId);
    const pixels = Buffer.alloc(90 * 75 * 3);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + ((i * i) % 251)) % 256;
    const logo = await sharp(pixels, { raw: { width: 90, height: 75, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(logo.length).toBeGreaterThan(16 * 1024);
    const icon = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3b5998' } }).png().toBuffer();
    expect(icon.length).toBeLessThan(200);
    const mailsBefore = t.stack.mail.messages().length;
    const raw = await compose({
      from: 'UAB Tiekėjas <billing@supplier.example>',
      to: address,
      subject: 'SF-15',
      text: 'Invoice attached.\n--\nUAB Tiekėjas',
      html: '<p>Invoice attached.</p><p>--<br><img src="cid:image001.png@01DC2A"> UAB Tiekėjas</p>',
      attachments: [
        { filename: 'SF-15.pdf', content: PDF_A, contentType: 'application/pdf' },
        { filename: 'image001.png', content: logo, contentType: 'image/png', cid: 'image001.png@01DC2A', contentDisposition: 'inline' },
        { filename: 'facebook.png', content: icon, contentType: 'image/png', contentDisposition: 'attachment' },
      ],
    });
    await send([address], raw);
    await settle();
    const docs = await documents(api, companyId);
    expect(docs.map((d) => [d.original_file_name, d.status])).toEqual([['SF-15.pdf', 'review']]);
    const companies = (await api.get('/companies')).body as { items: { company_id: string; used_documents: number }[] };
    expect(companies.items.find((c) => c.company_id === companyId)!.used_documents).toBe(1);
    const email = (await api.get(`/emails/${docs[0]!.email_id}?company_id=${companyId}`)).body as Email;
    expect(email.rejected_files).toEqual([]);
    expect(t.stack.mail.messages().slice(mailsBefore).filter((m) => m.to.includes(user.email))).toHaveLength(0);
  }, 120_000);

  it('a notice forwarded back by the owner inbox rule as a new FW: message (no Auto-Submitted) sets off no other notice', async () => {
    const { api, companyId, user } = await registeredUser(t.stack, 'mailfwrule');
    const address = await companyEmail(api, companyId);
    const before = t.stack.mail.messages().length;
    await send([address], await compose({ from: 'x@supplier.example', to: address, subject: 'Hello', messageId: '<fw-loop-start@supplier.example>', text: 'no attachment' }));
    await settle();
    const notice = await t.stack.mail.waitFor(user.email, { after: before });
    // Outlook's "forward to" rule: a new message from the owner, the notice in its body, none of its headers.
    let subject = notice.subject;
    for (let round = 1; round <= 2; round++) {
      subject = `FW: ${subject}`;
      const forward = await compose({
        from: user.email,
        to: address,
        subject,
        text: `\n\n________________________________\nFrom: ${notice.from}\nSubject: ${notice.subject}\n\n${notice.text}`,
        html: `<div><br></div><hr><div><b>From:</b> ${notice.from}</div>${notice.html}`,
      });
      await send([address], forward);
      await settle();
    }
    expect(t.stack.mail.messages().slice(before).filter((m) => m.to.includes(user.email))).toHaveLength(1);
    expect(notice.headers).toContainEqual({ key: 'x-receipts-notice', value: 'not-taken' });
  }, 120_000);

  it('refuses recipients of other domains at the SMTP level', async () => {
    const raw = await compose({ from: 'a@b.example', to: 'someone@example.com', subject: 'relay', text: 'x' });
    await expect(send(['someone@example.com'], raw)).rejects.toThrow(/550|Relay/);
  });

  it('routes one mail to two companies, a personal address to its member, +sales to sales invoices; over quota the file waits as a failed document with the message', async () => {
    const a = await registeredUser(t.stack, 'mailtwoa');
    const b = await registeredUser(t.stack, 'mailtwob');
    const member = await registeredUser(t.stack, 'mailmember');
    await addMembership(subOf(member.token), b.companyId, 'basic');
    const personal = `member.${Date.now().toString(36)}@${EMAIL_IN_DOMAIN}`;
    await ddb().send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: { ...keys.emailIn(personal), type: 'EMAILIN', company_id: b.companyId, address: personal, user_id: subOf(member.token) },
      }),
    );
    await setAvailableDocuments(a.companyId, 1);
    const addressA = await companyEmail(a.api, a.companyId);
    const salesA = addressA.replace('@', '+sales@');
    const raw = await compose({
      from: 'billing@supplier.example',
      to: [salesA, personal],
      subject: 'Two invoices',
      text: 'two',
      attachments: [
        { filename: 'one.pdf', content: PDF_A },
        { content: PDF_B, contentType: 'application/pdf' },
      ],
    });
    await send([salesA, personal], raw);
    await settle();

    const docsA = await documents(a.api, a.companyId);
    expect(docsA).toHaveLength(2);
    for (const d of docsA) expect(d.receipt_type).toBe('invoice');
    const failed = docsA.filter((d) => d.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error?.message).toMatch(/monthly document limit/);

    const docsB = await documents(b.api, b.companyId);
    expect(docsB).toHaveLength(2);
    for (const d of docsB) expect(d).toMatchObject({ receipt_type: 'receipt', user_id: subOf(member.token), status: 'review' });
    expect(docsB.map((d) => d.original_file_name).sort()).toEqual(['attachment-2.pdf', 'one.pdf']);
    expect(docsA[0]!.email_id).not.toBe(docsB[0]!.email_id);

    const emailA = (await a.api.get(`/emails/${docsA[0]!.email_id}?company_id=${a.companyId}`)).body as Email;
    expect(emailA.files).toHaveLength(2);
    // the mail's failed document says why, in the panel and in Settings' Mail received (GET /emails)
    const failedFile = { receipt_id: failed[0]!.receipt_id, failed: failed[0]!.error!.message };
    expect(emailA.files).toContainEqual(expect.objectContaining(failedFile));
    const listed = (await a.api.get(`/emails?company_id=${a.companyId}`)).body as { items: Email[] };
    expect(listed.items[0]!.files).toContainEqual(expect.objectContaining(failedFile));
    expect(listed.items[0]!.files.filter((f) => 'failed' in f)).toHaveLength(1);
  }, 180_000);

  it('a notice carries Auto-Submitted: auto-generated, and forwarded back to the address it sets off no other notice', async () => {
    const { api, companyId, user } = await registeredUser(t.stack, 'mailloop');
    const address = await companyEmail(api, companyId);
    const before = t.stack.mail.messages().length;
    await send([address], await compose({ from: 'x@supplier.example', to: address, subject: 'Hello', messageId: '<loop-start@supplier.example>', text: 'no attachment' }));
    await settle();
    const notice = await t.stack.mail.waitFor(user.email, { after: before });
    expect(notice.subject).toBe('No document was taken from your mail: Hello');
    expect(notice.headers).toContainEqual({ key: 'auto-submitted', value: 'auto-generated' });

    // The owner's inbox forwards (redirects) everything to the company's Email-in address: the notice as it was received.
    const forwarded = readFileSync(path.join(t.dataDir, 'mail', `${notice.id}.eml`));
    await send([address], forwarded);
    await settle();
    expect(t.stack.mail.messages().slice(before).filter((m) => m.to.includes(user.email))).toHaveLength(1);
    // The forwarded notice is still recorded, like any mail to the address.
    const { emailIdOf } = await import('../../lambdas/core/email-in/receive');
    const { parseMail } = await import('../../lambdas/core/email-in/mime');
    const recorded = await api.get(`/emails/${emailIdOf(await parseMail(forwarded), companyId)}?company_id=${companyId}`);
    expect(recorded.status).toBe(200);
    expect(recorded.body).toMatchObject({ subject: 'No document was taken from your mail: Hello', state: 'done', files: [] });
  }, 120_000);

  it('sends at most NOTICES_PER_HOUR notices an hour for one Email-in address, counted in the table; every mail is still recorded', async () => {
    const { api, companyId, user } = await registeredUser(t.stack, 'mailcap');
    const address = await companyEmail(api, companyId);
    const { emailIdOf, NOTICES_PER_HOUR } = await import('../../lambdas/core/email-in/receive');
    const { parseMail } = await import('../../lambdas/core/email-in/mime');
    const before = t.stack.mail.messages().length;
    const raws: Buffer[] = [];
    for (let i = 0; i <= NOTICES_PER_HOUR; i++) {
      raws.push(await compose({ from: `person${i}@supplier.example`, to: address, subject: `Note ${i}`, messageId: `<cap-${i}@supplier.example>`, text: 'no attachment' }));
      await send([address], raws[i]!);
    }
    await settle();
    await t.stack.mail.waitFor(user.email, { after: before + NOTICES_PER_HOUR - 1 });
    expect(t.stack.mail.messages().slice(before).filter((m) => m.to.includes(user.email))).toHaveLength(NOTICES_PER_HOUR);
    for (const raw of raws) {
      const recorded = await api.get(`/emails/${emailIdOf(await parseMail(raw), companyId)}?company_id=${companyId}`);
      expect(recorded.status).toBe(200);
    }
  }, 120_000);

  it('the email panel lists the documents of the message that still exist: a deleted one leaves it; another company sees no email', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'mailpanel');
    const address = await companyEmail(api, companyId);
    const raw = await compose({
      from: 'Supplier <billing@supplier.example>',
      to: address,
      subject: 'Invoices for November',
      text: 'Three invoices attached.',
      attachments: [
        { filename: 'inv-1.pdf', content: PDF_A, contentType: 'application/pdf' },
        { filename: 'inv-2.jpg', content: JPEG, contentType: 'image/jpeg' },
        { filename: 'inv-3.pdf', content: PDF_B, contentType: 'application/pdf' },
      ],
    });
    await send([address], raw);
    await settle();
    const docs = await documents(api, companyId);
    expect(docs).toHaveLength(3);
    const emailId = docs[0]!.email_id!;
    const panel = async () => (await api.get(`/emails/${emailId}?company_id=${companyId}`)).body as Email;
    expect((await panel()).files.map((f) => f.original_file_name)).toEqual(['inv-1.pdf', 'inv-2.jpg', 'inv-3.pdf']);

    const deleted = docs.find((d) => d.original_file_name === 'inv-1.pdf')!;
    expect((await api.delete(`/receipt/${deleted.receipt_id}?company_id=${companyId}`)).status).toBe(200);
    const after = await panel();
    expect(after.files.map((f) => f.original_file_name)).toEqual(['inv-2.jpg', 'inv-3.pdf']);
    for (const f of after.files) expect((await api.get(`/receipts/${f.receipt_id}?company_id=${companyId}`)).status, f.original_file_name).toBe(200);
    expect((await api.get(`/emails/${emailId}`)).body).toMatchObject({ files: after.files });

    const other = await registeredUser(t.stack, 'mailpanelother');
    expect((await other.api.get(`/emails/${emailId}?company_id=${other.companyId}`)).status).toBe(404);
    expect((await other.api.get(`/emails/${emailId}`)).status).toBe(404);
  }, 120_000);

  it('GET /emails/{id}: members of the email’s company only; another company 404, anonymous 401', async () => {
    const owner = await registeredUser(t.stack, 'mailiso');
    const other = await registeredUser(t.stack, 'mailother');
    const address = await companyEmail(owner.api, owner.companyId);
    const raw = await compose({ from: 'x@supplier.example', to: address, subject: 'Only a note', text: 'no attachment here' });
    await send([address], raw);
    await settle();
    expect(await documents(owner.api, owner.companyId)).toHaveLength(0);
    // A mail with no usable attachment is recorded; find it through the store-independent route by its id.
    const { emailIdOf } = await import('../../lambdas/core/email-in/receive');
    const { parseMail } = await import('../../lambdas/core/email-in/mime');
    const emailId = emailIdOf(await parseMail(raw), owner.companyId);

    const mine = await owner.api.get(`/emails/${emailId}?company_id=${owner.companyId}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ subject: 'Only a note', files: [], text: 'no attachment here', state: 'done' });
    expect((await owner.api.get(`/emails/${emailId}`)).status).toBe(200);

    expect((await other.api.get(`/emails/${emailId}?company_id=${other.companyId}`)).status).toBe(404);
    expect((await other.api.get(`/emails/${emailId}`)).status).toBe(404);
    expect((await other.api.get(`/emails/${emailId}?company_id=${owner.companyId}`)).status).toBe(403);
    expect((await owner.api.get(`/emails/${emailId}?company_id=${other.companyId}`)).status).toBe(403);
    expect((await owner.api.get(`/emails/NOPE?company_id=${owner.companyId}`)).status).toBe(404);
    expect((await apiClient(t.stack.apiUrl).get(`/emails/${emailId}?company_id=${owner.companyId}`)).status).toBe(401);
  });
});
