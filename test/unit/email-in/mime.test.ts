/** MIME → documents: which parts of a real-world message become documents, with which names, and why others do not. */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_ATTACHMENTS, EMAIL_MAX_FORWARD_DEPTH } from '../../../shared/constants';
import { UPLOAD_MSG } from '../../../shared/schemas/receipts';
import {
  DOCUMENT_IMAGE_MIN_SIDE,
  documentName,
  htmlToText,
  INLINE_IMAGE_MIN_BYTES,
  parseMail,
  parseMailHeaders,
  REJECTED_LISTED_MAX,
  TOO_DEEP_MESSAGE,
  TOO_MANY_MESSAGE,
  UNREADABLE_MESSAGE as FORWARD_UNREADABLE_MESSAGE,
  WINMAIL_MESSAGE,
} from '../../../lambdas/core/email-in/mime';
import { NOTICE_MARKER_HEADER, NOTICE_MARKER_LINE } from '../../../lambdas/core/email-in/notice';
import { deliveryReport } from '../../support/delivery-report';
import { outlookMsg, type OutlookItem } from '../../support/outlook-msg';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]), Buffer.alloc(20_000, 7)]);
const LOGO = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#336699' } }).png().toBuffer();

const compose = (options: Mail.Options) => new MailComposer({ from: 'Shop <shop@example.com>', to: 'acme@in.receipts.local', subject: 'S', text: 'T', ...options }).compile().build();

