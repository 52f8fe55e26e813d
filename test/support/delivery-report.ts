/**
 * A delivery report (RFC 3464, `multipart/report; report-type=delivery-status`) as a mail server sends one back:
 * "Your message could not be delivered.", the delivery-status part when a `finalRecipient` is given, and the
 * returned message when an `original` is given.
 */
export function deliveryReport(report: {
  from: string;
  to: string;
  messageId: string;
  /** More header lines, written as they are (`Auto-Submitted: auto-replied`). */
  headers?: string[];
  finalRecipient?: string;
  original?: Uint8Array;
}): Buffer {
  const lines = [
    `From: ${report.from}`,
    `To: ${report.to}`,
    'Subject: Undelivered Mail Returned to Sender',
    ...(report.headers ?? []),
    `Message-ID: ${report.messageId}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="R"',
    '',
    '--R',
    'Content-Type: text/plain',
    '',
    'Your message could not be delivered.',
  ];
  if (report.finalRecipient) {
    lines.push('--R', 'Content-Type: message/delivery-status', '', 'Reporting-MTA: dns; mx.example.com', '', `Final-Recipient: rfc822; ${report.finalRecipient}`, 'Action: failed', 'Status: 5.1.1', '');
  }
  if (report.original) lines.push('--R', 'Content-Type: message/rfc822', '', Buffer.from(report.original).toString('latin1'));
  lines.push('--R--', '');
  return Buffer.from(lines.join('\r\n'), 'latin1');
}
