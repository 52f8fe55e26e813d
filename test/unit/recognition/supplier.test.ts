import { describe, expect, it } from 'vitest';
import { cleanCompanyName, extractSupplierHeader, normalisePunctuationSpacing } from '../../../lambdas/core/recognition/extract/supplier';
import { textRows } from './helpers';

describe("the seller's name", () => {
  it.each([
    // Spacing around punctuation as names are printed.
    ['MR . D.I .Y . SDN BHD', 'MR. D.I.Y. SDN BHD'],
    ['GARDENIA BAKERIES(KL)SDN BHD', 'GARDENIA BAKERIES (KL) SDN BHD'],
    ['AIK HUAT ENTERPRISE ( SETIA ALAM )SDN BHD', 'AIK HUAT ENTERPRISE (SETIA ALAM) SDN BHD'],
    ['MR. D.I.Y.(M) SDN BHD', 'MR. D.I.Y. (M) SDN BHD'],
    ['POPULAR BOOK CO. (M) SDN BHD', 'POPULAR BOOK CO. (M) SDN BHD'],
    ['SINNATHAMBY HOLDINGS SDN. BHD.', 'SINNATHAMBY HOLDINGS SDN. BHD.'],
    // Legal forms run into the words before them.
    ['OGNGROUPSDN BHD', 'OGNGROUP SDN BHD'],
    ['GARDENIA BAKERIES(KL)SDNBHD', 'GARDENIA BAKERIES (KL) SDN BHD'],
    ['UAB Pavyzdys', 'UAB Pavyzdys'],
  ])('%s → %s', (raw, expected) => {
    expect(cleanCompanyName(raw)).toBe(expected);
  });

  it.each([
    ['A , B', 'A, B'],
    ['A( B )C', 'A (B) C'],
    ['[X]Y', '[X] Y'],
    ['SDNBHD', 'SDN BHD'],
    ['THE SDN BHD', 'THE SDN BHD'],
  ])('punctuation spacing: %s → %s', (raw, expected) => {
    expect(normalisePunctuationSpacing(raw)).toBe(expected);
  });

  it('skips a document title whose words the OCR ran together', () => {
    const header = extractSupplierHeader(
      textRows(['SIMPLIFIEDTAXINVOICE', 'SIN THYE & COMPANY', 'NO 12 JALAN BESAR', '43000 KAJANG', 'TEL: 03-8736 1234']),
    );
    expect(header.name?.value).toBe('SIN THYE & COMPANY');
    expect(header.address?.value).toBe('NO 12 JALAN BESAR 43000 KAJANG');
  });
});