describe('parseMail', () => {
  it('lists at most REJECTED_LISTED_MAX refused parts by name and counts the rest (the record stays within its size)', async () => {
    const raw = await compose({ attachments: Array.from({ length: 150 }, (_, i) => ({ filename: `note-${i}.txt`, content: 'x' })) });
    const mail = await parseMail(raw);
    expect(mail.rejected).toHaveLength(REJECTED_LISTED_MAX);
    expect(mail.rejected[0]).toEqual({ original_file_name: 'note-0.txt', reason: UPLOAD_MSG.typeNotAllowed });
    expect(mail.rejected.at(-1)).toEqual({ original_file_name: '51 more parts', reason: 'Not taken: too many refused parts to list' });
  });

  it('takes PDFs and images by their bytes, leaves out small inline logos, and lists what is not a document', async () => {
    const raw = await compose({
      html: '<p>Hi</p><img src="cid:logo">',
      attachments: [
        { filename: 'invoice.pdf', content: PDF },
        { filename: 'scan', content: PDF, contentType: 'application/octet-stream' },
        { filename: 'photo.jpg', content: JPEG, contentDisposition: 'inline', cid: 'photo' },
        { filename: 'logo.png', content: LOGO, cid: 'logo', contentDisposition: 'inline' },
        { filename: 'notes.txt', content: 'hello' },
        { filename: 'fake.pdf', content: 'not a pdf at all' },
      ],
    });
    const mail = await parseMail(raw);
    // Parts of a multipart/related body (the inline photo) come first.
    expect(mail.attachments.map((a) => [a.original_file_name, a.kind])).toEqual([
      ['photo.jpg', 'image'],
      ['invoice.pdf', 'pdf'],
      ['scan.pdf', 'pdf'],
    ]);
    expect(mail.rejected).toEqual([
      { original_file_name: 'notes.txt', reason: UPLOAD_MSG.typeNotAllowed },
      { original_file_name: 'fake.pdf', reason: UPLOAD_MSG.typeNotAllowed },
    ]);
    expect(mail.from).toBe('Shop <shop@example.com>');
    expect(mail.recipients).toContain('acme@in.receipts.local');
    expect(mail.text).toBe('T');
  });

  it('gives a PDF without a file name a name', async () => {
    const raw = await compose({ attachments: [{ content: PDF, contentType: 'application/pdf' }] });
    const mail = await parseMail(raw);
    expect(mail.attachments.map((a) => a.original_file_name)).toEqual(['attachment-1.pdf']);
  });

  it('reads RFC 2231 file names with several dots and non-ASCII letters', async () => {
    const raw = [
      'From: a@example.com',
      'To: acme@in.receipts.local',
      'Subject: names',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain',
      '',
      'hello',
      '--b1',
      'Content-Type: application/pdf',
      "Content-Disposition: attachment; filename*0*=utf-8''S%C4%85skaita%20fakt%C5%AB;",
      ' filename*1*=ra%20Nr.%201.2.pdf',
      'Content-Transfer-Encoding: base64',
      '',
      PDF.toString('base64'),
      '--b1--',
      '',
    ].join('\r\n');
    const mail = await parseMail(raw);
    expect(mail.attachments.map((a) => a.original_file_name)).toEqual(['Sąskaita faktūra Nr. 1.2.pdf']);
  });

  it('records winmail.dat as not supported', async () => {
    const raw = await compose({ attachments: [{ filename: 'winmail.dat', content: Buffer.from([0x78, 0x9f, 0x3e, 0x22, 0, 0]), contentType: 'application/ms-tnef' }] });
    const mail = await parseMail(raw);
    expect(mail.attachments).toEqual([]);
    expect(mail.rejected).toEqual([{ original_file_name: 'winmail.dat', reason: WINMAIL_MESSAGE }]);
  });

  it('opens forwarded messages (.eml inside a mail) down to the depth limit, not further', async () => {
    const D = EMAIL_MAX_FORWARD_DEPTH;
    let inner = await compose({ subject: `level ${D + 2}`, attachments: [{ filename: `level-${D + 2}.pdf`, content: PDF }] });
    for (let level = D + 1; level >= 1; level--) {
      inner = await compose({ subject: `level ${level}`, attachments: [{ filename: `level-${level}.pdf`, content: PDF }, { filename: `fwd-${level}.eml`, content: inner, contentType: 'message/rfc822' }] });
    }
    // The mail itself (level 1) and D forwarded messages inside it are opened; the one D + 1 levels down is not.
    const mail = await parseMail(inner);
    expect(mail.attachments.map((a) => a.original_file_name)).toEqual(Array.from({ length: D + 1 }, (_, i) => `level-${i + 1}.pdf`));
    expect(mail.rejected).toEqual([{ original_file_name: `fwd-${D + 1}.eml`, reason: TOO_DEEP_MESSAGE }]);
  });

  it('opens an Outlook item (.msg, Forward as Attachment of desktop Outlook) and takes its files, an item inside it too', async () => {
    const item = outlookMsg({
      subject: 'FW: invoice',
      from: 'shop@example.com',
      files: [{ name: 'invoice 17.pdf', bytes: PDF }, { name: 'logo.png', bytes: LOGO, hidden: true }, { name: 'terms.txt', bytes: Buffer.from('terms') }],
      items: [{ subject: 'receipt', files: [{ name: 'receipt.jpg', bytes: JPEG }] }],
    });
    const raw = await compose({ attachments: [{ filename: 'FW invoice.msg', content: Buffer.from(item), contentType: 'application/vnd.ms-outlook' }] });
    const mail = await parseMail(raw);
    expect(mail.attachments.map((a) => [a.original_file_name, a.kind])).toEqual([['invoice 17.pdf', 'pdf'], ['receipt.jpg', 'image']]);
    expect(mail.rejected).toEqual([{ original_file_name: 'terms.txt', reason: UPLOAD_MSG.typeNotAllowed }]);

    // Known by its bytes under any name; nested like forwarded messages, down to the same depth.
    // The mail is level 1; the item attached to it level 2; D items are opened, the one D + 1 levels down is not.
    const D = EMAIL_MAX_FORWARD_DEPTH;
    let nested: OutlookItem = { subject: `level ${D + 2}`, files: [{ name: 'too-deep.pdf', bytes: PDF }] };
    for (let level = D + 1; level >= 2; level--) nested = { subject: `level ${level}`, files: [{ name: `level-${level}.pdf`, bytes: PDF }], items: [nested] };
    const deep = await parseMail(await compose({ attachments: [{ filename: 'attachment', content: Buffer.from(outlookMsg(nested)), contentType: 'application/octet-stream' }] }));
    expect(deep.attachments.map((a) => a.original_file_name)).toEqual(Array.from({ length: D }, (_, i) => `level-${i + 2}.pdf`));
    expect(deep.rejected).toEqual([{ original_file_name: `level ${D + 2}.msg`, reason: TOO_DEEP_MESSAGE }]);
  });

  it('takes a Word .doc as an office file, not as an Outlook item, and says a damaged .msg could not be read', async () => {
    const doc = readFileSync(new URL('../../fixtures/recognition/invoice-en.doc', import.meta.url));
    const broken = Buffer.from(outlookMsg({ subject: 'x' })).subarray(0, 600);
    const mail = await parseMail(await compose({ attachments: [{ filename: 'invoice.doc', content: doc }, { filename: 'old mail.msg', content: broken }] }));
    expect(mail.attachments.map((a) => [a.original_file_name, a.kind])).toEqual([['invoice.doc', 'office']]);
    expect(mail.rejected).toEqual([{ original_file_name: 'old mail.msg', reason: FORWARD_UNREADABLE_MESSAGE }]);
  });

  it('takes at most the attachment limit and lists the rest', async () => {
    const attachments = Array.from({ length: EMAIL_MAX_ATTACHMENTS + 2 }, (_, i) => ({ filename: `r${i + 1}.pdf`, content: PDF }));
    const mail = await parseMail(await compose({ attachments }));
    expect(mail.attachments).toHaveLength(EMAIL_MAX_ATTACHMENTS);
    expect(mail.rejected).toEqual([
      { original_file_name: `r${EMAIL_MAX_ATTACHMENTS + 1}.pdf`, reason: TOO_MANY_MESSAGE },
      { original_file_name: `r${EMAIL_MAX_ATTACHMENTS + 2}.pdf`, reason: TOO_MANY_MESSAGE },
    ]);
  });

  it('applies the upload size limits: images 10 MB', async () => {
    const big = Buffer.concat([JPEG.subarray(0, 11), Buffer.alloc(10 * 1024 * 1024 + 1)]);
    const mail = await parseMail(await compose({ attachments: [{ filename: 'big.jpg', content: big }] }));
    expect(mail.attachments).toEqual([]);
    expect(mail.rejected).toEqual([{ original_file_name: 'big.jpg', reason: UPLOAD_MSG.imageTooBig }]);
  }, 60_000);

  it('gives the same content hash to the same mail and another to a different one', async () => {
    const options = { messageId: '<same@example.com>', attachments: [{ filename: 'a.pdf', content: PDF }] };
    const one = await parseMail(await compose(options));
    const two = await parseMail(await compose(options));
    const other = await parseMail(await compose({ ...options, attachments: [{ filename: 'b.pdf', content: PDF }] }));
    expect(one.message_id).toBe('<same@example.com>');
    expect(one.content_hash).toBe(two.content_hash);
    expect(other.content_hash).not.toBe(one.content_hash);
  });

  it('refuses every attachment of a message the mail server found a virus in', async () => {
    const raw = Buffer.concat([Buffer.from('X-SES-Virus-Verdict: FAIL\r\n'), await compose({ attachments: [{ filename: 'a.pdf', content: PDF }] })]);
    const mail = await parseMail(raw);
    expect(mail.attachments).toEqual([]);
    expect(mail.rejected).toHaveLength(1);
    expect(mail.auth.virus).toBe('fail');
  });

  it('reads only the header block of a message over the size limit', async () => {
    const mail = await parseMailHeaders(await compose({ subject: 'Huge', attachments: [{ filename: 'a.pdf', content: PDF }] }), 'too large');
    expect(mail.subject).toBe('Huge');
    expect(mail.attachments).toEqual([]);
    expect(mail.rejected).toEqual([{ original_file_name: 'message', reason: 'too large' }]);
  });
});

