import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EMAIL_IN_SENDER_INVALID, EMAIL_IN_SENDERS_MAX, EMAIL_IN_SENDERS_TOO_MANY } from '../../../shared/schemas/company';
import { EmailInSendersReadOnly } from '../../../web/src/features/settings/components/EmailInSenders';
import {
  parseSenders,
  sendersErrorText,
  sendersReadOnlyText,
  sendersText,
  sendersValidator,
} from '../../../web/src/features/settings/lib/email-in-senders';
import { ApiError } from '../../../web/src/lib/api-error';

describe('Settings, Email-in allowed senders: reading the text box', () => {
  it('takes one sender a line, also separated by commas, semicolons and spaces; blank lines are skipped', () => {
    expect(parseSenders('')).toEqual({ entries: [], lines: [] });
    expect(parseSenders('  \n\n ')).toEqual({ entries: [], lines: [] });
    expect(parseSenders('anna@supplier.lt\n\n  @Taxi.example ,bob@x.lt; c.lt\r\nd.lt  e.lt\n')).toEqual({
      entries: ['anna@supplier.lt', '@Taxi.example', 'bob@x.lt', 'c.lt', 'd.lt', 'e.lt'],
      lines: [1, 3, 3, 3, 4, 4],
    });
  });

  it('shows a saved list one sender a line, which reads back as the same list', () => {
    const saved = ['anna@supplier.lt', 'supplier.lt'];
    expect(sendersText(saved)).toBe('anna@supplier.lt\nsupplier.lt');
    expect(parseSenders(sendersText(saved)).entries).toEqual(saved);
    expect(sendersText([])).toBe('');
  });
});

describe('Settings, Email-in allowed senders: checked with the shared schema, errors by line', () => {
  it('passes a valid list on as typed (the server normalises it as the schema does); empty is valid', () => {
    expect(sendersValidator({ email_in_senders: 'Anna@Supplier.lt\n@supplier.lt\nanna@supplier.lt' })).toEqual({
      ok: true,
      data: { email_in_senders: ['Anna@Supplier.lt', '@supplier.lt', 'anna@supplier.lt'] },
      errors: {},
    });
    expect(sendersValidator({ email_in_senders: ' \n ' })).toEqual({ ok: true, data: { email_in_senders: [] }, errors: {} });
  });

  it('names the line of an invalid sender, with the schema’s message', () => {
    expect(sendersValidator({ email_in_senders: 'anna@supplier.lt\nnot a sender\nsupplier.lt' })).toEqual({
      ok: false,
      // "not a sender" is three entries on line 2 (spaces separate), none of them a sender
      errors: { email_in_senders: `Line 2: ${EMAIL_IN_SENDER_INVALID}` },
    });
    expect(sendersValidator({ email_in_senders: 'anna@\nsupplier.lt\n\nx@y' })).toEqual({
      ok: false,
      errors: { email_in_senders: `Lines 1, 4: ${EMAIL_IN_SENDER_INVALID}` },
    });
  });

  it('says when there are too many senders', () => {
    const many = Array.from({ length: EMAIL_IN_SENDERS_MAX + 1 }, (_, i) => `s${i}.lt`).join('\n');
    expect(sendersValidator({ email_in_senders: many })).toEqual({ ok: false, errors: { email_in_senders: EMAIL_IN_SENDERS_TOO_MANY } });
    const max = Array.from({ length: EMAIL_IN_SENDERS_MAX }, (_, i) => `s${i}.lt`).join('\n');
    expect(sendersValidator({ email_in_senders: max }).ok).toBe(true);
  });

  it('maps the server’s 422 details (path ["email_in_senders", i]) to the lines the entries were on, keeping its message', () => {
    const { lines } = parseSenders('anna@supplier.lt\n\nfoo, bar.lt\nbaz');
    const err = new ApiError(422, 'Unprocessable Entity', 'Validation failed', [
      { path: ['email_in_senders', 1], message: EMAIL_IN_SENDER_INVALID },
      { path: ['email_in_senders', 3], message: EMAIL_IN_SENDER_INVALID },
    ]);
    expect(sendersErrorText(err.fieldErrors, lines)).toBe(`Lines 3, 4: ${EMAIL_IN_SENDER_INVALID}`);
    const one = new ApiError(422, 'Unprocessable Entity', 'Validation failed', [{ path: ['email_in_senders', 2], message: 'Some other text' }]);
    expect(sendersErrorText(one.fieldErrors, lines)).toBe('Line 3: Some other text');
    const whole = new ApiError(422, 'Unprocessable Entity', 'Validation failed', [{ path: ['email_in_senders'], message: EMAIL_IN_SENDERS_TOO_MANY }]);
    expect(sendersErrorText(whole.fieldErrors, lines)).toBe(EMAIL_IN_SENDERS_TOO_MANY);
    expect(sendersErrorText({}, lines)).toBeUndefined();
  });
});

describe('Settings, Email-in allowed senders: what a Basic member reads', () => {
  it('from any sender when the list is empty, else only from the listed ones', () => {
    expect(sendersReadOnlyText([])).toBe('Mail is taken from any sender.');
    expect(sendersReadOnlyText(['anna@supplier.lt', 'supplier.lt'])).toBe('Mail is taken only from: anna@supplier.lt, supplier.lt');
    const html = renderToStaticMarkup(createElement(EmailInSendersReadOnly, { senders: ['supplier.lt'] }));
    expect(html).toBe('<p class="settings-senders-readonly" data-testid="settings-email-in-senders">Mail is taken only from: supplier.lt</p>');
  });
});
