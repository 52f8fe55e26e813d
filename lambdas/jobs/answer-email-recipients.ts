/**
 * The SES receipt rule's synchronous Lambda action (EmailInStack), run before the S3 action: unknown or released
 * Email-in addresses are bounced to an authenticated sender, and a message for no known address stops the rule
 * set (lambdas/core/email-in/recipients.ts). Local mode refuses such recipients in the SMTP dialogue instead.
 */
import type { SESEvent } from 'aws-lambda';
import { sesBouncer } from '../adapters/mail/ses-bouncer';
import { answerRecipients, type RuleDisposition } from '../core/email-in/recipients';
import { depsFor } from '../runtime/deps';
import { env } from '../runtime/env';
import { createLogger } from '../runtime/logger';

export async function handler(event: SESEvent): Promise<{ disposition: RuleDisposition }> {
  const base = depsFor('jobs/answer-email-recipients');
  const deps = {
    emails: base.emails,
    clock: base.clock,
    domains: env().EMAIL_IN_DOMAIN ? [env().EMAIL_IN_DOMAIN] : [],
    bouncer: sesBouncer,
    log: createLogger({ job: 'answer-email-recipients' }),
  };
  let disposition: RuleDisposition = 'STOP_RULE_SET';
  for (const record of event.Records) {
    const { mail, receipt } = record.ses;
    const answer = await answerRecipients(deps, {
      messageId: mail.messageId,
      recipients: receipt.recipients,
      spf: receipt.spfVerdict.status,
      dkim: receipt.dkimVerdict.status,
      spam: receipt.spamVerdict.status,
      virus: receipt.virusVerdict.status,
    });
    if (answer.disposition === 'CONTINUE') disposition = 'CONTINUE';
  }
  return { disposition };
}
