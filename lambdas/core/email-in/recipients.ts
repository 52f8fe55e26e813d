/**
 * The answer to a message before it is stored, in AWS: SES's receipt rule set runs a synchronous Lambda action
 * (EmailInStack) ahead of the S3 action. SES has accepted the message already (its SMTP dialogue cannot refuse one
 * recipient), so an unknown or released Email-in address is answered with a bounce to the sender (SES SendBounce),
 * as the local SMTP server answers it with 550 during the dialogue, by the same look-up (`isKnownRecipient`).
 *
 * Backscatter: a bounce goes to the message's envelope sender, which spam forges. So only a sender that proved the
 * address (SPF or DKIM pass, and no spam or virus verdict) is bounced; other mail to unknown addresses is dropped
 * without an answer. A message for no known address stops the rule set (nothing is stored, as the job would delete
 * it); one with a known recipient too goes on to the S3 action and the job (which drops the unknown ones).
 *
 * The known recipients are kept for the job (E11): the stored message names a recipient only in its headers, and a
 * Bcc copy for several Email-in addresses names none of the Bcc'd ones there (the receiving server's `for <…>` is
 * written only for a single recipient).
 */
import { isKnownRecipient, type EmailInDeps } from './receive';

/** What SES's receipt rule tells the Lambda action about a message (SES event record `ses`). */
export interface ReceivedMessage {
  /** SES's id of the message (`mail.messageId`), what SendBounce names. */
  messageId: string;
  /** The envelope recipients the rule matched (`receipt.recipients`). */
  recipients: string[];
  /** SES's verdicts (`receipt.*Verdict.status`): PASS, FAIL, GRAY, PROCESSING_FAILED, DISABLED. */
  spf: string;
  dkim: string;
  spam: string;
  virus: string;
}

/** The SES rule action's answer: go on with the next action (the S3 action), or stop the rule set. */
export type RuleDisposition = 'CONTINUE' | 'STOP_RULE_SET';

/** Sends a bounce for some recipients of a received message (SES SendBounce). */
export interface Bouncer {
  bounce(message: { messageId: string; recipients: string[]; explanation: string }): Promise<void>;
}

/** What the bounce says of each recipient (and the local SMTP server's 550 reply). */
export const UNKNOWN_RECIPIENT_EXPLANATION = 'No such Email-in address';

export interface RecipientAnswer {
  disposition: RuleDisposition;
  unknown: string[];
  bounced: boolean;
}

/** Whether the sender proved its address, so that a bounce reaches the real sender rather than a forged one. */
export function bounceable(message: Pick<ReceivedMessage, 'spf' | 'dkim' | 'spam' | 'virus'>): boolean {
  const pass = (v: string) => v.toUpperCase() === 'PASS';
  const fail = (v: string) => v.toUpperCase() === 'FAIL';
  return (pass(message.spf) || pass(message.dkim)) && !fail(message.spam) && !fail(message.virus);
}

/** How long the envelope of a received message is kept for the job (its retries and a redrive from the dead-letter queue). */
export const ENVELOPE_KEPT_SECONDS = 14 * 24 * 3600;

/** Keeps the known recipients for the job; a failure is logged (the job then routes by the headers alone). */
async function keepEnvelope(deps: Pick<EmailInDeps, 'emails' | 'log' | 'clock'>, messageId: string, known: string[]): Promise<void> {
  try {
    await deps.emails.putEnvelope(messageId, known, Math.floor(deps.clock.now().getTime() / 1000) + ENVELOPE_KEPT_SECONDS);
  } catch (error) {
    deps.log.warn('envelope recipients not kept', { message_id: messageId, error: error instanceof Error ? error.message : String(error) });
  }
}

export async function answerRecipients(
  deps: Pick<EmailInDeps, 'emails' | 'domains' | 'log' | 'clock'> & { bouncer: Bouncer },
  message: ReceivedMessage,
): Promise<RecipientAnswer> {
  const unknown: string[] = [];
  const known: string[] = [];
  for (const recipient of message.recipients) (await isKnownRecipient(deps, recipient) ? known : unknown).push(recipient);
  if (known.length > 0) await keepEnvelope(deps, message.messageId, known);
  if (unknown.length === 0) return { disposition: 'CONTINUE', unknown, bounced: false };
  const disposition: RuleDisposition = unknown.length === message.recipients.length ? 'STOP_RULE_SET' : 'CONTINUE';
  if (!bounceable(message)) {
    deps.log.info('unknown email-in recipients dropped without a bounce (sender not authenticated)', { message_id: message.messageId, recipients: unknown });
    return { disposition, unknown, bounced: false };
  }
  try {
    await deps.bouncer.bounce({ messageId: message.messageId, recipients: unknown, explanation: UNKNOWN_RECIPIENT_EXPLANATION });
    deps.log.info('unknown email-in recipients bounced', { message_id: message.messageId, recipients: unknown });
    return { disposition, unknown, bounced: true };
  } catch (error) {
    // The rule must still answer (SES waits for it): the mail is dropped for these recipients as before.
    deps.log.warn('bounce not sent', { message_id: message.messageId, error: error instanceof Error ? error.message : String(error) });
    return { disposition, unknown, bounced: false };
  }
}
