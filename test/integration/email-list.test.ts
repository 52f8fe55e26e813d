/**
 * GET /emails: the mail a company received, through the real local path (SMTP server → email-in job → processing
 * job), newest first and a page at a time, for members of the company only.
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailListPage } from '../../shared/schemas/emails';
import { addMembership, apiClient, registeredUser, startTestStack, subOf, type TestStack } from '../support/local-stack';
import { textPdf } from '../support/text-pdf';

const pdfOf = async (line: string) => Buffer.from(await textPdf([line]));

type Page = EmailListPage;

describe('the mail a company received (GET /emails)', () => {
  let t: TestStack;
  let send: (to: string, options: Mail.Options) => Promise<void>;
  beforeAll(async () => {
    t = await startTestStack();
    const transport = nodemailer.createTransport({ host: t.stack.smtp.host, port: t.stack.smtp.port, secure: false, ignoreTLS: true });
    send = async (to, options) => {
      const raw = await new MailComposer({ from: 'Supplier Billing <billing@supplier.example>', to, ...options }).compile().build();
      await transport.sendMail({ envelope: { from: 'billing@supplier.example', to: [to] }, raw });
      await t.stack.emailJobs.idle();
      await t.stack.jobs.idle();
    };
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('lists every mail newest first, pages on with next, links the documents that exist and names the parts not taken', async () => {
    const owner = await registeredUser(t.stack, 'maillist');
    const colleague = await registeredUser(t.stack, 'maillistbasic');
    await addMembership(subOf(colleague.token), owner.companyId, 'basic');
    const companies = (await owner.api.get('/companies')).body as { items: { company_id: string; email: string }[] };
    const address = companies.items.find((c) => c.company_id === owner.companyId)!.email;

    expect((await owner.api.get(`/emails?company_id=${owner.companyId}`)).body).toEqual({ items: [], next: null });

    await send(address, { subject: 'Taxi in March', text: 'Receipt attached.', attachments: [{ filename: 'taxi.pdf', content: await pdfOf('Taxi 12.50 EUR') }] });
    await send(address, { subject: 'Contract', text: 'Signed.', attachments: [{ filename: 'contract.zip', content: Buffer.from('PK\x03\x04not really'), contentType: 'application/zip' }] });
    await send(address, { subject: 'Parking and fuel', text: 'Two receipts.', attachments: [
      { filename: 'parking.pdf', content: await pdfOf('Parking 4.00 EUR') },
      { filename: 'fuel.pdf', content: await pdfOf('Fuel 60.00 EUR') },
    ] });

    const first = await owner.api.get(`/emails?company_id=${owner.companyId}&limit=2`);
    expect(first.status).toBe(200);
    const page1 = first.body as Page;
    expect(page1.items.map((m) => m.subject)).toEqual(['Parking and fuel', 'Contract']);
    expect(page1.items[0]).toMatchObject({ company_id: owner.companyId, to: address, state: 'done', rejected_files: [] });
    expect(page1.items[0]!.from).toContain('billing@supplier.example');
    expect(page1.items[0]!.files.map((f) => f.original_file_name)).toEqual(['parking.pdf', 'fuel.pdf']);
    expect(page1.items[1]).toMatchObject({ files: [], rejected_files: [{ original_file_name: 'contract.zip', reason: 'This file type is not allowed' }] });
    expect(page1.items.every((m) => !('text' in m))).toBe(true);
    expect(page1.next).toEqual(expect.any(String));

    const second = (await owner.api.get(`/emails?company_id=${owner.companyId}&limit=2&next=${encodeURIComponent(page1.next!)}`)).body as Page;
    expect(second.items.map((m) => m.subject)).toEqual(['Taxi in March']);
    expect(second.next).toBeNull();

    // A document deleted since is no longer linked; the mail stays listed.
    const fuel = page1.items[0]!.files[1]!;
    expect((await owner.api.delete(`/receipt/${fuel.receipt_id}?company_id=${owner.companyId}`)).status).toBe(200);
    const after = (await owner.api.get(`/emails?company_id=${owner.companyId}`)).body as Page;
    expect(after.items.map((m) => m.subject)).toEqual(['Parking and fuel', 'Contract', 'Taxi in March']);
    expect(after.items[0]!.files.map((f) => f.original_file_name)).toEqual(['parking.pdf']);

    // A Basic member of the company sees the same list (the documents are theirs to see as well).
    const basic = (await colleague.api.get(`/emails?company_id=${owner.companyId}`)).body as Page;
    expect(basic.items.map((m) => m.email_id)).toEqual(after.items.map((m) => m.email_id));
  });

  it('is closed to other companies: 403 for a non-member, nothing of another company through a cursor, 4xx for bad input', async () => {
    const owner = await registeredUser(t.stack, 'mailiso');
    const stranger = await registeredUser(t.stack, 'mailstranger');
    const companies = (await owner.api.get('/companies')).body as { items: { company_id: string; email: string }[] };
    await send(companies.items[0]!.email, { subject: 'Private invoice', attachments: [{ filename: 'inv.pdf', content: await pdfOf('Invoice 1') }] });
    const own = (await owner.api.get(`/emails?company_id=${owner.companyId}`)).body as Page;
    expect(own.items.map((m) => m.subject)).toEqual(['Private invoice']);
    const mail = own.items[0]!;

    expect((await stranger.api.get(`/emails?company_id=${owner.companyId}`)).status).toBe(403);
    // The owner's position given to the stranger's own company reads the stranger's partition only.
    const position = `${'9999-12-31T00:00:00.000Z'}#${mail.email_id}`;
    const theirs = await stranger.api.get(`/emails?company_id=${stranger.companyId}&next=${encodeURIComponent(position)}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual({ items: [], next: null });

    expect((await owner.api.get('/emails')).status).toBe(400);
    const badCursor = await owner.api.get(`/emails?company_id=${owner.companyId}&next=${encodeURIComponent('{"pk":"EMAIL#x"}')}`);
    expect(badCursor.status).toBe(422);
    expect(JSON.stringify(badCursor.body)).toContain('Invalid next');
    expect((await owner.api.get(`/emails?company_id=${owner.companyId}&limit=500`)).status).toBe(422);
    expect((await apiClient(t.stack.apiUrl).get(`/emails?company_id=${owner.companyId}`)).status).toBe(401);
  });
});
