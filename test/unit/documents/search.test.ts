import { describe, expect, it } from 'vitest';
import {
  bucketOf,
  documentSearchBuckets,
  documentSearchWords,
  matchesSearch,
  numberWords,
  MAX_SEARCH_BUCKETS,
  planSearch,
  searchTokenString,
  searchWords,
} from '../../../lambdas/core/documents/search';

const doc = (counterparty_name: string, document_number: string, original_file_name: string) => ({ counterparty_name, document_number, original_file_name });

describe('document search tokenisation', () => {
  it('cuts text into distinct lower-case words without accents or punctuation', () => {
    expect(searchWords('  ŽALGIRIO Arena, UAB ')).toEqual(['zalgirio', 'arena', 'uab']);
    expect(searchWords('INV-2024/00123')).toEqual(['inv', '2024', '00123']);
    expect(searchWords('Čiurlionio g. 5 — čiurlionio')).toEqual(['ciurlionio', 'g', '5']);
    expect(searchWords('scan_01.PDF')).toEqual(['scan', '01', 'pdf']);
    expect(searchWords('')).toEqual([]);
    expect(searchWords('x'.repeat(100))[0]).toHaveLength(40);
  });

  it('indexes the counterparty, the number and the file name under the first three letters of each word', () => {
    const d = doc('MAXIMA LT, UAB', 'INV-129', 'maxima-kvitas.pdf');
    // The number also as one word without its signs (inv129).
    expect(documentSearchWords(d)).toEqual(['maxima', 'lt', 'uab', 'inv129', 'inv', '129', 'kvitas', 'pdf']);
    // Fields take turns; words shorter than a bucket have none (a search never reads one).
    expect(documentSearchBuckets(d)).toEqual(['max', 'inv', 'uab', 'kvi', '129', 'pdf']);
    expect(searchTokenString(d)).toBe(' maxima lt uab inv129 inv 129 kvitas pdf');
    expect(bucketOf('ab')).toBe('ab');
  });

  it('keeps a document to a bounded number of buckets', () => {
    const d = doc('Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett', 'N-1', 'file.pdf');
    expect(documentSearchBuckets(d)).toHaveLength(MAX_SEARCH_BUCKETS);
    expect(documentSearchBuckets(d)[0]).toBe('alp');
    // A long supplier name never pushes the number or the file name out.
    const long = doc('Tam Day Restaurant Sdn Bhd Kedai Makanan Dan Minuman Seri Kembangan', 'INV-2024-0042', 'smoke-mwwetyfj.jpg');
    const buckets = documentSearchBuckets(long);
    expect(buckets).toHaveLength(MAX_SEARCH_BUCKETS);
    for (const term of ['smoke-mwwetyfj.jpg', 'mwwetyfj', 'INV-2024-0042', 'restaurant']) expect(buckets, term).toContain(planSearch(term)!.bucket);
    // Same-bucket words give one bucket.
    expect(documentSearchBuckets(doc('Maxi Maxima Max', '', ''))).toEqual(['max']);
  });

  it('finds a document number typed without its signs or spaces', () => {
    expect(numberWords('LT-123')).toEqual(['lt123', 'lt', '123']);
    expect(numberWords('SE 77')).toEqual(['se77', 'se', '77']);
    expect(numberWords('2025/17')).toEqual(['202517', '2025', '17']);
    expect(numberWords('12345')).toEqual(['12345']);
    expect(numberWords('')).toEqual([]);
    for (const [number, term] of [['LT-123', 'LT123'], ['LT-123', 'lt12'], ['SE 77', 'SE77'], ['2025/17', '202517'], ['INV-2025/18', 'inv202518'], ['LT-123', 'LT-123'], ['LT-123', 'lt 123']]) {
      const d = doc('Supplier', number!, 'file.pdf');
      expect(matchesSearch(d, planSearch(term!)!.words), `${number} ${term}`).toBe(true);
      // The bucket the term reads is one the document is indexed under.
      expect(documentSearchBuckets(d), `${number} ${term}`).toContain(planSearch(term!)!.bucket);
    }
    expect(matchesSearch(doc('Supplier', 'LT-123', 'file.pdf'), planSearch('LT1234')!.words)).toBe(false);
  });

  it('plans a term: the bucket of its longest word, every word as a prefix', () => {
    expect(planSearch('  Maxima ')).toEqual({ bucket: 'max', words: ['maxima'] });
    expect(planSearch('ma UAB')).toEqual({ bucket: 'uab', words: ['ma', 'uab'] });
    expect(planSearch('inv-129')).toEqual({ bucket: 'inv', words: ['inv', '129'] });
    expect(planSearch('Žalg')).toEqual({ bucket: 'zal', words: ['zalg'] });
    // Nothing of three letters: no bucket (the list falls back to a substring filter).
    expect(planSearch('ab 1')).toBeUndefined();
    expect(planSearch('  ')).toBeUndefined();
    expect(planSearch('--')).toBeUndefined();
  });

  it('matches when every word of the term starts a word of the document', () => {
    const d = doc('MAXIMA LT, UAB', 'INV-1290', 'scan.pdf');
    for (const term of ['maxima', 'MAX', 'max uab', 'inv-129', '1290', 'sca', 'lt maxi']) expect(matchesSearch(d, planSearch(term)?.words ?? searchWords(term)), term).toBe(true);
    for (const term of ['axima', 'maxima rimi', '2901', 'scanner', 'invoice']) expect(matchesSearch(d, planSearch(term)!.words), term).toBe(false);
  });
});

