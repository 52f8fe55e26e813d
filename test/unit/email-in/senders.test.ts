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
  });

  it('refuses a sender off the list, and an allowed one whose SPF, DKIM or DMARC failed; takes everything without a list', () => {
    expect(senderRefusal(undefined, { from_address: 'x@y.lt', auth: clean })).toBeNull();
    expect(senderRefusal([], { from_address: 'x@y.lt', auth: { ...clean, spf: 'fail' } })).toBeNull();
    expect(senderRefusal(['supplier.lt'], { from_address: 'x@y.lt', auth: clean })).toBe(SENDER_NOT_ALLOWED);
    expect(senderRefusal(['supplier.lt'], { from_address: 'x@supplier.lt', auth: clean })).toBeNull();
    // Not checked (the local server checks nothing): the From address is taken as it is.
    expect(senderRefusal(['supplier.lt'], { from_address: 'x@supplier.lt', auth: { ...clean, spf: 'none', dkim: 'none', dmarc: 'none' } })).toBeNull();
    for (const failed of [{ spf: 'softfail' }, { dkim: 'fail' }, { dmarc: 'fail' }] as Partial<EmailAuthView>[]) {
      expect(senderRefusal(['supplier.lt'], { from_address: 'x@supplier.lt', auth: { ...clean, ...failed } })).toBe(SENDER_NOT_VERIFIED);
    }
  });
});
