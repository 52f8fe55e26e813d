import { describe, expect, it } from 'vitest';
import { alignCaseless, closestSpan, printedCase } from '../../../scripts/recogniser-training/export-lines';

describe('training labels for the recogniser', () => {
  it('aligns two readings with case ignored', () => {
    expect(alignCaseless('TEL:', 'Tel:')).toEqual({ distance: 0, pairs: [0, 1, 2, 3] });
    expect(alignCaseless('OPERATOR', 'OPLRATUR').distance).toBe(2);
    expect(alignCaseless('ABC', 'AC').pairs).toEqual([0, -1, 1]);
  });

  it('labels a box with the whole annotated words its reading is closest to', () => {
    const words = ['TOTAL', 'RM', '9.00'];
    expect(closestSpan(words, '9.0O')).toEqual({ label: '9.00', distance: 1 });
    expect(closestSpan(words, 'TOTALRM')).toEqual({ label: 'TOTAL RM', distance: 0 });
    expect(closestSpan(['Tel:', '03-1234'], 'TEL:03-1234')).toEqual({ label: 'Tel: 03-1234', distance: 0 });
  });

  it('gives capitals-only labels the case the page prints, letter by letter', () => {
    expect(printedCase('TEL: 603-79859377 FAX NO: 03-79807585', 'Tel: 603-79859377 Fax no: 03-79807585')).toBe(
      'Tel: 603-79859377 Fax no: 03-79807585',
    );
    // A misread letter takes the case of the letter read there; a digit read for a letter, the case before it.
    expect(printedCase('(CO REG : 750441-W)', '(C0 Reg:750441-W)')).toBe('(CO Reg : 750441-W)');
    expect(printedCase('JOHOR BAHRU', 'JOHOR BAHRu')).toBe('JOHOR BAHRu');
  });

  it('keeps labels that have small letters, and readings in capitals, as annotated', () => {
    expect(printedCase('Date: 12/10/2017', 'DATE:12/10/2017')).toBe('Date: 12/10/2017');
    expect(printedCase('DATE: 12/10/2017', 'DATE:12/10/2017')).toBe('DATE: 12/10/2017');
  });
});