describe('documentName', () => {
  it('keeps names that fit their bytes and fixes or makes up the others', () => {
    expect(documentName('Invoice 2026.03.01.PDF', 'pdf', 1)).toBe('Invoice 2026.03.01.PDF');
    expect(documentName('invoice.dat', 'pdf', 1)).toBe('invoice.dat.pdf');
    expect(documentName(null, 'png', 3)).toBe('attachment-3.png');
    expect(documentName('report.docx', 'zip', 1)).toBe('report.docx');
  });

  it('shortens a long name to 255 characters and keeps its extension', () => {
    const stem = 'Sąskaita faktūra UAB „Prekyba“ už kovo mėnesio paslaugas '.repeat(6);
    const long = documentName(`${stem}.xlsx`, 'zip', 1);
    expect(long).toHaveLength(255);
    expect(long.endsWith('.xlsx')).toBe(true);
    expect(long.startsWith('Sąskaita faktūra UAB')).toBe(true);
    // A PDF sent under another name: the right extension added, then the name shortened before it.
    const fixed = documentName(`${stem}.dat`, 'pdf', 1);
    expect(fixed).toMatch(/^Sąskaita faktūra .{200,}\.pdf$/);
    expect(fixed.length).toBeLessThanOrEqual(255);
    // A letter outside the BMP is not cut in half.
    expect(documentName(`${'𝔄'.repeat(200)}.pdf`, 'pdf', 1)).toBe(`${'𝔄'.repeat(125)}.pdf`);
  });
});

