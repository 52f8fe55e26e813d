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
