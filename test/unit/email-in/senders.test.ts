import { describe, expect, it } from 'vitest';
import { isAllowedSender, SENDER_NOT_ALLOWED, SENDER_NOT_VERIFIED, senderRefusal } from '../../../lambdas/core/email-in/senders';
import type { EmailAuthView } from '../../../shared/schemas/emails';

const clean: EmailAuthView = { spf: 'pass', dkim: 'pass', dmarc: 'pass', spam: 'pass', virus: 'pass', warning: null };

describe('allowed senders of Email-in', () => {
  it('knows an address, a domain and its subdomains, and nothing that only ends like one', () => {
    const list = ['anna@example.com', 'supplier.lt'];
    expect(isAllowedSender(list, 'Anna@Example.com')).toBe(true);
    expect(isAllowedSender(list, 'bob@example.com')).toBe(false);
    expect(isAllowedSender(list, 'billing@supplier.lt')).toBe(true);
    expect(isAllowedSender(list, 'billing@mail.supplier.lt')).toBe(true);
    expect(isAllowedSender(list, 'billing@badsupplier.lt')).toBe(false);
    expect(isAllowedSender(list, 'supplier.lt')).toBe(false);
    expect(isAllowedSender(list, '')).toBe(false);
    // A `+tag` is the same mailbox, on either side.
    expect(isAllowedSender(list, 'anna+invoices@example.com')).toBe(true);
    expect(isAllowedSender(['anna+x@example.com'], 'anna@example.com')).toBe(true);
    expect(isAllowedSender(list, 'annabel@example.com')).toBe(false);
  });

  it('where the receiving server checks senders, asks for its proof of the From domain', () => {
    const allowed = { from_address: 'x@supplier.lt', auth: { ...clean, dmarc: 'none' as const } };
    expect(senderRefusal(['supplier.lt'], { ...allowed, from_proven: false }, true)).toBe(SENDER_NOT_VERIFIED);
    expect(senderRefusal(['supplier.lt'], { ...allowed, from_proven: true }, true)).toBeNull();
    // Not on the list is told first.
    expect(senderRefusal(['supplier.lt'], { ...allowed, from_address: 'x@other.lt', from_proven: false }, true)).toBe(SENDER_NOT_ALLOWED);
  });

  it('refuses a sender off the list, and an allowed one whose SPF, DKIM or DMARC failed; takes everything without a list', () => {
    expect(senderRefusal(undefined, { from_address: 'x@y.lt', auth: clean, from_proven: true }, true)).toBeNull();
    expect(senderRefusal([], { from_address: 'x@y.lt', auth: { ...clean, spf: 'fail' }, from_proven: false }, false)).toBeNull();
    expect(senderRefusal(['supplier.lt'], { from_address: 'x@y.lt', auth: clean, from_proven: true }, true)).toBe(SENDER_NOT_ALLOWED);
    expect(senderRefusal(['supplier.lt'], { from_address: 'x@supplier.lt', auth: clean, from_proven: true }, true)).toBeNull();
    // Not checked (the local server checks nothing): the From address is taken as it is.
    expect(senderRefusal(['supplier.lt'], { from_address: 'x@supplier.lt', auth: { ...clean, spf: 'none', dkim: 'none', dmarc: 'none' }, from_proven: false }, false)).toBeNull();
    for (const failed of [{ spf: 'softfail' }, { dkim: 'fail' }, { dmarc: 'fail' }] as Partial<EmailAuthView>[]) {
      expect(senderRefusal(['supplier.lt'], { from_address: 'x@supplier.lt', auth: { ...clean, ...failed }, from_proven: false }, false)).toBe(SENDER_NOT_VERIFIED);
    }
  });
});
