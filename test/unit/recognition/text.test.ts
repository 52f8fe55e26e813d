import { describe, expect, it } from 'vitest';
import { oneSlipFrom } from '../../../lambdas/core/recognition/extract/text';

describe('a word one OCR slip from a vocabulary', () => {
  const words = ['INVOICE', 'RECEIPT', 'TOTAL'];

  it('is the word it was read for with a letter misread, lost or added, the first one listed', () => {
    expect(oneSlipFrom('INVOLCE', words)).toBe('INVOICE');
    expect(oneSlipFrom('RECEIT', words)).toBe('RECEIPT');
    expect(oneSlipFrom('TOTALL', words)).toBe('TOTAL');
    expect(oneSlipFrom('TOTAL', words)).toBe('TOTAL');
    expect(oneSlipFrom('TOTA', ['TOTAL', 'TOTAS'])).toBe('TOTAL');
  });

  it('is none two slips off, or, keeping the length, with a letter lost or added', () => {
    expect(oneSlipFrom('INVLCE', words)).toBeUndefined();
    expect(oneSlipFrom('RECEIT', words, { sameLength: true })).toBeUndefined();
    expect(oneSlipFrom('RECElPT', words, { sameLength: true })).toBe('RECEIPT');
  });
});
