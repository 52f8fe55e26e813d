/**
 * Records that must not outlive what they belong to (real handlers, local stand-ins): a deleted document's export
 * markers (X7), and a deleted company's email records with their raw messages (E8, purge step `emails`), also
 * those no document names any more and those received before the company index (E9's backfill).
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import MailComposer from 'nodemailer/lib/mail-composer';
import nodemailer from 'nodemailer';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { backfillEmailCompanyIndex } from '../../lambdas/adapters/ddb/email-backfill';
import { ddbIntegrationStore } from '../../lambdas/adapters/ddb/integrations-store';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { s3 } from '../../lambdas/adapters/s3/files';
import { registeredUser, setAvailableDocuments, startTestStack, uploadDocument, wholeTable, type TestStack } from '../support/local-stack';
import { textPdf } from '../support/text-pdf';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];
type Summary = { receipt_id: string; status: string; version: number; original_file_name: string; email_id: string | null };

async function objectKeys(prefix: string): Promise<string[]> {
  const out: string[] = [];
  let token: string | undefined;
  do {
    const res = await s3().send(new ListObjectsV2Command({ Bucket: process.env.DOCUMENTS_BUCKET, Prefix: prefix, ContinuationToken: token }));
    out.push(...(res.Contents ?? []).map((o) => o.Key!));
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
  return out;
}

describe('records that outlive what they belong to', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack({ purgeMsPerDelaySecond: 100 });
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function documents(api: Api, companyId: string, status?: string): Promise<Summary[]> {
    const res = await api.get(`/receipts?company_id=${companyId}${status ? `&receipt_status=${status}` : ''}`);
    expect(res.status).toBe(200);
    return (res.body as { items: Summary[] }).items;
  }
  async function documentNamed(api: Api, companyId: string, name: string, status?: string): Promise<Summary> {
    const doc = (await documents(api, companyId, status)).find((d) => d.original_file_name === name);
    expect(doc, name).toBeDefined();
    return doc!;
  }
  async function upload(api: Api, companyId: string, name: string, lines: string[]): Promise<void> {
    const { request } = await uploadDocument(api, { company_id: companyId, original_file_name: name }, await textPdf(lines));
    expect(request.status).toBe(200);
  }
  async function exported(receiptId: string): Promise<void> {
    for (const target of ['ftp_export', 'rivile_export'] as const) {
      await ddbIntegrationStore.putExportMarker({ receipt_id: receiptId, target, state: 'done', exported_at: new Date().toISOString(), content_key: null, reference: `/out/${receiptId}.xml` });
    }
  }
  const partition = async (receiptId: string) => (await wholeTable()).filter((i) => i.pk === `DOC#${receiptId}`);

  it('deleting a document (single, bulk, unassigned) deletes its export markers', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'markers');
    await upload(api, companyId, 'single.pdf', ['ONE UAB', 'Invoice No. M-1', 'Total 10.00 EUR']);
    await upload(api, companyId, 'bulk-a.pdf', ['TWO UAB', 'Invoice No. M-2', 'Total 20.00 EUR']);
    await upload(api, companyId, 'bulk-b.pdf', ['THREE UAB', 'Invoice No. M-3', 'Total 30.00 EUR']);
    await upload(api, companyId, 'kept.pdf', ['FOUR UAB', 'Invoice No. M-4', 'Total 40.00 EUR']);
    await upload(api, 'NONE', 'loose.pdf', ['FIVE UAB', 'Total 50.00 EUR']);
    await t.stack.jobs.idle();
    const single = await documentNamed(api, companyId, 'single.pdf');
    const bulkA = await documentNamed(api, companyId, 'bulk-a.pdf');
    const bulkB = await documentNamed(api, companyId, 'bulk-b.pdf');
    const kept = await documentNamed(api, companyId, 'kept.pdf');
    const loose = await documentNamed(api, 'NONE', 'loose.pdf', 'unassigned');
    const all = [single, bulkA, bulkB, kept, loose].map((d) => d.receipt_id);
    for (const id of all) await exported(id);
    for (const id of all) expect((await partition(id)).filter((i) => String(i.sk).startsWith('EXPORT#')), id).toHaveLength(2);

    expect((await api.delete(`/receipt/${single.receipt_id}?company_id=${companyId}`)).status).toBe(200);
    const bulk = await api.post(`/receipts/bulk?company_id=${companyId}`, { action: 'delete', receipt_ids: [bulkA.receipt_id, bulkB.receipt_id] });
    expect(bulk.status).toBe(200);
    expect((bulk.body as { results: { ok: boolean }[] }).results.map((r) => r.ok)).toEqual([true, true]);
    expect((await api.delete(`/receipt/${loose.receipt_id}?company_id=NONE`)).status).toBe(200);

    // Nothing of the deleted documents' partitions is left (META, history, export markers) …
    for (const d of [single, bulkA, bulkB, loose]) expect(await partition(d.receipt_id), d.original_file_name).toEqual([]);
    // … and the document that stays keeps its markers.
    expect((await partition(kept.receipt_id)).filter((i) => String(i.sk).startsWith('EXPORT#'))).toHaveLength(2);
  }, 180_000);

  it('a split PDF: the uploaded original is deleted once its page documents exist; each page keeps its own file', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'split');
    const twoPages = async (tag: string) => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      for (const lines of [[`${tag} ACME UAB`, 'Invoice No. S-1', 'Total 10.00 EUR'], [`${tag} BETA UAB`, 'Invoice No. S-2', 'Total 20.00 EUR']]) {
        const page = doc.addPage([595, 842]);
        lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 14, font }));
      }
      return doc.save();
    };
    const byName = (items: Summary[]) => items.sort((a, b) => a.original_file_name.localeCompare(b.original_file_name)).map((d) => [d.original_file_name, d.status]);
    expect((await uploadDocument(api, { company_id: companyId, original_file_name: 'read.pdf', type: 'multiple' }, await twoPages('READ'))).request.status).toBe(200);
    await t.stack.jobs.idle();
    expect(byName(await documents(api, companyId))).toEqual([
      ['read (page 1).pdf', 'review'],
      ['read (page 2).pdf', 'review'],
    ]);
    // Nothing refers to the uploaded two-page PDF any more: it is gone; each page's own PDF is there.
    expect(await objectKeys(`uploads/${companyId}/`)).toEqual([]);
    for (const d of await documents(api, companyId)) expect(await objectKeys(`documents/${d.receipt_id}/source.pdf`)).toHaveLength(1);

    // Over the quota the pages wait as failed documents, without the original too; Try Again reads each page's own file.
    await setAvailableDocuments(companyId, 3);
    expect((await uploadDocument(api, { company_id: companyId, original_file_name: 'wait.pdf', type: 'multiple' }, await twoPages('WAIT'))).request.status).toBe(200);
    await t.stack.jobs.idle();
    const waiting = (await documents(api, companyId)).filter((d) => d.original_file_name.startsWith('wait'));
    expect(byName(waiting)).toEqual([
      ['wait (page 1).pdf', 'failed'],
      ['wait (page 2).pdf', 'failed'],
    ]);
    expect(await objectKeys(`uploads/${companyId}/`)).toEqual([]);
    await setAvailableDocuments(companyId, 10);
    for (const d of waiting) expect((await api.post(`/receipts/${d.receipt_id}/restart?company_id=${companyId}`, {})).status).toBe(200);
    await t.stack.jobs.idle();
    expect(byName((await documents(api, companyId)).filter((d) => d.original_file_name.startsWith('wait')))).toEqual([
      ['wait (page 1).pdf', 'review'],
      ['wait (page 2).pdf', 'review'],
    ]);
  }, 180_000);

  it('the purge of a deleted company deletes its email records and their raw messages, also those no document names', async () => {
    const { api, companyId: kept } = await registeredUser(t.stack, 'mailpurge');
    const created = await api.post('/company', { company_name: 'Mailgone UAB', code: '777000' });
    expect(created.status).toBe(201);
    const gone = (created.body as { company_id: string }).company_id;
    const goneAddress = (created.body as { email: string }).email;
    const keptAddress = ((await api.get('/companies')).body as { items: { company_id: string; email: string }[] }).items.find((c) => c.company_id === kept)!.email;

    const transport = nodemailer.createTransport({ host: t.stack.smtp.host, port: t.stack.smtp.port, secure: false, ignoreTLS: true });
    async function send(to: string[], subject: string, attachments: { filename: string; content: Buffer; contentType: string }[]): Promise<void> {
      const raw = await new MailComposer({ from: 'billing@supplier.example', to, subject, text: `Body of ${subject}`, attachments }).compile().build();
      await transport.sendMail({ envelope: { from: 'billing@supplier.example', to }, raw });
      await t.stack.emailJobs.idle();
      await t.stack.jobs.idle();
    }
    const pdf = async (name: string) => ({ filename: name, content: Buffer.from(await textPdf([`${name} UAB`, 'Total 3.00 EUR'])), contentType: 'application/pdf' });
    // A mail none of whose attachments is taken: it makes no document, so no document names its record.
    await send([goneAddress], 'Only notes', [{ filename: 'notes.txt', content: Buffer.from('hello'), contentType: 'text/plain' }]);
    // A mail whose document the user deletes before the company is deleted.
    await send([goneAddress], 'Deleted later', [await pdf('deleted-later.pdf')]);
    const deletedLater = await documentNamed(api, gone, 'deleted-later.pdf');
    expect((await api.delete(`/receipt/${deletedLater.receipt_id}?company_id=${gone}`)).status).toBe(200);
    // A mail to both companies: one raw message, a record of each.
    await send([goneAddress, keptAddress], 'To both', [await pdf('both.pdf')]);

    const emailItems = async () => (await wholeTable()).filter((i) => String(i.pk).startsWith('EMAIL#'));
    const recordOf = async (companyId: string, subject: string) => (await emailItems()).find((i) => i.company_id === companyId && i.subject === subject);
    const notesRecord = (await recordOf(gone, 'Only notes'))!;
    const deletedRecord = (await recordOf(gone, 'Deleted later'))!;
    const bothGone = (await recordOf(gone, 'To both'))!;
    const bothKept = (await recordOf(kept, 'To both'))!;
    for (const r of [notesRecord, deletedRecord, bothGone, bothKept]) expect(r).toBeDefined();
    expect(bothGone.raw_key).toBe(bothKept.raw_key);
    const inbound = await objectKeys('inbound/');
    for (const r of [notesRecord, deletedRecord, bothGone]) expect(inbound).toContain(r.raw_key);

    // A record received before the company index (no gsi1 keys), as older records are: the backfill indexes it.
    const legacyId = `legacy-${gone}`;
    await ddb().send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: { ...keys.email(legacyId), type: 'EMAIL', email_id: legacyId, company_id: gone, subject: 'Legacy', from: 'old@example.com', text: 'old', files: [], raw_key: 'inbound/legacy-none', message_id: null, content_hash: 'x', state: 'done', created_at: '2026-01-01T00:00:00.000Z' },
      }),
    );
    expect((await backfillEmailCompanyIndex()).indexed).toBeGreaterThanOrEqual(1);
    expect((await backfillEmailCompanyIndex()).indexed).toBe(0);

    // Act
    expect((await api.delete(`/company?company_id=${gone}`)).status).toBe(200);
    await t.stack.purgeJobs.idle(180_000);
    expect(t.stack.purgeJobs.deadLetters).toHaveLength(0);

    // Assess: none of the deleted company's email records is left …
    const after = await emailItems();
    expect(after.filter((i) => i.company_id === gone).map((i) => i.subject)).toEqual([]);
    // … nor the raw messages only it received; the other company keeps its record and the raw message it shares.
    const inboundAfter = await objectKeys('inbound/');
    expect(inboundAfter).not.toContain(notesRecord.raw_key);
    expect(inboundAfter).not.toContain(deletedRecord.raw_key);
    expect(inboundAfter).toContain(bothKept.raw_key);
    expect(after.find((i) => i.email_id === bothKept.email_id)).toBeDefined();
    const view = await api.get(`/emails/${String(bothKept.email_id)}?company_id=${kept}`);
    expect(view.status).toBe(200);
  }, 300_000);
});
