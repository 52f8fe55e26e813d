import { describe, expect, it } from 'vitest';
import {
  findBics,
  findIbans,
  findVatIds,
  isValidBic,
  isValidIban,
  isValidLtVatNumber,
  isValidVatId,
  ltVatCheckDigit,
} from '../../../lambdas/core/recognition/extract/identifiers';

describe('VAT IDs', () => {
  it.each([
    ['LT119511515'],
    ['LT100001919017'],
    ['LT 1195 11515'],
    ['ATU13585627'],
    ['BE0411905847'],
    ['DE136695976'],
    ['DK13585628'],
    ['EE100207415'],
    ['EL094259216'],
    ['ESB58378431'],
    ['FI20774740'],
    ['FR40303265045'],
    ['HR33392005961'],
    ['HU12892312'],
    ['IE6388047V'],
    ['IT00743110157'],
    ['LU15027442'],
    ['LV40003521600'],
    ['NL004495445B01'],
    ['PL5261040828'],
    ['PT501964843'],
    ['SE556036079301'],
    ['SI50223054'],
    ['SK2022749619'],
    ['CY10259033P'],
    ['CZ25123891'],
  ])('%s is valid', (id) => {
    expect(isValidVatId(id)).toBe(true);
  });

  it.each([
    ['LT119511516', 'wrong check digit'],
    ['LT119511525', '8th digit must be 1'],
    ['LT11951151', 'too short'],
    ['DE12345678', 'DE has 9 digits'],
    ['ATU1234567', 'AT needs U + 8 digits'],
    ['NL004495445A01', 'NL needs B'],
    ['XX123456789', 'unknown country'],
    ['SE556036079302', 'SE ends with 01'],
  ])('%s is invalid (%s)', (id) => {
    expect(isValidVatId(id)).toBe(false);
  });

  it('computes the Lithuanian check digit, with the second pass when the first gives 10', () => {
    expect(ltVatCheckDigit('11951151')).toBe('5');
    expect(isValidLtVatNumber('119511515')).toBe(true);
    expect(isValidLtVatNumber('100001919017')).toBe(true);
    // Every 9-digit code with a computed check digit validates.
    for (const base of ['10000001', '21234561', '99999991', '30030031']) expect(isValidLtVatNumber(base + ltVatCheckDigit(base))).toBe(true);
  });

  it('finds VAT IDs in text', () => {
    expect(findVatIds('PVM mokėtojo kodas: LT119511515, tel. 8 5 123').map((v) => v.value)).toEqual(['LT119511515']);
    expect(findVatIds('VAT: DE 136 695 976 Berlin').map((v) => v.value)).toEqual(['DE136695976']);
    expect(findVatIds('Postal code LT-01103 Vilnius')).toEqual([]);
  });

  it.each([
    ['UAB Alfa LT119511515', 'LT119511515'],
    ['Alfa AB LT119511515', 'LT119511515'],
    ['Alpenmetall Handels GmbH DE136695976', 'DE136695976'],
    ['Kauno g. 5 LT119511515', 'LT119511515'],
    ['SE LT119511515', 'LT119511515'],
    ['Datenwerk GmbH DE 136 695 976', 'DE136695976'],
  ])('finds the VAT ID in "%s": a word before it that is no country prefix does not hide it', (text, value) => {
    expect(findVatIds(text).map((v) => v.value)).toEqual([value]);
  });

  it('takes no number label for a country prefix, nor a VAT ID out of a longer number', () => {
    // "No" before a number is the number label; a Norwegian VAT ID printed apart from its prefix ends with MVA.
    for (const text of ['Invoice No 123456789', 'INVOICE NO 123456789', 'No 123456789', 'GST NO 000123456789']) expect(findVatIds(text)).toEqual([]);
    expect(findVatIds('Org.nr. NO 123 456 789 MVA').map((v) => v.value)).toEqual(['NO123456789MVA']);
    expect(findVatIds('NO123456789').map((v) => v.value)).toEqual(['NO123456789']);
  });
});

describe('IBAN and BIC', () => {
  it.each([['LT121000011101001000'], ['LT60 1010 0123 4567 8901'], ['DE89 3704 0044 0532 0130 00'], ['GB82WEST12345698765432'], ['FR1420041010050500013M02606']])('%s is a valid IBAN', (iban) => {
    expect(isValidIban(iban)).toBe(true);
  });

  it.each([['LT121000011101001001'], ['LT12100001110100100'], ['DE89370400440532013001'], ['XX121000011101001000'], ['LT12 1000 0111 0100 10O0']])('%s is not a valid IBAN', (iban) => {
    expect(isValidIban(iban)).toBe(false);
  });

  it('finds IBANs printed in groups and stops at the next word', () => {
    expect(findIbans('A/s: LT12 1000 0111 0100 1000 AB SEB bankas').map((i) => i.value)).toEqual(['LT121000011101001000']);
    expect(findIbans('IBAN DE89370400440532013000, BIC DEUTDEFF').map((i) => i.value)).toEqual(['DE89370400440532013000']);
    expect(findIbans('Account LT12 1000 0111 0100 1001')).toEqual([]);
  });

  it('validates and finds BIC codes', () => {
    expect(isValidBic('HABALT22')).toBe(true);
    expect(isValidBic('DEUTDEFF500')).toBe(true);
    expect(isValidBic('HABAXX22')).toBe(false);
    expect(isValidBic('HAB4LT22')).toBe(false);
    expect(findBics('SWIFT: CBVILT2X', true).map((b) => b.value)).toEqual(['CBVILT2X']);
    // Without a label an 8-letter word is not taken for a BIC.
    expect(findBics('STANDARD DELIVERY', false)).toEqual([]);
  });
});