describe('htmlToText', () => {
  it('keeps text and line breaks, drops tags, scripts and styles', () => {
    expect(htmlToText('<style>p{}</style><p>Hello&nbsp;<b>you</b></p><script>alert(1)</script><p>a &lt;tag&gt;</p>')).toBe('Hello you\na <tag>');
  });

  it('decodes numeric and HTML5 named references, once, and keeps table cells apart', () => {
    expect(htmlToText('<p>Pirkimo s&#261;skaita &#8211; suma 12,50&#160;&euro; &#x119;</p><p>Prekyba &scaron;iandien &Zcaron; &hellip; &copy 2026</p>')).toBe(
      'Pirkimo sąskaita – suma 12,50 € ę\nPrekyba šiandien Ž … © 2026',
    );
    expect(htmlToText('<p>&amp;lt; is &lt;, &unknown; stays, &#0; &#xD800; &#99999999; are replaced</p>')).toBe('&lt; is <, &unknown; stays, \ufffd \ufffd \ufffd are replaced');
    expect(htmlToText('<table><tr><th>Item</th><th>Sum</th></tr><tr><td>Total</td><td>12.50</td></tr></table>')).toBe('Item\tSum\nTotal\t12.50');
  });
});

describe('parseMail of an HTML-only message', () => {
  it('gives the panel its text with entities decoded and cells apart', async () => {
    const raw = [
      'From: a@b.example',
      'To: acme@in.receipts.local',
      'Subject: x',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=us-ascii',
      '',
      '<html><body><p>Pirkimo s&#261;skaita &#8211; suma 12,50&nbsp;&euro;</p><p>Prekyba &scaron;iandien</p><table><tr><td>Total</td><td>12.50</td></tr></table></body></html>',
    ].join('\r\n');
    expect((await parseMail(raw)).text).toBe('Pirkimo sąskaita – suma 12,50 €\nPrekyba šiandien\nTotal\t12.50');
  });
});

