/**
 * Demo data of email-in: on first start one mail with an invoice is sent to the demo company's email-in address
 * through the real local SMTP server, so the demo list shows a document with its email panel.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { LocalStack } from './stack';

export const DEMO_EMAIL = {
  from: 'UAB Biuro Prekės <saskaitos@biuro-prekes.example>',
  subject: 'Sąskaita faktūra už kovo mėn.',
  text: 'Laba diena,\n\nsiunčiame kovo mėnesio sąskaitą faktūrą (PDF priede).\n\nPagarbiai,\nUAB Biuro Prekės',
  file: 'saskaita-faktura.pdf',
};

export async function sendDemoEmail(stack: LocalStack, address: string): Promise<void> {
  const transport = nodemailer.createTransport({ host: stack.smtp.host, port: stack.smtp.port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({
      from: DEMO_EMAIL.from,
      to: address,
      subject: DEMO_EMAIL.subject,
      text: DEMO_EMAIL.text,
      messageId: '<demo-invoice-march@biuro-prekes.example>',
      attachments: [{ filename: DEMO_EMAIL.file, content: readFileSync(path.join(import.meta.dirname, 'demo', DEMO_EMAIL.file)), contentType: 'application/pdf' }],
    });
  } finally {
    transport.close();
  }
}
