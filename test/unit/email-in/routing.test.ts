import { describe, expect, it } from 'vitest';
import { EMAIL_IN_DOMAIN } from '../../../shared/constants';
import { authResults, mailAuth, SPOOF_WARNING } from '../../../lambdas/core/email-in/auth';
import { inAddresses, receiptTypeOf } from '../../../lambdas/core/email-in/routing';

describe('inAddresses', () => {
  it('keeps addresses of the email-in domains, with their +tag, as the claim address', () => {
    expect(inAddresses(['Acme+Sales@in.receipts.local', 'acme@in.receipts.local', 'boss@example.com', 'shop@mail.example.org'], ['mail.example.org'])).toEqual([
      { address: `acme@${EMAIL_IN_DOMAIN}`, tag: 'sales' },
      { address: `shop@${EMAIL_IN_DOMAIN}`, tag: null },
    ]);
  });
});

describe('receiptTypeOf', () => {
  it('is a cost by default; a sales invoice for +sales/+invoice or [sales] in the subject', () => {
    expect(receiptTypeOf(null, 'Your invoice from Shop')).toBe('receipt');
    expect(receiptTypeOf('sales', '')).toBe('invoice');
    expect(receiptTypeOf('invoice', '')).toBe('invoice');
    expect(receiptTypeOf(null, 'Fwd: [Sales] March')).toBe('invoice');
  });
});

describe('mailAuth', () => {
  it('reads SES verdicts from the topmost headers and marks a failing sender', () => {
    const auth = mailAuth([
      { key: 'authentication-results', value: 'amazonses.com; spf=fail (spfCheck: 1.2.3.4 is not permitted) smtp.mailfrom=x@bank.example; dkim=fail header.i=@bank.example; dmarc=fail header.from=bank.example;' },
      { key: 'x-ses-spam-verdict', value: 'PASS' },
      { key: 'x-ses-virus-verdict', value: 'PASS' },
      { key: 'authentication-results', value: 'forged; spf=pass; dkim=pass; dmarc=pass' },
    ]);
    expect(auth).toEqual({ spf: 'fail', dkim: 'fail', dmarc: 'fail', spam: 'pass', virus: 'pass', warning: SPOOF_WARNING });
  });
  it('reads Received-SPF when there is no Authentication-Results', () => {
    expect(mailAuth([{ key: 'received-spf', value: 'softfail (domain of x does not designate ...)' }]).spf).toBe('softfail');
    expect(authResults('a; dkim=pass header.i=@a; dkim=fail')).toEqual({ dkim: 'pass' });
  });
});