describe('amounts, company codes and VAT IDs', () => {
  const full = (over: Partial<Record<'counterparty_name' | 'document_number' | 'original_file_name' | 'total' | 'counterparty_code' | 'counterparty_vat_id', string>> = {}) => ({
    counterparty_name: 'UAB Vilniaus vandenys',
    document_number: 'VV 1234567',
    original_file_name: 'saskaita.pdf',
    total: '123.45',
    counterparty_code: '120512345',
    counterparty_vat_id: 'LT205123456',
    ...over,
  });
  /** Does the term find the document: every word starts a word of it, and the bucket read is one of its buckets. */
  const finds = (d: Parameters<typeof documentSearchBuckets>[0], term: string) => {
    const plan = planSearch(term);
    const words = plan?.words ?? searchWords(term);
    return matchesSearch(d, words) && (plan === undefined || documentSearchBuckets(d).includes(plan.bucket));
  };

  it('reads a typed amount as one word, with a comma or a point, with or without thousands groups', () => {
    for (const term of ['123,45', '123.45', '-123,45', '123,45 €', '(123.45)']) expect(planSearch(term), term).toEqual({ bucket: '123', words: ['123.45'] });
    for (const term of ['1 234,56', '1\u00a0234,56', '1\u202f234.56', '1.234,56', '1,234.56', '1234.56', '1234,56', '01234,56']) {
      expect(planSearch(term), term).toEqual({ bucket: '123', words: ['1234.56'] });
    }
    expect(planSearch('12 345 678,9')).toEqual({ bucket: '123', words: ['12345678.9'] });
    // Thousands groups without decimals are the whole number; a third digit after a point or comma is a group.
    for (const term of ['1 234', '1.234', '1,234']) expect(planSearch(term), term).toEqual({ bucket: '123', words: ['1234'] });
    expect(planSearch('0,5')).toEqual({ bucket: '0.5', words: ['0.5'] });
    // Not an amount: a date, digits inside a word, a run that goes on.
    expect(planSearch('2024.01.15')).toEqual({ bucket: '202', words: ['20240115'] });
    expect(planSearch('v1.2 max')).toEqual({ bucket: 'max', words: ['v1', '2', 'max'] });
  });

  it('finds a total by its amount and its start, never by its cents alone', () => {
    const d = full({ total: '123.45', document_number: 'SF-9' });
    for (const term of ['123,45', '123.45', '123,4', '123', '12', '1', 'vandenys 123,45']) expect(finds(d, term), term).toBe(true);
    for (const term of ['45', ',45', '23,45', '123,46', '1234', '123,456', '12 345']) expect(finds(d, term), term).toBe(false);
    // Totals are indexed with two decimals: 45 finds 45.00; 123,5 finds 123.50 to 123.59.
    expect(finds(full({ total: '45' }), '45')).toBe(true);
    expect(finds(full({ total: '45' }), '45,00')).toBe(true);
    expect(finds(full({ total: '123.5' }), '123,50')).toBe(true);
    expect(finds(full({ total: '123.55' }), '123,5')).toBe(true);
    // A credit note by its absolute value; thousands typed any way.
    for (const term of ['77,70', '-77,70', '77.7']) expect(finds(full({ total: '-77.70' }), term), term).toBe(true);
    for (const term of ['1 234,56', '1.234,56', '1,234.56', '1234.56', '1 234', '1234']) expect(finds(full({ total: '1234.56' }), term), term).toBe(true);
    // A total that is not a valid amount has no word.
    expect(documentSearchWords(full({ total: '12,3x' }))).not.toContain('12.3');
    expect(documentSearchWords(full({ total: '-1234.5' }))[0]).toBe('1234.50');
  });

  it('finds the counterparty by its company code and VAT ID with or without spaces and signs, in any case', () => {
    const d = full();
    for (const term of ['120512345', '120 512 345', '1205', 'LT205123456', 'lt205123456', 'LT 205123456', 'lt 2051 2345 6', 'LT-205-123-456', '205123456', 'lt2051']) {
      expect(finds(d, term), term).toBe(true);
    }
    for (const term of ['120512346', 'LT205123457', 'ee205123456', '512345']) expect(finds(d, term), term).toBe(false);
    // A VAT ID is read as one word from five digits on; "lt 123" stays two words (a number LT-123 is found by them).
    expect(planSearch('lt 1234')?.words).toEqual(['lt', '1234']);
    expect(planSearch('lt 12345')?.words).toEqual(['lt12345']);
    expect(finds(full({ document_number: 'LT-123' }), 'lt 123')).toBe(true);
  });

  it('finds every start of a VAT ID and of an amount as it is typed, one more letter only narrowing', () => {
    const d = full({ total: '1234.56', counterparty_vat_id: 'LT100001234567' });
    const typed = (text: string) => Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1)).filter((t) => t.trim());
    for (const term of [...typed('lt 1000 0123 4567'), ...typed('1234,56'), ...typed('1 234,56').filter((t) => !['1 2', '1 23'].includes(t))]) {
      expect(finds(d, term), term).toBe(true);
    }
  });

  it('finds a number or file name with points or commas as it is written', () => {
    const d = { counterparty_name: 'Tiekėjas', document_number: 'SF 12.05', original_file_name: 'scan 2024.01.15 nr 2025/17.pdf' };
    for (const term of ['12.05', '12,05', '12 05', '2024.01', '01.15', '2024.01.15', '2024-01-15', '01-15', '2025/17', '2025-17', '202517']) {
      expect(finds(d, term), term).toBe(true);
    }
  });

  it('gives the total, the code and the VAT ID a bucket each, and keeps the name, number and file name in the index', () => {
    const d = full();
    const buckets = documentSearchBuckets(d);
    expect(buckets.length).toBeLessThanOrEqual(MAX_SEARCH_BUCKETS);
    // Every field takes a turn: name, number, total, code, VAT ID, file name, then the second word of each, …; the VAT
    // ID without its country prefix last.
    expect(buckets).toEqual(['uab', 'vv1', '123', '120', 'lt2', 'sas', 'vil', 'pdf', 'van', '205']);
    // The third word of the name still has its bucket with all six fields filled.
    for (const term of ['vandenys', 'vilniaus', 'saskaita', '1234567', 'VV1234567', '123,45', '120512345', 'LT205123456']) expect(finds(d, term), term).toBe(true);
    // A long name does not push the identifiers out.
    const long = full({ counterparty_name: 'Tam Day Restaurant Sdn Bhd Kedai Makanan Dan Minuman Seri Kembangan' });
    for (const term of ['123,45', '120512345', 'LT205123456', 'VV1234567', 'saskaita', 'restaurant']) expect(finds(long, term), term).toBe(true);
    // The words of a document: the identifiers first, never cut by the word limit.
    expect(searchTokenString(d)).toBe(' 123.45 120512345 lt205123456 205123456 uab vilniaus vandenys vv1234567 vv 1234567 saskaita pdf');
  });
});
