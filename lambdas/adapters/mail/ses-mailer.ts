import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { Mailer } from '../../core/team/types';
import { env } from '../../runtime/env';

let client: SESv2Client | undefined;
/** One client per process; the endpoint comes from AWS_ENDPOINT_URL_SESV2 locally (the local SES stand-in). */
function ses(): SESv2Client {
  client ??= new SESv2Client({});
  return client;
}
/** Local mode changes the endpoint between runs. */
export function resetMailClient(): void {
  client?.destroy();
  client = undefined;
}

/** Outgoing mail through SES v2 SendEmail, from MAIL_FROM; extra header fields as Simple.Headers. */
export const sesMailer: Mailer = {
  async send(mail) {
    const from = env().MAIL_FROM;
    if (!from) throw new Error('MAIL_FROM is not configured (cdk deploy -c mailFrom=...)');
    const res = await ses().send(
      new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: [mail.to] },
        Content: {
          Simple: {
            Subject: { Data: mail.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
            ...(mail.headers ? { Headers: Object.entries(mail.headers).map(([Name, Value]) => ({ Name, Value })) } : {}),
          },
        },
      }),
    );
    return { messageId: res.MessageId };
  },
};
