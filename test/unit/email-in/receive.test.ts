/** The email-in job's rules with in-memory stores: uploads with reservations, redelivery, a run that died half way, quota, unknown recipients. */
import MailComposer from 'nodemailer/lib/mail-composer';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import type { EmailStore } from '../../../lambdas/core/email-in/ports';
import { NO_ATTACHMENT } from '../../../lambdas/core/email-in/notice';
import { receiveInbound, type EmailInDeps } from '../../../lambdas/core/email-in/receive';
import type { EmailInClaim, EmailRecord } from '../../../lambdas/core/email-in/types';
import type { OutgoingMail } from '../../../lambdas/core/team/types';
import { memoryAccounts, MemoryDocuments, MemoryFiles } from '../documents/fakes';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

function memoryEmails(claims: EmailInClaim[]): EmailStore & { records: Map<string, EmailRecord> } {
  const records = new Map<string, EmailRecord>();
  return {
    records,
    claim: async (address) => claims.find((c) => c.address === address),
    get: async (id) => (records.has(id) ? structuredClone(records.get(id)!) : undefined),
    create: async (r) => {
      if (records.has(r.email_id)) return false;
      records.set(r.email_id, structuredClone(r));
      return true;
    },
    finish: async (id, files) => {
      records.set(id, { ...records.get(id)!, state: 'done', files });
    },
  };
}

function setup(available = 10) {
  const clock = { now: () => new Date('2026-03-10T10:00:00Z') };
  const company = { ...newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'owner-1', name: 'Ona', surname: 'Owner', email: 'o@x' }, { newId: () => ulid() }, clock), available_documents: available };
  const documents = new MemoryDocuments();
  const files = new MemoryFiles();
  const emails = memoryEmails([{ address: company.email, company_id: company.company_id }]);
  const logs: string[] = [];
  const sent: OutgoingMail[] = [];
  const deps: EmailInDeps = {
    emails,
    documents,
    files,
    store: memoryAccounts(company),
    clock,
    domains: [],
    mailer: { send: async (m) => (sent.push(m), {}) },
    log: { info: (m) => void logs.push(m), warn: (m) => void logs.push(m) },
  };
  return { deps, company, documents, files, emails, logs, sent };
}

async function mail(to: string, names: string[], others: { filename: string; content: Buffer }[] = [], messageId = '<one@example.com>'): Promise<Uint8Array> {
  const raw = await new MailComposer({
    from: 'shop@example.com',
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

  it('drops mail for unknown addresses: nothing recorded, the raw message deleted', async () => {
    const { deps, documents, files, emails, logs } = setup();
    await files.put('inbound/m1', await mail('nobody@in.receipts.local', ['a.pdf']), 'message/rfc822');
    await receiveInbound(deps, 'inbound/m1');
    expect(documents.uploads.size).toBe(0);
    expect(emails.records.size).toBe(0);
    expect(await files.head('inbound/m1')).toBeUndefined();
    expect(logs).toContain('unknown email-in recipients dropped');
  });
});
