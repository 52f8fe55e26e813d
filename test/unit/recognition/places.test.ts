import { describe, expect, it } from 'vitest';
import { correctPlaceNames, correctPostcodes, placesOfPostcode, isMalaysianAddress } from '../../../lambdas/core/recognition/extract/places';
import { joinAddressLines } from '../../../lambdas/core/recognition/extract/address';

describe('place names checked against the postcode', () => {
  it('knows the town and state of a Malaysian postcode', () => {
    expect(placesOfPostcode('40150')).toContainEqual({ town: 'SHAH ALAM', state: 'SELANGOR' });
    expect(placesOfPostcode('81200')).toContainEqual({ town: 'JOHOR BAHRU', state: 'JOHOR' });
    expect(placesOfPostcode('99999')).toEqual([]);
  });

  it("writes the postcode's town and state as named where the reading is a letter or two off", () => {
    expect(correctPlaceNames('SEKSYEN U13,40170 SNAH ALAM,')).toBe('SEKSYEN U13,40170 SHAH ALAM,');
    expect(correctPlaceNames('Seksyen 25, 40400 Shah lam Selangor')).toBe('Seksyen 25, 40400 Shah Alam Selangor');
    expect(correctPlaceNames('TAMAN BERKELEY 41150 KLANG, SCLANGOR')).toBe('TAMAN BERKELEY 41150 KLANG, SELANGOR');
    expect(correctPlaceNames('43200 Cheras, Sel angor.')).toBe('43200 Cheras, Selangor.');
    expect(correctPlaceNames('40150 SHAH AL AM, SELANGOR')).toBe('40150 SHAH ALAM, SELANGOR');
    // After a comma with no space after it, as some receipts print their parts.
    expect(correctPlaceNames('Tampoi,81200 Johor Bahru,Jahor')).toBe('Tampoi,81200 Johor Bahru,Johor');
    expect(correctPlaceNames('Tampoi,81200 Johor B ahru,Johor')).toBe('Tampoi,81200 Johor Bahru,Johor');
  });

  it('leaves other words, other places and names read right alone', () => {
    const right = '12, Jalan Tampoi 7/4,Kawasan Perindustrian Tampoi,81200 Johor Bahru,Johor';
    expect(correctPlaceNames(right)).toBe(right);
    // A town of another postcode is not "corrected" into this one's.
    expect(correctPlaceNames('SETIA ALAM, 40170 SHAH ALAM')).toBe('SETIA ALAM, 40170 SHAH ALAM');
    expect(correctPlaceNames('JALAN KLANG LAMA, 58000 KUALA LUMPUR')).toBe('JALAN KLANG LAMA, 58000 KUALA LUMPUR');
    // Streets named after states or flowers are no place names to check.
    expect(correctPlaceNames('JLN BUNGA KANTAN 53000 KUALA LUMPUR')).toBe('JLN BUNGA KANTAN 53000 KUALA LUMPUR');
    expect(correctPlaceNames('JALAN PINANG, 50450 KUALA LUMPUR')).toBe('JALAN PINANG, 50450 KUALA LUMPUR');
    expect(correctPlaceNames('PETALING JAYA SEANGOR DARUL EHSAN')).toBe('PETALING JAYA SEANGOR DARUL EHSAN');
    // Another spelling of the town, made of place words, is kept as printed.
    expect(correctPlaceNames('42500 TELUK PANGLIMA GARANG')).toBe('42500 TELUK PANGLIMA GARANG');
  });
});

describe('a postcode checked against the town or state printed after it', () => {
  it('puts right a digit read for its look-alike where the town or state after it is that of the postcode it makes', () => {
    // 43600 is Bangi's postcode; 43800, one look-alike digit away, is Dengkil's.
    expect(correctPostcodes('NO.1, TAMAN SRI DENGKIL, JALAN AIR HITAM 43600 DENGKIL, SELANGOR.')).toBe('NO.1, TAMAN SRI DENGKIL, JALAN AIR HITAM 43800 DENGKIL, SELANGOR.');
    // Or its state: 59000 is in Kuala Lumpur; 69000, Genting Highlands, in Pahang.
    expect(correctPostcodes('Sky Avenue Genting Highlands Pahang, 59000 Pahang Malaysia')).toBe('Sky Avenue Genting Highlands Pahang, 69000 Pahang Malaysia');
    expect(joinAddressLines(['NO.1, TAMAN SRI DENGKIL,', 'JALAN AIR HITAM 43600 DENGKIL,', 'SELANGOR.'])).toBe('NO.1, TAMAN SRI DENGKIL, JALAN AIR HITAM 43800 DENGKIL, SELANGOR.');
    // The document's own text is taken as written.
    expect(joinAddressLines(['JALAN AIR HITAM 43600 DENGKIL'], true)).toBe('JALAN AIR HITAM 43600 DENGKIL');
  });

  it.each([
    // Its own town, or its state where the town is a district the address does not name (53300 is Setapak's).
    ['75, JALAN SS 22/19, DAMANSARA JAYA, 47400 PJ'],
    ['WANGSA MAJU, 53300 KUALA LUMPUR'],
    ['12, JALAN TAMPOI 7/4, 81200 JOHOR BAHRU, JOHOR'],
    // A town named elsewhere than after the postcode: a street, an estate, a district.
    ['NO. 135, JALAN BANGI, 43500'],
    ['NO 43-45-47G, TAMAN SEJATI, IJOK, 45600 BESTARI JAYA, KUALA SELANGOR.'],
  ])('leaves %s as printed', (address) => {
    expect(correctPostcodes(address)).toBe(address);
  });
});

describe('an address in Malaysia', () => {
  it('names the country, or holds a Malaysian postcode with its town or state or a Malay street word', () => {
    expect(isMalaysianAddress('UNIT G-5B, NO 21, 50450 KUALA LUMPUR')).toBe(true);
    expect(isMalaysianAddress('75, JALAN SS 22/19, DAMANSARA JAYA, 47400 PJ')).toBe(true);
    expect(isMalaysianAddress('LEVEL 3, SUNWAY PYRAMID, MALAYSIA')).toBe(true);
  });

  it('is not told by five digits alone, nor by a number that is no Malaysian postcode', () => {
    expect(isMalaysianAddress('5 MAIN STREET, 20500 SPRINGFIELD')).toBe(false);
    expect(isMalaysianAddress('JALAN BESAR 99999')).toBe(false);
  });
});
