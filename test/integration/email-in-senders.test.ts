/**
 * Email-in limited to allowed senders (PUT /company/email-in), through the real local path (SMTP server → email-in
 * job → processing job): an administrator sets the list; mail from an address or a domain on it makes documents, mail
 * from anyone else is recorded with its parts not taken and makes none, using none of the month's quota; an empty
 * list takes mail from anyone again. Only the company's administrators may change it.
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENDER_NOT_ALLOWED } from '../../lambdas/core/email-in/senders';
import type { Company } from '../../shared/schemas/company';
import type { EmailListPage } from '../../shared/schemas/emails';
import { addMembership, apiClient, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';
import { textPdf } from '../support/text-pdf';

const pdfOf = async (line: string) => Buffer.from(await textPdf([line]));

describe('Email-in from allowed senders only (PUT /company/email-in)', () => {
  let t: TestStack;
  let send: (from: string, to: string, options: Mail.Options) => Promise<void>;
  beforeAll(async () => {
    t = await startTestStack();
    const transport = nodemailer.createTransport({ host: t.stack.smtp.host, port: t.stack.smtp.port, secure: false, ignoreTLS: true });
    send = async (from, to, options) => {
      const raw = await new MailComposer({ from, to, ...options }).compile().build();
      await transport.sendMail({ envelope: { from, to: [to] }, raw });
      await t.stack.emailJobs.idle();
      await t.stack.jobs.idle();
    };
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('takes mail from the listed addresses and domains only; the rest is listed with its parts not taken and uses no quota', async () => {
    const owner = await registeredUser(t.stack, 'sendersowner');
    const company = async () => ((await owner.api.get('/companies')).body as { items: Company[] }).items.find((c) => c.company_id === owner.companyId)!;
    const before = await company();
    expect(before.email_in_senders).toEqual([]);

    const put = await owner.api.put(`/company/email-in?company_id=${owner.companyId}`, { email_in_senders: [' Anna@Example.com ', '@supplier.example', 'supplier.example'] });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ company_id: owner.companyId, role: 'admin', email_in_senders: ['anna@example.com', 'supplier.example'] });
    expect((await company()).email_in_senders).toEqual(['anna@example.com', 'supplier.example']);

    await send('Billing <billing@mail.supplier.example>', before.email, { subject: 'From the supplier', attachments: [{ filename: 'ok.pdf', content: await pdfOf('Invoice 10.00 EUR') }] });
    await send('shop@elsewhere.example', before.email, { subject: 'From a stranger', attachments: [{ filename: 'spam.pdf', content: await pdfOf('Invoice 99.00 EUR') }] });
    await send('shop@elsewhere.example', before.email, { subject: 'A stranger, no attachment', text: 'Hello' });

    const mail = (await owner.api.get(`/emails?company_id=${owner.companyId}`)).body as EmailListPage;
    expect(mail.items.map((m) => m.subject)).toEqual(['A stranger, no attachment', 'From a stranger', 'From the supplier']);
    // A refused mail says so on its own, also without parts.
    expect(mail.items[0]).toMatchObject({ files: [], rejected_files: [], sender_refused: SENDER_NOT_ALLOWED, state: 'done' });
    expect(mail.items[1]).toMatchObject({ files: [], rejected_files: [{ original_file_name: 'spam.pdf', reason: SENDER_NOT_ALLOWED }], sender_refused: SENDER_NOT_ALLOWED, state: 'done' });
    expect(mail.items[2]!.files.map((f) => f.original_file_name)).toEqual(['ok.pdf']);
    expect(mail.items[2]!.sender_refused).toBeNull();
    // One document made, one of the month's quota used.
    const after = await company();
    expect(after.used_documents - before.used_documents).toBe(1);

    // An empty list takes mail from anyone again.
    expect((await owner.api.put(`/company/email-in?company_id=${owner.companyId}`, { email_in_senders: [] })).body).toMatchObject({ email_in_senders: [] });
    await send('shop@elsewhere.example', before.email, { subject: 'From a stranger again', attachments: [{ filename: 'now.pdf', content: await pdfOf('Invoice 5.00 EUR') }] });
    const again = (await owner.api.get(`/emails?company_id=${owner.companyId}`)).body as EmailListPage;
    expect(again.items[0]).toMatchObject({ subject: 'From a stranger again', rejected_files: [] });
    expect(again.items[0]!.files.map((f) => f.original_file_name)).toEqual(['now.pdf']);
  });

  it("is the company administrators' to change: 401 without a token, 403 for a Basic member and another company, 4xx for bad input", async () => {
    const owner = await registeredUser(t.stack, 'sendersiso');
    const basic = await registeredUser(t.stack, 'sendersbasic');
    const stranger = await registeredUser(t.stack, 'sendersstranger');
    await addMembership(subOf(basic.token), owner.companyId, 'basic');
    const path = `/company/email-in?company_id=${owner.companyId}`;
    const body = { email_in_senders: ['supplier.example'] };
    expect((await apiClient(t.stack.apiUrl).put(path, body)).status).toBe(401);
    expect((await basic.api.put(path, body)).status).toBe(403);
    expect((await stranger.api.put(path, body)).status).toBe(403);
    const companies = async () => ((await owner.api.get('/companies')).body as { items: Company[] }).items.find((c) => c.company_id === owner.companyId)!;
    expect((await companies()).email_in_senders).toEqual([]);

    const invalid = await owner.api.put(path, { email_in_senders: ['supplier.example', 'not a sender'] });
    expect(invalid.status).toBe(422);
    expect(JSON.stringify(invalid.body)).toContain('Enter an email address or a domain');
    const tooMany = await owner.api.put(path, { email_in_senders: Array.from({ length: 51 }, (_, i) => `s${i}.example`) });
    expect(tooMany.status).toBe(422);
    expect(JSON.stringify(tooMany.body)).toContain('At most 50 senders');
    expect((await owner.api.put(path, { senders: [] })).status).toBe(422);
    expect((await owner.api.put('/company/email-in', body)).status).toBe(422);
    const malformed = await owner.api.raw('PUT', path, '{"email_in_senders":');
    expect(malformed.status).toBe(400);
    expect((await companies()).email_in_senders).toEqual([]);
    // The Basic member sees the list an administrator saved.
    await owner.api.put(path, body);
    const seen = ((await basic.api.get('/companies')).body as { items: Company[] }).items.find((c) => c.company_id === owner.companyId)!;
    expect(seen).toMatchObject({ role: 'basic', email_in_senders: ['supplier.example'] });
  });
});
