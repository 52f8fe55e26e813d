/**
 * The email-in job's rules with in-memory stores: uploads with reservations, redelivery, a run that died half way, quota,
 * unknown recipients, tags, automatic mail and the notice.
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import type { EmailStore } from '../../../lambdas/core/email-in/ports';
import { NOTICE_MARKER_LINE } from '../../../lambdas/core/email-in/notice';
import { NO_ATTACHMENT } from '../../../shared/schemas/emails';
import { UPLOAD_MSG } from '../../../shared/schemas/receipts';
import { isKnownRecipient, NOTICES_PER_HOUR, receiveInbound, UNREADABLE_MAIL, type EmailInDeps } from '../../../lambdas/core/email-in/receive';
import type { EmailInClaim, EmailRecord } from '../../../lambdas/core/email-in/types';
import type { OutgoingMail } from '../../../lambdas/core/team/types';
import { deliveryReport } from '../../support/delivery-report';
import { memoryAccounts, MemoryDocuments, MemoryFiles } from '../documents/fakes';
import { SENDER_NOT_ALLOWED, SENDER_NOT_VERIFIED } from '../../../lambdas/core/email-in/senders';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

function memoryEmails(claims: EmailInClaim[]): EmailStore & { records: Map<string, EmailRecord>; notices: Map<string, number>; envelopes: Map<string, string[]> } {
  const records = new Map<string, EmailRecord>();
  const notices = new Map<string, number>();
  const envelopes = new Map<string, string[]>();
  return {
    records,
    notices,
    envelopes,
    putEnvelope: async (messageId, recipients) => void envelopes.set(messageId, [...recipients]),
    envelope: async (messageId) => envelopes.get(messageId),
    // Conditional, as the table's: counted only while below the limit.
    countNotice: async (address, hour, max) => {
      const key = `${address}#${hour}`;
      const n = notices.get(key) ?? 0;
      if (n >= max) return false;
      notices.set(key, n + 1);
      return true;
    },
    claim: async (address) => claims.find((c) => c.address === address),
    get: async (id) => (records.has(id) ? structuredClone(records.get(id)!) : undefined),
    listOfCompany: async (companyId, page) => {
      const sorted = [...records.values()].filter((r) => r.company_id === companyId).map((r) => ({ r, at: `${r.created_at}#${r.email_id}` }));
      sorted.sort((a, b) => (a.at < b.at ? 1 : -1));
      const rest = page.after ? sorted.filter((x) => x.at < page.after!) : sorted;
      const items = rest.slice(0, page.limit);
      return { items: items.map((x) => structuredClone(x.r)), next: rest.length > page.limit ? items[items.length - 1].at : null };
    },
    create: async (r) => {
      if (records.has(r.email_id)) return false;
      records.set(r.email_id, structuredClone(r));
      return true;
    },
    // Conditional, as the table's: only a record still receiving is finished, and only once.
    finish: async (id, files) => {
      const record = records.get(id);
      if (!record || record.state !== 'receiving') return false;
      records.set(id, { ...record, state: 'done', files });
      return true;
    },
  };
}

const MAIL_FROM = 'Receipts <no-reply@receipts.local>';

function setup(available = 10, claims: EmailInClaim[] = [], serverChecksSenders = false) {
  const clock = { now: () => new Date('2026-03-10T10:00:00Z') };
  const company = { ...newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'owner-1', name: 'Ona', surname: 'Owner', email: 'o@x' }, { newId: () => ulid() }, clock), available_documents: available };
  const documents = new MemoryDocuments();
  const files = new MemoryFiles();
  const emails = memoryEmails([{ address: company.email, company_id: company.company_id }, ...claims.map((c) => ({ ...c, company_id: company.company_id }))]);
  const logs: string[] = [];
  const sent: OutgoingMail[] = [];
  const deps: EmailInDeps = {
    emails,
    documents,
    files,
    store: memoryAccounts(company),
    clock,
    domains: [],
    mailFrom: MAIL_FROM,
    serverChecksSenders,
    mailer: { send: async (m) => (sent.push(m), {}) },
    log: { info: (m) => void logs.push(m), warn: (m) => void logs.push(m) },
  };
  return { deps, company, documents, files, emails, logs, sent };
}

async function mail(
  to: string | string[],
  names: string[],
  others: { filename: string; content: Buffer }[] = [],
  messageId = '<one@example.com>',
  extra: { from?: string; headers?: Record<string, string> } = {},
): Promise<Uint8Array> {
  const raw = await new MailComposer({
    from: extra.from ?? 'shop@example.com',
    headers: extra.headers,
    to,
    subject: 'Receipts',
    text: 'see attached',
    messageId,
    attachments: [...names.map((filename) => ({ filename, content: PDF })), ...others],
  })
    .compile()
    .build();
  return new Uint8Array(raw);
}

describe('receiveInbound', () => {
  it('makes one reserved pending upload per attachment, stored where an upload goes, and records the email once', async () => {
    const { deps, company, documents, files, emails } = setup();
    await files.put('inbound/m1', await mail(company.email, ['a.pdf', 'b.pdf']), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m1');
    const uploads = [...documents.uploads.values()];
    expect(uploads).toHaveLength(2);
    for (const u of uploads) {
      expect(u).toMatchObject({ state: 'pending', company_id: company.company_id, owner_id: 'owner-1', receipt_type: 'receipt', mode: 'single', upload_type: 'email' });
      expect(u.key.startsWith(`uploads/${company.company_id}/owner-1/${u.upload_id}/`)).toBe(true);
      expect(await files.head(u.key)).toBeDefined();
    }
    const [record] = [...emails.records.values()];
    expect(record).toMatchObject({ state: 'done', subject: 'Receipts', company_id: company.company_id });
    expect(record!.files.map((f) => f.original_file_name)).toEqual(['a.pdf', 'b.pdf']);
    expect(uploads.every((u) => u.email_id === record!.email_id)).toBe(true);
    expect((await documents.usage(company.company_id, '2026-03')).quota_taken).toBe(2);

    // Delivered again (another object of the same mail): nothing new.
    await files.put('inbound/m2', await mail(company.email, ['a.pdf', 'b.pdf']), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m2');
    expect(documents.uploads.size).toBe(2);
    expect(emails.records.size).toBe(1);
    expect((await documents.usage(company.company_id, '2026-03')).quota_taken).toBe(2);
  });

  it('finishes a run that died half way without doubles', async () => {
    const { deps, company, documents, files, emails } = setup();
    await files.put('inbound/m1', await mail(company.email, ['a.pdf', 'b.pdf']), 'message/rfc822');
    const put = files.put.bind(files);
    let failNext = true;
    files.put = async (key, bytes, type) => {
      if (key.endsWith('/b.pdf') && failNext) {
        failNext = false;
        throw new Error('S3 is down');
      }
      return put(key, bytes, type);
    };
    await expect(receiveInbound(deps, 'inbound/m1')).rejects.toThrow('S3 is down');
    expect([...emails.records.values()][0]!.state).toBe('receiving');
    await receiveInbound(deps, 'inbound/m1');
    expect(documents.uploads.size).toBe(2);
    expect([...emails.records.values()][0]!.files).toHaveLength(2);
    expect((await documents.usage(company.company_id, '2026-03')).quota_taken).toBe(2);
  });

  it('over the quota keeps the attachment as an upload without a reservation (the processing job fails it with the quota message)', async () => {
    const { deps, company, documents, files } = setup(1);
    await files.put('inbound/m1', await mail(company.email, ['a.pdf', 'b.pdf']), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m1');
    const states = [...documents.uploads.values()].map((u) => [u.original_file_name, u.state]);
    expect(states).toEqual([
      ['a.pdf', 'pending'],
      ['b.pdf', 'released'],
    ]);
  });

  it("tells the address's owner what of a mail was not taken, once; a mail taken in full sends nothing", async () => {
    const { deps, company, files, sent } = setup();
    const zip = Buffer.from('PK\u0003\u0004 not a document');
    await files.put('inbound/m1', await mail(company.email, ['a.pdf'], [{ filename: 'photos.zip', content: zip }]), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m1');
    await receiveInbound(deps, 'inbound/m1');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: 'owner-1@x', subject: 'Not every part of your mail was taken: Receipts' });
    expect(sent[0]!.text).toContain(`The mail "Receipts" from shop@example.com to ${company.email}, received `);
    expect(sent[0]!.text).toMatch(/received \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, became 1 document, which is being read\./);
    expect(sent[0]!.text).toContain('- photos.zip: This file type is not allowed');
    expect(sent[0]!.html).toContain('<li>photos.zip: This file type is not allowed</li>');
    // Every part taken: no notice
    await files.put('inbound/m2', await mail(company.email, ['b.pdf'], [], '<two@example.com>'), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m2');
    expect(sent).toHaveLength(1);
  });

  it('tells the owner of a mail without attachments, and a notice that cannot be sent does not fail the mail', async () => {
    const { deps, company, files, emails, sent, logs } = setup();
    await files.put('inbound/m1', await mail(company.email, []), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m1');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('No document was taken from your mail: Receipts');
    expect(sent[0]!.text).toContain('did not become a document.');
    expect(sent[0]!.text).toContain(NO_ATTACHMENT);
    deps.mailer = { send: async () => Promise.reject(new Error('SES is down')) };
    await files.put('inbound/m2', await mail(company.email, [], [], '<three@example.com>'), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m2');
    expect([...emails.records.values()].every((r) => r.state === 'done')).toBe(true);
    expect(logs).toContain('not-taken notice not sent');
  });

  it('names the address at the deployed domain in its notice; the record keeps the stored address', async () => {
    const { deps, company, files, emails, sent } = setup();
    deps.domains = ['in.example.com'];
    const shown = company.email.replace('@in.receipts.local', '@in.example.com');
    await files.put('inbound/m1', await mail(shown, []), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m1');
    expect([...emails.records.values()].map((r) => r.address)).toEqual([company.email]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(`to ${shown}, received`);
    expect(sent[0]!.text).not.toContain('@in.receipts.local');
  });

  it('records a mail it cannot parse (MIME nested past the parser) and tells the owner of the address, instead of failing every delivery', async () => {
    const { deps, company, files, emails, sent, logs, documents } = setup();
    let body = 'Content-Type: application/pdf; name="a.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n' + PDF.toString('base64') + '\r\n';
    for (let i = 0; i < 70; i += 1) body = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${body}\r\n--b${i}--\r\n`;
    const raw = `From: shop@example.com\r\nTo: ${company.email}\r\nSubject: Deep\r\nMessage-ID: <deep@example.com>\r\nMIME-Version: 1.0\r\n${body}`;
    await files.put('inbound/deep', new TextEncoder().encode(raw), 'message/rfc822');
    await receiveInbound(deps, 'inbound/deep');
    const [record] = [...emails.records.values()];
    expect(record).toMatchObject({ state: 'done', subject: 'Deep', from_address: 'shop@example.com', files: [] });
    expect(record!.rejected_files).toEqual([{ original_file_name: 'message', reason: UNREADABLE_MAIL }]);
    expect(documents.uploads.size).toBe(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('owner-1@x');
    expect(sent[0]!.text).toContain(UNREADABLE_MAIL);
    expect(logs).toContain('inbound message could not be parsed');
  });

  it('a mail delivered twice at the same moment makes one set of uploads and sends one notice', async () => {
    const { deps, company, documents, files, emails, sent } = setup();
    const raw = await mail(company.email, ['a.pdf'], [{ filename: 'notes.txt', content: Buffer.from('hi') }]);
    await files.put('inbound/a', raw, 'message/rfc822');
    await files.put('inbound/b', raw, 'message/rfc822');
    await Promise.all([receiveInbound(deps, 'inbound/a'), receiveInbound(deps, 'inbound/b')]);
    expect(emails.records.size).toBe(1);
    expect([...emails.records.values()][0]!.state).toBe('done');
    expect(documents.uploads.size).toBe(1);
    expect(sent).toHaveLength(1);
  });

  it('tells the owner which attachments are over the monthly quota, also when all of them are', async () => {
    const { deps, company, documents, files, sent } = setup(1);
    await files.put('inbound/m1', await mail(company.email, ['inv1.pdf', 'inv2.pdf', 'inv3.pdf'], [{ filename: 'notes.txt', content: Buffer.from('hi') }]), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m1');
    expect([...documents.uploads.values()].map((u) => u.state)).toEqual(['pending', 'released', 'released']);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Not every part of your mail was taken: Receipts');
    expect(sent[0]!.text).toMatch(/, became 3 documents; 1 is being read\./);
    expect(sent[0]!.text).toContain(`These files were kept as failed documents: ${UPLOAD_MSG.quotaExceeded}`);
    expect(sent[0]!.text).toContain('- inv2.pdf\n- inv3.pdf');
    expect(sent[0]!.text).toContain('- notes.txt: This file type is not allowed');
    expect(sent[0]!.html).toContain('<li>inv3.pdf</li>');

    // Every file over the quota, nothing else wrong: still a notice.
    await files.put('inbound/m2', await mail(company.email, ['inv4.pdf', 'inv5.pdf'], [], '<two@example.com>'), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m2');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.subject).toBe('Not every document of your mail is being read: Receipts');
    expect(sent[1]!.text).toMatch(/, became 2 documents; none is being read\./);
    expect(sent[1]!.text).toContain('- inv4.pdf\n- inv5.pdf');
    expect(sent[1]!.text).not.toContain('were not taken');
  });

  it("takes +sales of the company's address when a member's personal address of the same company is a recipient too", async () => {
    const personal = 'rasa.kolege@in.receipts.local';
    const { deps, company, documents, files, emails } = setup(10, [{ address: personal, company_id: '', user_id: 'member-1' }]);
    await files.put('inbound/m1', await mail([company.email.replace('@', '+sales@'), personal], ['a.pdf']), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m1');
    const [record] = [...emails.records.values()];
    expect(emails.records.size).toBe(1);
    expect(record).toMatchObject({ owner_id: 'member-1', address: personal, receipt_type: 'invoice' });
    // The list of mail shows both addresses as the sender wrote them, the company's with its tag.
    expect(record!.to_addresses).toEqual([company.email.replace('@', '+sales@'), personal]);
    expect([...documents.uploads.values()].map((u) => [u.owner_id, u.receipt_type])).toEqual([['member-1', 'invoice']]);
  });

  it("records an automatic mail (Auto-Submitted, Precedence, a delivery report, the product's own sender) but sends it no notice", async () => {
    const { deps, company, files, emails, sent } = setup();
    const automatic: Uint8Array[] = [
      await mail(company.email, [], [], '<auto1@example.com>', { headers: { 'Auto-Submitted': 'auto-replied' } }),
      await mail(company.email, [], [], '<auto2@example.com>', { headers: { 'Auto-Submitted': 'auto-generated; owner-email="x@example.com"' } }),
      await mail(company.email, [], [], '<auto3@example.com>', { headers: { Precedence: 'bulk' } }),
      await mail(company.email, [], [], '<auto4@example.com>', { headers: { Precedence: 'list' } }),
      await mail(company.email, [], [], '<auto5@example.com>', { from: MAIL_FROM }),
      await mail(company.email, [], [], '<auto6@example.com>', { from: 'Mail Delivery Subsystem <MAILER-DAEMON@mx.example.com>' }),
      new Uint8Array(deliveryReport({ from: 'postmaster@mx.example.com', to: company.email, messageId: '<dsn@mx.example.com>', finalRecipient: 'o@x' })),
    ];
    for (const [i, raw] of automatic.entries()) {
      await files.put(`inbound/auto${i}`, raw, 'message/rfc822');
      await receiveInbound(deps, `inbound/auto${i}`);
    }
    expect(emails.records.size).toBe(automatic.length);
    expect([...emails.records.values()].every((r) => r.state === 'done')).toBe(true);
    expect(sent).toHaveLength(0);

    // Auto-Submitted: no is a person's mail.
    await files.put('inbound/person', await mail(company.email, [], [], '<person@example.com>', { headers: { 'Auto-Submitted': 'no' } }), 'message/rfc822');
    await receiveInbound(deps, 'inbound/person');
    expect(sent).toHaveLength(1);
  });

  it('marks its notices Auto-Submitted: auto-generated, so an inbox forwarding them back to the address does not loop', async () => {
    const { deps, company, files, sent } = setup();
    await files.put('inbound/0', await mail(company.email, []), 'message/rfc822');
    await receiveInbound(deps, 'inbound/0');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers).toEqual({ 'Auto-Submitted': 'auto-generated', 'X-Receipts-Notice': 'not-taken' });
    // The owner's mailbox forwards everything to the Email-in address (headers kept, as a forwarding rule does).
    for (let i = 1; i <= 3; i++) {
      const notice = sent[sent.length - 1]!;
      const raw = await new MailComposer({ from: MAIL_FROM, to: notice.to, headers: notice.headers, subject: notice.subject, text: notice.text, html: notice.html })
        .compile()
        .build();
      await files.put(`inbound/${i}`, new Uint8Array(Buffer.concat([Buffer.from(`X-Receipts-Envelope-To: ${company.email}\r\n`), raw])), 'message/rfc822');
      await receiveInbound(deps, `inbound/${i}`);
    }
    expect(sent).toHaveLength(1);
  });

  it("takes mail only from the company's allowed senders, and from them only when the sender is not found forged", async () => {
    const { deps, company, documents, files, emails, sent } = setup();
    company.email_in_senders = ['supplier.lt', 'anna@example.com'];
    // A subdomain of an allowed domain, and an allowed address: taken.
    await files.put('inbound/ok1', await mail(company.email, ['a.pdf'], [], '<ok1@x>', { from: 'Billing <billing@mail.supplier.lt>' }), 'message/rfc822');
    await files.put('inbound/ok2', await mail(company.email, ['b.pdf'], [], '<ok2@x>', { from: 'Anna@Example.com' }), 'message/rfc822');
    await receiveInbound(deps, 'inbound/ok1');
    await receiveInbound(deps, 'inbound/ok2');
    expect(documents.uploads.size).toBe(2);

    // Anyone else: recorded with every part not taken and why; no upload, no quota, no notice.
    await files.put('inbound/no', await mail(company.email, ['c.pdf'], [{ filename: 'x.exe', content: Buffer.from('MZ') }], '<no@x>', { from: 'shop@example.com' }), 'message/rfc822');
    await receiveInbound(deps, 'inbound/no');
    // An allowed address the receiving server found forged: not taken either.
    const forged = { 'Authentication-Results': 'amazonses.com; spf=fail smtp.mailfrom=supplier.lt; dkim=none; dmarc=fail header.from=supplier.lt' };
    await files.put('inbound/forged', await mail(company.email, ['d.pdf'], [], '<forged@x>', { from: 'billing@supplier.lt', headers: forged }), 'message/rfc822');
    await receiveInbound(deps, 'inbound/forged');
    expect(documents.uploads.size).toBe(2);
    expect((await documents.usage(company.company_id, '2026-03')).quota_taken).toBe(2);
    const records = [...emails.records.values()];
    const refused = records.find((r) => r.from_address === 'shop@example.com')!;
    expect(refused).toMatchObject({ state: 'done', files: [] });
    expect(refused.rejected_files).toEqual([
      { original_file_name: 'c.pdf', reason: SENDER_NOT_ALLOWED },
      // A part not taken anyway keeps its own reason.
      { original_file_name: 'x.exe', reason: 'This file type is not allowed' },
    ]);
    expect(records.find((r) => r.message_id === '<forged@x>')!.rejected_files).toEqual([{ original_file_name: 'd.pdf', reason: SENDER_NOT_VERIFIED }]);
    expect(sent).toEqual([]);

    // A later delivery of a refused mail follows its record, even once the sender is allowed.
    company.email_in_senders = [];
    await files.put('inbound/no-again', await mail(company.email, ['c.pdf'], [{ filename: 'x.exe', content: Buffer.from('MZ') }], '<no@x>', { from: 'shop@example.com' }), 'message/rfc822');
    await receiveInbound(deps, 'inbound/no-again');
    expect(documents.uploads.size).toBe(2);
    // With the list empty again, anyone's mail is taken.
    await files.put('inbound/any', await mail(company.email, ['e.pdf'], [], '<any@x>', { from: 'shop@example.com' }), 'message/rfc822');
    await receiveInbound(deps, 'inbound/any');
    expect(documents.uploads.size).toBe(3);
  });

  it('a refused sender of a mail without attachments: recorded as refused, and no notice to the owner', async () => {
    const { deps, company, files, emails, sent, documents } = setup();
    company.email_in_senders = ['supplier.lt'];
    await files.put('inbound/bare', await mail(company.email, [], [], '<bare@x>', { from: 'shop@example.com' }), 'message/rfc822');
    await receiveInbound(deps, 'inbound/bare');
    const record = [...emails.records.values()][0]!;
    expect(record).toMatchObject({ state: 'done', files: [], rejected_files: [], sender_refused: SENDER_NOT_ALLOWED });
    expect(sent).toEqual([]);
    // An allowed sender's mail without attachments is told to the owner as before.
    await files.put('inbound/bare-ok', await mail(company.email, [], [], '<bare-ok@x>', { from: 'billing@supplier.lt' }), 'message/rfc822');
    await receiveInbound(deps, 'inbound/bare-ok');
    expect([...emails.records.values()].find((r) => r.message_id === '<bare-ok@x>')!.sender_refused).toBeNull();
    expect(sent).toHaveLength(1);
    expect(documents.uploads.size).toBe(0);
  });

  it("where the receiving server checks senders (SES), an allowed sender's From domain must be proven by it", async () => {
    const { deps, company, files, emails, documents } = setup(10, [], true);
    company.email_in_senders = ['supplier.lt', 'anna@example.com'];
    const ses = (results: string) => ({ 'Authentication-Results': `amazonses.com; ${results}` });
    const cases: [string, string, Record<string, string> | undefined, boolean][] = [
      ['<dmarc@x>', 'billing@supplier.lt', ses('spf=pass smtp.mailfrom=bounce@mail.supplier.lt; dkim=pass header.i=@supplier.lt; dmarc=pass header.from=supplier.lt'), true],
      // No DMARC record of the domain, a DKIM signature of it: proven.
      ['<dkim@x>', 'billing@supplier.lt', ses('spf=neutral; dkim=pass header.i=@supplier.lt; dmarc=none header.from=supplier.lt'), true],
      // SES writes SPF's properties after their own `;`: an envelope sender of the domain's subdomain proves it.
      ['<spf@x>', 'billing@supplier.lt', ses('spf=pass (spfCheck: domain of mail.supplier.lt designates 192.0.2.1 as permitted sender) client-ip=192.0.2.1; envelope-from=bounce@mail.supplier.lt; helo=mx.supplier.lt; dkim=none; dmarc=none header.from=supplier.lt'), true],
      // A `+tag` of an allowed address is that mailbox.
      ['<tag@x>', 'anna+invoices@example.com', ses('spf=pass smtp.mailfrom=anna@example.com; dkim=none; dmarc=gray header.from=example.com'), true],
      // Someone's own server passes SPF for its own domain: the From address of another is not proven.
      ['<spoof@x>', 'billing@supplier.lt', ses('spf=pass smtp.mailfrom=x@attacker.example; dkim=pass header.i=@attacker.example; dmarc=none header.from=supplier.lt'), false],
      // Nothing checked, or no results at all.
      ['<none@x>', 'billing@supplier.lt', ses('spf=none; dkim=none; dmarc=none'), false],
      ['<bare@x>', 'billing@supplier.lt', undefined, false],
    ];
    for (const [id, from, headers, taken] of cases) {
      const key = `inbound/${id.slice(1, -3)}`;
      await files.put(key, await mail(company.email, [`${id.slice(1, -3)}.pdf`], [], id, { from, headers }), 'message/rfc822');
      await receiveInbound(deps, key);
      const record = [...emails.records.values()].find((r) => r.message_id === id)!;
      expect({ id, refused: record.sender_refused }).toEqual({ id, refused: taken ? null : SENDER_NOT_VERIFIED });
    }
    expect(documents.uploads.size).toBe(4);
  });

  it("routes by the envelope SES's rule kept (AWS): a Bcc that no header names", async () => {
    const { deps, company, documents, files, emails } = setup();
    // SES stores one message for several recipients without naming them; only the envelope knows the Bcc.
    const bcc = async (key: string) => files.put(key, await mail('customer@elsewhere.example', ['bcc.pdf'], [], `<${key}@x>`), 'message/rfc822');
    await bcc('inbound/ses-without');
    await receiveInbound(deps, 'inbound/ses-without');
    expect(emails.records.size).toBe(0);
    await bcc('inbound/ses-with');
    emails.envelopes.set('ses-with', [company.email.toUpperCase()]);
    await receiveInbound(deps, 'inbound/ses-with');
    expect([...emails.records.values()].map((r) => [r.company_id, r.address])).toEqual([[company.company_id, company.email]]);
    expect(documents.uploads.size).toBe(1);
  });

  it('drops mail for unknown addresses: nothing recorded, the raw message deleted', async () => {
    const { deps, documents, files, emails, logs } = setup();
    await files.put('inbound/m1', await mail('nobody@in.receipts.local', ['a.pdf']), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m1');
    expect(documents.uploads.size).toBe(0);
    expect(emails.records.size).toBe(0);
    expect(await files.head('inbound/m1')).toBeUndefined();
    expect(logs).toContain('unknown email-in recipients dropped');
  });

  it('sends no notice for a notice forwarded back by a mailbox rule as a new message (FW:, no Auto-Submitted), nor for a mail an Exchange rule sent', async () => {
    const { deps, company, files, sent, emails } = setup();
    await files.put('inbound/0', await mail(company.email, []), 'message/rfc822');
    await receiveInbound(deps, 'inbound/0');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(NOTICE_MARKER_LINE);
    expect(sent[0]!.html).toContain('RECEIPTS-EMAIL-IN-NOTICE');
    // Outlook's forward: a new message from the owner, the notice quoted in its body, none of its headers.
    for (let i = 1; i <= 3; i++) {
      const notice = sent[sent.length - 1]!;
      const quoted = notice.text.split('\n').map((line) => `> ${line}`).join('\n');
      const raw = await new MailComposer({ from: 'Ona Owner <o@x>', to: company.email, subject: `FW: ${notice.subject}`, text: `\n\nFrom: Receipts\nSubject: ${notice.subject}\n\n${quoted}` })
        .compile()
        .build();
      await files.put(`inbound/${i}`, new Uint8Array(raw), 'message/rfc822');
      await receiveInbound(deps, `inbound/${i}`);
    }
    expect(sent).toHaveLength(1);
    // A mail an Exchange rule forwarded (the rule's header, no marker): recorded, not answered.
    await files.put('inbound/rule', await mail(company.email, [], [], '<rule@example.com>', { headers: { 'X-MS-Exchange-Inbox-Rules-Loop': 'o@x' } }), 'message/rfc822');
    await receiveInbound(deps, 'inbound/rule');
    expect(sent).toHaveLength(1);
    expect(emails.records.size).toBe(5);
  });

  it('sends at most NOTICES_PER_HOUR notices an hour for one address; the other mails are recorded', async () => {
    const { deps, company, files, sent, emails, logs } = setup();
    for (let i = 0; i < NOTICES_PER_HOUR + 2; i++) {
      await files.put(`inbound/${i}`, await mail(company.email, [], [], `<cap-${i}@example.com>`), 'message/rfc822');
      await receiveInbound(deps, `inbound/${i}`);
    }
    expect(sent).toHaveLength(NOTICES_PER_HOUR);
    expect(emails.records.size).toBe(NOTICES_PER_HOUR + 2);
    expect(logs).toContain('no notice: the notices of the hour for this address are used up');
    // The next hour: notices again.
    deps.clock = { now: () => new Date('2026-03-10T11:00:00Z') };
    await files.put('inbound/next', await mail(company.email, [], [], '<cap-next@example.com>'), 'message/rfc822');
    await receiveInbound(deps, 'inbound/next');
    expect(sent).toHaveLength(NOTICES_PER_HOUR + 1);
  });

  it('makes no upload from the message a delivery report returns', async () => {
    const { deps, company, files, documents, emails, sent } = setup();
    const original = await mail('someone@elsewhere.example', ['SF-99.pdf'], [], '<spam@example.com>', { from: company.email });
    const report = deliveryReport({ from: 'MAILER-DAEMON@mx.example.com', to: company.email, messageId: '<dsn-2@mx.example.com>', original });
    await files.put('inbound/dsn', new Uint8Array(report), 'message/rfc822');
    await receiveInbound(deps, 'inbound/dsn');
    expect(documents.uploads.size).toBe(0);
    expect([...emails.records.values()].map((r) => [r.subject, r.files, r.rejected_files])).toEqual([['Undelivered Mail Returned to Sender', [], []]]);
    expect(sent).toHaveLength(0);
  });

  it('knows a recipient by the same claim look-up the job routes by: unknown, released and other domains are not known', async () => {
    const { deps, company } = setup();
    expect(await isKnownRecipient(deps, company.email)).toBe(true);
    expect(await isKnownRecipient(deps, company.email.replace('@', '+Sales@').toUpperCase())).toBe(true);
    expect(await isKnownRecipient(deps, 'typo-x1y2z3@in.receipts.local')).toBe(false);
    expect(await isKnownRecipient(deps, company.email.replace(/@.*/, '@example.com'))).toBe(false);
  });
});