describe('parseMail of a long attachment name', () => {
  it('keeps the extension of an office file whose name is longer than 200 characters, so it is taken', async () => {
    const { zipSync, strToU8 } = await import('fflate');
    const xlsx = Buffer.from(
      zipSync({
        '[Content_Types].xml': strToU8(
          '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
        ),
        'xl/workbook.xml': strToU8('<workbook/>'),
      }),
    );
    const long = 'Sąskaita faktūra UAB „Prekyba“ už 2026 m. kovo mėnesio paslaugas, sutarties Nr. 2026-03-15-AB, užsakymo Nr. 998877, objektas Vilniaus g. 12, Kaunas, atsakingas asmuo Jonas Jonaitis, pastabos: apmokėti iki balandžio 15 d';
    const mail = await parseMail(await compose({ attachments: [{ filename: `${long}.xlsx`, content: xlsx }] }));
    expect(mail.rejected).toEqual([]);
    expect(mail.attachments.map((a) => a.original_file_name)).toEqual([`${long}.xlsx`]);
  });
});

/** A PNG of random pixels: it compresses badly, so a small logo still weighs tens of KB, as real ones do. */
async function noisePng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + ((i * i) % 251)) % 256;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

describe('parseMail: images that are part of the mail, not documents', () => {
  it('leaves out a signature logo shown by cid and icons too small to be read, inline or attached; a photo shown by cid stays', async () => {
    const logo = await noisePng(90, 75);
    expect(logo.length).toBeGreaterThan(INLINE_IMAGE_MIN_BYTES);
    const icon = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3b5998' } }).png().toBuffer();
    const photo = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#f0f0f0' } }).jpeg().toBuffer();
    const raw = await compose({
      html: '<p>Invoice attached.</p><img src="cid:image001.png@01DA"><img src="cid:fb"><img src="cid:photo">',
      attachments: [
        { filename: 'SF-15.pdf', content: PDF },
        { filename: 'image001.png', content: logo, cid: 'image001.png@01DA', contentDisposition: 'inline' },
        { filename: 'facebook.png', content: icon, cid: 'fb', contentDisposition: 'inline' },
        { filename: 'photo.jpg', content: photo, cid: 'photo', contentDisposition: 'inline' },
        // A client that re-attaches the signature images (forward, plain-text mail): attachment disposition.
        { filename: 'image002.png', content: icon, contentDisposition: 'attachment' },
        { filename: 'linkedin.png', content: icon },
      ],
    });
    const mail = await parseMail(raw);
    expect(mail.attachments.map((a) => a.original_file_name)).toEqual(['photo.jpg', 'SF-15.pdf']);
    // Left out, not refused: nothing about them in the record or the notice.
    expect(mail.rejected).toEqual([]);
  });

  it('keeps an attached image of a readable size that the body does not show, and the same logo attached to a mail without HTML', async () => {
    const logo = await noisePng(90, 75);
    const raw = await compose({ attachments: [{ filename: 'receipt-crop.png', content: logo }] });
    expect((await parseMail(raw)).attachments.map((a) => a.original_file_name)).toEqual(['receipt-crop.png']);
  });

  it('uses the shortest side the recogniser reads as its floor', async () => {
    const { MIN_IMAGE_SIDE } = await import('../../../lambdas/jobs/lib/renderer');
    expect(DOCUMENT_IMAGE_MIN_SIDE).toBe(MIN_IMAGE_SIDE);
    const edge = await sharp({ create: { width: MIN_IMAGE_SIDE, height: 200, channels: 3, background: '#000' } }).png().toBuffer();
    const below = await sharp({ create: { width: MIN_IMAGE_SIDE - 1, height: 200, channels: 3, background: '#000' } }).png().toBuffer();
    const raw = await compose({ attachments: [{ filename: 'edge.png', content: edge }, { filename: 'below.png', content: below }] });
    expect((await parseMail(raw)).attachments.map((a) => a.original_file_name)).toEqual(['edge.png']);
  });
});

