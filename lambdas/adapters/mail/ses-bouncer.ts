import { SESClient, SendBounceCommand } from '@aws-sdk/client-ses';
import { EMAIL_IN_DOMAIN } from '../../../shared/constants';
import type { Bouncer } from '../../core/email-in/recipients';
import { env } from '../../runtime/env';

let client: SESClient | undefined;
/** SES v1 (SendBounce has no SES v2 counterpart); one client per process. */
function ses(): SESClient {
  client ??= new SESClient({});
  return client;
}
export function resetBounceClient(): void {
  client?.destroy();
  client = undefined;
}

/** The bounce's sender: the receiving domain's own MAILER-DAEMON (the domain is an SES identity, EmailInStack). */
export function bounceSender(): string {
  return `MAILER-DAEMON@${env().EMAIL_IN_DOMAIN || EMAIL_IN_DOMAIN}`;
}

/** Bounces recipients of a message SES received (within 24 hours of receipt), as "does not exist". */
export const sesBouncer: Bouncer = {
  async bounce({ messageId, recipients, explanation }) {
    await ses().send(
      new SendBounceCommand({
        OriginalMessageId: messageId,
        BounceSender: bounceSender(),
        Explanation: explanation,
        BouncedRecipientInfoList: recipients.map((Recipient) => ({ Recipient, BounceType: 'DoesNotExist' })),
      }),
    );
  },
};
