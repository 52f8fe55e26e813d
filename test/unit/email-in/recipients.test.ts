/**
 * Unknown Email-in recipients in AWS: SES's receipt rule runs a synchronous Lambda action before the S3 action; it
 * bounces unknown and released addresses (SES SendBounce) to an authenticated sender and stops the rule set when no
 * recipient is known. The SES client is mocked (aws-sdk-client-mock): the call SES gets is what is checked.
 */
import { SESClient, SendBounceCommand } from '@aws-sdk/client-ses';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SESEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetDdbClient } from '../../../lambdas/adapters/ddb/client';
import { resetBounceClient, sesBouncer } from '../../../lambdas/adapters/mail/ses-bouncer';
import type { EmailStore } from '../../../lambdas/core/email-in/ports';
import { answerRecipients, type Bouncer, type ReceivedMessage, UNKNOWN_RECIPIENT_EXPLANATION } from '../../../lambdas/core/email-in/recipients';
import { resetEnvCache } from '../../../lambdas/runtime/env';
import { EMAIL_IN_DOMAIN } from '../../../shared/constants';

const sesMock = mockClient(SESClient);
const ddbMock = mockClient(DynamoDBDocumentClient);
const KNOWN = `acme-x1y2z3@${EMAIL_IN_DOMAIN}`;
const TYPO = `acme-x1y2z4@${EMAIL_IN_DOMAIN}`;
const RELEASED = `old.member@${EMAIL_IN_DOMAIN}`;

const kept: { messageId: string; recipients: string[]; expiresAt: number }[] = [];
const emails: EmailStore = {
  // A released claim has no company_id: the adapter answers it as no claim (E1).
  claim: async (address) => (address === KNOWN ? { address, company_id: 'c1' } : undefined),
  get: async () => undefined,
  listOfCompany: async () => ({ items: [], next: null }),
  create: async () => false,
  finish: async () => false,
  countNotice: async () => false,
  putEnvelope: async (messageId, recipients, expiresAt) => void kept.push({ messageId, recipients, expiresAt }),
  envelope: async () => undefined,
};
const log = { info: () => undefined, warn: () => undefined };
const clock = { now: () => new Date('2026-12-01T10:00:00Z') };
const message = (recipients: string[], verdicts: Partial<ReceivedMessage> = {}): ReceivedMessage => ({
  messageId: 'ses-msg-1',
  recipients,
  spf: 'PASS',
  dkim: 'PASS',
  spam: 'PASS',
  virus: 'PASS',
  ...verdicts,
});

function recordingBouncer(): Bouncer & { calls: { messageId: string; recipients: string[] }[] } {
  const calls: { messageId: string; recipients: string[] }[] = [];
  return { calls, bounce: async (b) => void calls.push({ messageId: b.messageId, recipients: b.recipients }) };
}

describe('answerRecipients', () => {
  it('stops the rule set and bounces when no recipient is known; goes on and bounces only the unknown ones otherwise', async () => {
    const bouncer = recordingBouncer();
    expect(await answerRecipients({ emails, domains: [], log, clock, bouncer }, message([TYPO, RELEASED]))).toEqual({ disposition: 'STOP_RULE_SET', unknown: [TYPO, RELEASED], bounced: true });
    expect(await answerRecipients({ emails, domains: [], log, clock, bouncer }, message([KNOWN.replace('@', '+sales@'), TYPO]))).toEqual({ disposition: 'CONTINUE', unknown: [TYPO], bounced: true });
    expect(await answerRecipients({ emails, domains: [], log, clock, bouncer }, message([KNOWN]))).toEqual({ disposition: 'CONTINUE', unknown: [], bounced: false });
    expect(bouncer.calls).toEqual([
      { messageId: 'ses-msg-1', recipients: [TYPO, RELEASED] },
      { messageId: 'ses-msg-1', recipients: [TYPO] },
    ]);
  });

  it('bounces nothing to a sender that proved nothing, or to spam or a virus (no backscatter), and still stops the rule set', async () => {
    const bouncer = recordingBouncer();
    for (const verdicts of [{ spf: 'FAIL', dkim: 'GRAY' }, { spf: 'PASS', spam: 'FAIL' }, { dkim: 'PASS', virus: 'FAIL' }, { spf: 'PROCESSING_FAILED', dkim: 'DISABLED' }]) {
      expect(await answerRecipients({ emails, domains: [], log, clock, bouncer }, message([TYPO], verdicts))).toMatchObject({ disposition: 'STOP_RULE_SET', bounced: false });
    }
    expect(bouncer.calls).toEqual([]);
  });

  it('keeps the known recipients of a message that goes on, for the job (a Bcc is in no header of the stored message)', async () => {
    kept.length = 0;
    const bouncer = recordingBouncer();
    await answerRecipients({ emails, domains: [], log, clock, bouncer }, message([KNOWN, TYPO]));
    await answerRecipients({ emails, domains: [], log, clock, bouncer }, message([TYPO]));
    expect(kept).toEqual([{ messageId: 'ses-msg-1', recipients: [KNOWN], expiresAt: Date.parse('2026-12-15T10:00:00Z') / 1000 }]);
    // Not kept: the rule still answers, and the job routes by the headers.
    const failing: EmailStore = { ...emails, putEnvelope: async () => Promise.reject(new Error('Throttling')) };
    expect(await answerRecipients({ emails: failing, domains: [], log, clock, bouncer }, message([KNOWN]))).toEqual({ disposition: 'CONTINUE', unknown: [], bounced: false });
  });

  it('answers the rule when the bounce cannot be sent', async () => {
    const bouncer: Bouncer = { bounce: async () => Promise.reject(new Error('Throttling')) };
    expect(await answerRecipients({ emails, domains: [], log, clock, bouncer }, message([TYPO]))).toEqual({ disposition: 'STOP_RULE_SET', unknown: [TYPO], bounced: false });
  });
});

