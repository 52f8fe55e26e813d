import { describe, expect, it } from 'vitest';
import { correctMisreadWords, isEnglishWord, joinSplitWords, lookalikeWord } from '../../../lambdas/core/recognition/extract/lexicon';

describe('words of a name the OCR misread', () => {
  it.each([
    // One look-alike letter (F/P, M/N, C/G, C/O) away from exactly one common word.
    ['SFEED', 'SPEED'],
    ['NART', 'MART'],
    ['COMFANY', 'COMPANY'],
    ['GARRY', 'CARRY'], // C/G too
    ['NCODLE', 'NOODLE'], // and a C for an O
    ['MASIER', 'MASTER'], // last, and from five letters on: an I for a T that lost its bar
    ['THAI', undefined], // not THAT
    // Failing F/P and M/N, an F read for an E that lost its bottom bar…
    ['MASTFR', 'MASTER'],
    ['ROASTFD', 'ROASTED'],
    ['SHOF', 'SHOP'], // not SHOE: an F is a P first
    ['SUFFLY', undefined], // two letters off
    // …or a D read for an O whose curve closed flat.
    ['BODK', 'BOOK'],
    ['AMDUNT', 'AMOUNT'],
    ['KEDAI', undefined], // Malay for shop: no English word one D off
    // Known words, short words and non-words with no look-alike stay.
    ['MART', undefined],
    ['CAFE', undefined],
    ['PETA', undefined], // Malay; "FETA" is too rare a word to be a correction
    ['TRANS', undefined],
    ['SENG', undefined],
    ['NAM', undefined],
    ['AB12', undefined],
    ['', undefined],
  ])('look-alike of %s → %s', (token, expected) => {
    expect(lookalikeWord(token)).toBe(expected);
  });

  it.each([
    ['99 SFEED NART S/B', '99 SPEED MART S/B'],
    ['Fresh Nart, Kepong', 'Fresh Mart, Kepong'],
    ['sfeed cafe', 'speed cafe'],
    // A possessive name: the word before its 's.
    ["DONINO'S PIZZA", "DOMINO'S PIZZA"],
    ["Donino's Pizza", "Domino's Pizza"],
    // A capital lost at the start of a name printed in title case.
    ['imeless Kitchen Sdn Bhd', 'Timeless Kitchen Sdn Bhd'],
    ['rchard Bakery', 'Orchard Bakery'],
    ['ountain Cafe', 'ountain Cafe'], // fountain or mountain
    // Q before E or I is a G.
    ['Qerbang Alaf Sdn Bhd', 'Gerbang Alaf Sdn Bhd'],
    // An F between consonants in a word that is no English word is an E; a first F and English words stay.
    ['KEDAI GFMILANG', 'KEDAI GEMILANG'],
    ['LIM SFNG THO', 'LIM SENG THO'], // the word's only vowel was the E
    ['KFC', 'KFC'], // three consonants: an abbreviation
    ['FTSHBALL HOUSE', 'FTSHBALL HOUSE'],
    ['HALFWAY HOUSE', 'HALFWAY HOUSE'],
    ['QIANT MART', 'GIANT MART'],
    // Left alone: known words, brands and names that are not English, lower case inside a name, digits.
    ['QUALITY QATAR FOODS', 'QUALITY QATAR FOODS'],
    ['KEDAI PAPAN YEW CHUAN', 'KEDAI PAPAN YEW CHUAN'],
    ['TAMAN MINANG MART', 'TAMAN MINANG MART'],
    ['imeless kitchen', 'imeless kitchen'],
    ['SF33D MART', 'SF33D MART'],
    ['', ''],
  ])('%s → %s', (name, expected) => {
    expect(correctMisreadWords(name)).toBe(expected);
  });

  it('leaves the words read with high confidence as they are', () => {
    expect(correctMisreadWords('NIKE NART', new Set(['NIKE']))).toBe('NIKE MART');
    expect(correctMisreadWords('Qerbang imeless', new Set(['QERBANG']))).toBe('Qerbang imeless');
  });

  it('knows American and British spellings, in any case and with accents', () => {
    expect(isEnglishWord('centre')).toBe(true);
    expect(isEnglishWord('Center')).toBe(true);
    expect(isEnglishWord('CAFÉ')).toBe(true);
    expect(isEnglishWord('Sdn')).toBe(false);
  });
});

describe('joinSplitWords', () => {
  it('puts back together a word of a title-case name whose lower-case pieces were read apart', () => {
    expect(joinSplitWords('Ger b a ng Alaf Restaurants Sdn Bhd')).toBe('Gerbang Alaf Restaurants Sdn Bhd');
    // The small words such names print in lower case stay words of their own.
    expect(joinSplitWords('Bank of Asia and the Pacific')).toBe('Bank of Asia and the Pacific');
    expect(joinSplitWords('Anzel Advertising (M) Sdn bhd')).toBe('Anzel Advertising (M) Sdn bhd');
  });

  it('joins two pieces that make a common word together when one of them is none', () => {
    expect(joinSplitWords('SINNAT HAMBY HOL DINGS SDN. BHD.')).toBe('SINNAT HAMBY HOLDINGS SDN. BHD.');
    // Two words that are words on their own, or pieces that make no word, stay apart.
    expect(joinSplitWords('SUN RISE BOOK CENTRE')).toBe('SUN RISE BOOK CENTRE');
    expect(joinSplitWords('LIAN HING STATIONERY')).toBe('LIAN HING STATIONERY');
  });
});