describe('parseMail: delivery reports and automatic forwards', () => {
  const bounce = async (original: Buffer) =>
    deliveryReport({
      from: 'Mail Delivery Subsystem <mailer-daemon@mx.example.com>',
      to: 'acme@in.receipts.local',
      messageId: '<dsn-1@mx.example.com>',
      headers: ['Auto-Submitted: auto-replied'],
      finalRecipient: 'someone@elsewhere.example',
      original,
    });

  it('takes nothing from the message a delivery report returns, and lists none of its parts', async () => {
    const original = await compose({ from: 'acme@in.receipts.local', to: 'someone@elsewhere.example', subject: 'Invoice', attachments: [{ filename: 'SF-99.pdf', content: PDF }] });
    const mail = await parseMail(await bounce(original));
    expect(mail.automatic).not.toBeNull();
    expect(mail.attachments).toEqual([]);
    expect(mail.rejected).toEqual([]);
    expect(mail.text).toBe('Your message could not be delivered.');
  });

  it('treats a mail sent by an Exchange mailbox rule as automatic', async () => {
    const ruleHeaders: Record<string, string>[] = [
      { 'X-MS-Exchange-Inbox-Rules-Loop': 'owner@client.example' },
      { 'X-MS-Exchange-Generated-Message-Source': 'Mailbox Rules Agent' },
      { 'X-MS-Exchange-Organization-AutoForwarded': 'true' },
    ];
    for (const headers of ruleHeaders) {
      const mail = await parseMail(await compose({ subject: 'FW: Invoice', headers, attachments: [{ filename: 'a.pdf', content: PDF }] }));
      expect(mail.automatic, JSON.stringify(headers)).toMatch(/mailbox rule/);
      // Still a mail to take documents from: only the notice is withheld.
      expect(mail.attachments.map((a) => a.original_file_name)).toEqual(['a.pdf']);
    }
    expect((await parseMail(await compose({ headers: { 'X-MS-Exchange-Organization-AutoForwarded': 'false' } }))).automatic).toBeNull();
  });

  it('treats a mail that carries the notice marker as automatic: in its headers, its text, its HTML or a message attached to it', async () => {
    const marked = [
      await compose({ headers: { [NOTICE_MARKER_HEADER]: 'not-taken' } }),
      await compose({ subject: 'FW: No document was taken from your mail: Hello', text: `From: Receipts\n> Hello Ona,\n> ${NOTICE_MARKER_LINE}\n` }),
      await compose({ text: undefined, html: `<div>FW:</div><blockquote><p>Hello</p><p>${NOTICE_MARKER_LINE}</p></blockquote>` }),
      await compose({
        subject: 'FW: notice',
        text: 'see attached',
        attachments: [{ filename: 'notice.eml', contentType: 'message/rfc822', content: await compose({ text: `Hello\n${NOTICE_MARKER_LINE}` }) }],
      }),
    ];
    for (const [i, raw] of marked.entries()) expect((await parseMail(raw)).automatic, `case ${i}`).toMatch(/notice/);
    expect((await parseMail(await compose({ text: 'An ordinary mail about notices.' }))).automatic).toBeNull();
  });
});

describe('documentName: a slash is part of the name', () => {
  it('keeps the text on both sides of a slash or backslash, and no folder or dot segment survives', async () => {
    expect(documentName('PVM SF AB-2026/015.pdf', 'pdf', 1)).toBe('PVM SF AB-2026-015.pdf');
    expect(documentName('Sąskaita 2026\\03\\15.pdf', 'pdf', 1)).toBe('Sąskaita 2026-03-15.pdf');
    expect(documentName('../../etc/receipt.jpeg', 'jpg', 1)).toBe('etc-receipt.jpeg');
    expect(documentName('..', 'pdf', 2)).toBe('attachment-2.pdf');
    expect(documentName('/', 'pdf', 3)).toBe('attachment-3.pdf');
    const mail = await parseMail(await compose({ attachments: [{ filename: 'PVM SF AB-2026/015.pdf', content: PDF }] }));
    expect(mail.attachments.map((a) => a.original_file_name)).toEqual(['PVM SF AB-2026-015.pdf']);
  });
});