describe('sesBouncer and the rule action', () => {
  const saved = { EMAIL_IN_DOMAIN: process.env.EMAIL_IN_DOMAIN, TABLE_NAME: process.env.TABLE_NAME };
  beforeEach(() => {
    process.env.EMAIL_IN_DOMAIN = 'mail.example.org';
    process.env.TABLE_NAME = 'unit-table';
    resetEnvCache();
    resetBounceClient();
    resetDdbClient();
    sesMock.reset();
    ddbMock.reset();
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
    resetDdbClient();
    sesMock.reset();
    ddbMock.reset();
  });

  it('sends SES SendBounce for the message with each recipient as DoesNotExist, from the domain MAILER-DAEMON', async () => {
    sesMock.on(SendBounceCommand).resolves({ MessageId: 'bounce-1' });
    await sesBouncer.bounce({ messageId: 'ses-msg-1', recipients: [TYPO, RELEASED], explanation: UNKNOWN_RECIPIENT_EXPLANATION });
    expect(sesMock.commandCalls(SendBounceCommand).map((c) => c.args[0].input)).toEqual([
      {
        OriginalMessageId: 'ses-msg-1',
        BounceSender: 'MAILER-DAEMON@mail.example.org',
        Explanation: 'No such Email-in address',
        BouncedRecipientInfoList: [
          { Recipient: TYPO, BounceType: 'DoesNotExist' },
          { Recipient: RELEASED, BounceType: 'DoesNotExist' },
        ],
      },
    ]);
  });

  it('the handler reads the SES event and answers STOP_RULE_SET for a message to no known address', async () => {
    sesMock.on(SendBounceCommand).resolves({ MessageId: 'bounce-2' });
    // E1 finds no claim of the address.
    ddbMock.on(GetCommand).resolves({});
    const { handler } = await import('../../../lambdas/jobs/answer-email-recipients');
    const verdict = (status: string) => ({ status: status as 'PASS' });
    const event = {
      Records: [
        {
          eventSource: 'aws:ses',
          eventVersion: '1.0',
          ses: {
            mail: { messageId: 'ses-msg-3' },
            receipt: { recipients: ['nobody@mail.example.org'], spfVerdict: verdict('PASS'), dkimVerdict: verdict('GRAY'), spamVerdict: verdict('PASS'), virusVerdict: verdict('PASS') },
          },
        },
      ],
    } as unknown as SESEvent;
    expect(await handler(event)).toEqual({ disposition: 'STOP_RULE_SET' });
    expect(sesMock.commandCalls(SendBounceCommand).map((c) => c.args[0].input.BouncedRecipientInfoList)).toEqual([[{ Recipient: 'nobody@mail.example.org', BounceType: 'DoesNotExist' }]]);
    expect(ddbMock.commandCalls(GetCommand).map((c) => c.args[0].input.Key)).toEqual([{ pk: `EMAILIN#nobody@${EMAIL_IN_DOMAIN}`, sk: 'EMAILIN' }]);
  });
});
