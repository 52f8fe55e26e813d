/**
 * Email-in as SES delivers it (AWS): the receipt rule's Lambda action (jobs/answer-email-recipients) gets the envelope
 * recipients and keeps the known ones (E11); SES then stores the message under inbound/<messageId>, which names a
 * recipient only in its headers — a Bcc to several Email-in addresses is named nowhere. The email-in job reads the
 * kept envelope (E12) and routes to every company. The real handlers against the local table and bucket.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { SESEvent } from 'aws-lambda';
import MailComposer from 'nodemailer/lib/mail-composer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3 } from '../../lambdas/adapters/s3/files';
import { EMAIL_IN_PREFIX } from '../../shared/constants';
import type { EmailListPage } from '../../shared/schemas/emails';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { textPdf } from '../support/text-pdf';

function sesEvent(messageId: string, recipients: string[]): SESEvent {
  const verdict = { status: 'PASS' };
  return {
    Records: [
      {
        eventSource: 'aws:ses',
        eventVersion: '1.0',
        ses: { mail: { messageId }, receipt: { recipients, spfVerdict: verdict, dkimVerdict: verdict, spamVerdict: verdict, virusVerdict: verdict, dmarcVerdict: verdict } },
      },
    ],
  } as unknown as SESEvent;
}

describe('Email-in: a Bcc to several Email-in addresses, routed by the envelope SES names', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('the rule keeps the envelope, and the job makes the documents in every company the message was for', async () => {
    const a = await registeredUser(t.stack, 'envelopea');
    const b = await registeredUser(t.stack, 'envelopeb');
    const emailOf = async (user: typeof a) =>
      ((await user.api.get('/companies')).body as { items: { company_id: string; email: string }[] }).items.find((c) => c.company_id === user.companyId)!.email;
    const [addressA, addressB] = [await emailOf(a), await emailOf(b)];

    const { handler } = await import('../../lambdas/jobs/answer-email-recipients');
    const messageId = `ses-bcc-${Date.now()}`;
    expect(await handler(sesEvent(messageId, [addressA, addressB]))).toEqual({ disposition: 'CONTINUE' });

    // As SES stores it: the headers name the customer only (both Email-in addresses were Bcc).
    const raw = await new MailComposer({
      from: 'billing@supplier.example',
      to: 'customer@elsewhere.example',
      subject: 'Invoice 7, Bcc to both bookkeepers',
      text: 'Attached.',
      attachments: [{ filename: 'invoice-7.pdf', content: Buffer.from(await textPdf(['Invoice 7', 'Total 70.00 EUR'])) }],
    })
      .compile()
      .build();
    await s3().send(new PutObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: `${EMAIL_IN_PREFIX}${messageId}`, Body: raw, ContentType: 'message/rfc822' }));
    await t.stack.emailJobs.idle();
    await t.stack.jobs.idle();

    for (const user of [a, b]) {
      const mail = (await user.api.get(`/emails?company_id=${user.companyId}`)).body as EmailListPage;
      expect(mail.items.map((m) => [m.subject, m.files.map((f) => f.original_file_name)])).toEqual([['Invoice 7, Bcc to both bookkeepers', ['invoice-7.pdf']]]);
    }
  });
});
