/**
 * The local email-in SMTP server (SES receiving's stand-in): a real SMTP client (nodemailer) against it on loopback.
 */
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { EMAIL_IN_DOMAIN } from '../../../shared/constants';
import { startLocalSmtp, type LocalSmtp } from '../../../scripts/local/smtp';

describe('local email-in SMTP server', () => {
  let smtp: LocalSmtp | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });

  it('stores a message within the limit and refuses a larger one with 552, storing nothing of it', async () => {
    const stored: { key: string; bytes: Uint8Array }[] = [];
    smtp = await startLocalSmtp({ port: 0, maxBytes: 20_000, store: async (key, bytes) => void stored.push({ key, bytes }) });
    const client = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true });
    const to = `team@${EMAIL_IN_DOMAIN}`;
    await client.sendMail({ from: 'a@example.com', to, subject: 'small', text: 'x'.repeat(1000) });
    expect(stored).toHaveLength(1);
    await expect(client.sendMail({ from: 'a@example.com', to, subject: 'large', text: 'y'.repeat(200_000) })).rejects.toMatchObject({ responseCode: 552 });
    expect(stored).toHaveLength(1);
    client.close();
  });

  it('asks whether each recipient is an Email-in address: 550 for one that is not, 451 when it cannot tell; the others are taken', async () => {
    const stored: string[] = [];
    const known = `acme-x1y2z3@${EMAIL_IN_DOMAIN}`;
    const broken = `broken@${EMAIL_IN_DOMAIN}`;
    smtp = await startLocalSmtp({
      port: 0,
      store: async (key) => void stored.push(key),
      acceptsRecipient: async (address) => {
        if (address === broken) throw new Error('table unreachable');
        return address === known;
      },
    });
    const client = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true });
    const typo = `acme-x1y2z4@${EMAIL_IN_DOMAIN}`;
    await expect(client.sendMail({ from: 'a@example.com', to: typo, subject: 's', text: 'x' })).rejects.toMatchObject({ responseCode: 550, rejected: [typo] });
    await expect(client.sendMail({ from: 'a@example.com', to: broken, subject: 's', text: 'x' })).rejects.toMatchObject({ responseCode: 451 });
    const info = await client.sendMail({ envelope: { from: 'a@example.com', to: [known, typo] }, raw: 'Subject: s\r\n\r\nx' });
    expect(info.accepted).toEqual([known]);
    expect(info.rejected).toEqual([typo]);
    expect((info as { rejectedErrors?: { response: string }[] }).rejectedErrors?.[0]?.response).toMatch(/^550 5\.1\.1 No such Email-in address/);
    expect(stored).toHaveLength(1);
    client.close();
  });
});
