import { describe, expect, it } from 'vitest';
import { aligned, fromProven } from '../../../lambdas/core/email-in/auth';

const ses = (results: string) => [{ key: 'authentication-results', value: `amazonses.com; ${results}` }];

describe("the From domain proven by the receiving server (DMARC's relaxed alignment)", () => {
  it('aligns domains of one organisation by the Public Suffix List, its private section too', () => {
    expect(aligned('supplier.lt', 'supplier.lt')).toBe(true);
    expect(aligned('mail.supplier.lt', 'supplier.lt')).toBe(true);
    // Two subdomains of one organisation: the same organisational domain.
    expect(aligned('billing.supplier.lt', 'mail.supplier.lt')).toBe(true);
    // Below a two-label public suffix the organisation is the third label.
    expect(aligned('a.shop.co.uk', 'shop.co.uk')).toBe(true);
    expect(aligned('shop.co.uk', 'other.co.uk')).toBe(false);
    // Two sites of one shared host are two organisations, and none of them is the host.
    expect(aligned('victim.github.io', 'attacker.github.io')).toBe(false);
    expect(aligned('github.io', 'attacker.github.io')).toBe(false);
    expect(aligned('github.io', 'github.io')).toBe(true);
    expect(aligned('co.uk', 'shop.co.uk')).toBe(false);
    expect(aligned('supplier.lt', 'badsupplier.lt')).toBe(false);
    expect(aligned('', '')).toBe(false);
  });

  it('takes a DKIM or SPF pass only for an aligned domain', () => {
    expect(fromProven(ses('spf=none; dkim=pass header.d=mail.supplier.lt; dmarc=none'), 'billing@supplier.lt')).toBe(true);
    expect(fromProven(ses('spf=none; dkim=pass header.d=billing.supplier.lt; dmarc=none'), 'anna@mail.supplier.lt')).toBe(true);
    expect(fromProven(ses('spf=pass smtp.mailfrom=x@attacker.github.io; dkim=none; dmarc=none'), 'billing@victim.github.io')).toBe(false);
    expect(fromProven(ses('spf=none; dkim=pass header.d=attacker.github.io; dmarc=none'), 'billing@github.io')).toBe(false);
    expect(fromProven(ses('spf=none; dkim=fail header.d=supplier.lt; dmarc=none'), 'billing@supplier.lt')).toBe(false);
    expect(fromProven(ses('spf=none; dkim=none; dmarc=pass header.from=supplier.lt'), 'billing@supplier.lt')).toBe(true);
    expect(fromProven([], 'billing@supplier.lt')).toBe(false);
  });
});
