import { describe, expect, it } from 'vitest';
import { shownEmailInAddress } from '../../../lambdas/core/email-in/address';
import { inAddresses } from '../../../lambdas/core/email-in/routing';
import { EMAIL_IN_DOMAIN } from '../../../shared/constants';

describe('shownEmailInAddress', () => {
  it('shows a stored address at the deployed domain', () => {
    expect(shownEmailInAddress(`acme-uab-abc123@${EMAIL_IN_DOMAIN}`, 'in.example.com')).toBe('acme-uab-abc123@in.example.com');
    expect(shownEmailInAddress('rasa.team@in.receipts.local', ' In.Example.COM ')).toBe('rasa.team@in.example.com');
  });

  it('keeps the stored address without a deployed domain, or when the deployed domain is the product’s own', () => {
    expect(shownEmailInAddress(`acme@${EMAIL_IN_DOMAIN}`, '')).toBe(`acme@${EMAIL_IN_DOMAIN}`);
    expect(shownEmailInAddress(`acme@${EMAIL_IN_DOMAIN}`, EMAIL_IN_DOMAIN)).toBe(`acme@${EMAIL_IN_DOMAIN}`);
  });

  it('leaves anything not in the stored form as it is', () => {
    expect(shownEmailInAddress('', 'in.example.com')).toBe('');
    expect(shownEmailInAddress('boss@example.com', 'in.example.com')).toBe('boss@example.com');
    expect(shownEmailInAddress(`@${EMAIL_IN_DOMAIN}`, 'in.example.com')).toBe(`@${EMAIL_IN_DOMAIN}`);
    expect(shownEmailInAddress('acme@in.example.com', 'in.example.com')).toBe('acme@in.example.com');
  });

  it('the shown address routes back to the stored claim', () => {
    const stored = `acme-uab-abc123@${EMAIL_IN_DOMAIN}`;
    const shown = shownEmailInAddress(stored, 'in.example.com');
    expect(inAddresses([shown], ['in.example.com'])).toEqual([{ address: stored, tag: null }]);
    expect(inAddresses([shown.replace('@', '+sales@')], ['in.example.com'])).toEqual([{ address: stored, tag: 'sales' }]);
  });
});
