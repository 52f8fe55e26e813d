import { describe, expect, it } from 'vitest';
import { findDates, formatOfMatch, parseDate } from '../../../lambdas/core/recognition/extract/dates';
import { extractDates, matchPrintedWeekday, weekdayOf } from '../../../lambdas/core/recognition/extract/header';
import { looksLithuanian } from '../../../lambdas/core/recognition/extract/language';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import { textDocument, textRows } from './helpers';

describe('dates', () => {
  it.each([
    ['25/12/2018', '2018-12-25'],
    ['25-12-18', '2018-12-25'],
    ['25.12.2018', '2018-12-25'],
    ['Dec 25, 2018', '2018-12-25'],
    ['December 25 2018', '2018-12-25'],
    ['2018.12.25', '2018-12-25'],
    ['2018-12-25', '2018-12-25'],
    ['2018/12/25', '2018-12-25'],
    ['25 DEC 2018', '2018-12-25'],
    ['25-Dec-18', '2018-12-25'],
    ['25th December, 2018', '2018-12-25'],
    ['05 MAR 2018 18:24', '2018-03-05'],
    ['DATE: 13/03/2017 03:00:42PM', '2017-03-13'],
    ['LE 30/03/2018 A 12:36', '2018-03-30'],
    ['21/05/2018TIME: 10:00', '2018-05-21'],
    ['25 / 12 / 2018', '2018-12-25'],
    ['2018 m. gruodžio 25 d.', '2018-12-25'],
    ['2024 m. lapkričio 5 d.', '2024-11-05'],
    ['gruodžio 25, 2018', '2018-12-25'],
    ['2024 m. kovo 1 d.', '2024-03-01'],
    ['12 OGOS 2018', '2018-08-12'],
    ['9 MEI 2019', '2019-05-09'],
    ['12/31/2018', '2018-12-31'],
    // The OCR runs the year into the time, or reads the O of a month as a zero.
    ['25/12/20188:13:39 PM', '2018-12-25'],
    ['09/01/20198:01:11PM', '2019-01-09'],
    ['05Mar 201818:24', '2018-03-05'],
    ['27Mar201818:46', '2018-03-27'],
    [':10 0CT 2017 TUE', '2017-10-10'],
  ])('%s → %s', (text, iso) => {
    expect(parseDate(text)).toBe(iso);
  });

  it.each([
    ['32/12/2018'],
    ['12/05/201812345'],
    ['1/2/20181'],
    ['29/02/2019'],
    ['25/13/2018'],
    ['HA06HD01-3 - 70'],
    ['MC22-32 - 10/120'],
    ['Total 12.50'],
    ['Tel 03-5121 3881'],
    ['31 FOO 2018'],
    ['12:36:44'],
  ])('finds no date in %s', (text) => {
    expect(findDates(text)).toEqual([]);
  });

  it('accepts 29 February only in leap years', () => {
    expect(parseDate('29/02/2020')).toBe('2020-02-29');
    expect(parseDate('29/02/2021')).toBeUndefined();
  });

  it('reads ambiguous dates day first unless a format says otherwise', () => {
    const [d] = findDates('03/04/2024');
    expect(d).toMatchObject({ iso: '2024-04-03', ambiguous: true, order: 'DMY' });
    expect(parseDate('03/04/2024', { format: 'MM/DD/YYYY' })).toBe('2024-03-04');
    expect(parseDate('03/04/2024', { format: 'DD/MM/YYYY' })).toBe('2024-04-03');
    expect(parseDate('03/04/2024', { defaultOrder: 'MDY' })).toBe('2024-03-04');
    // A known day-first or month-first format settles the order; a year-first one does not.
    expect(findDates('03/04/2024', { format: 'DD/MM/YYYY' })[0]).toMatchObject({ iso: '2024-04-03', ambiguous: false });
    expect(findDates('03/04/2024', { format: 'MM/DD/YYYY' })[0]).toMatchObject({ iso: '2024-03-04', ambiguous: false });
    expect(findDates('03/04/2024', { format: 'YYYY-MM-DD' })[0]).toMatchObject({ ambiguous: true });
    // An unambiguous date ignores the preference.
    expect(parseDate('25/12/2018', { format: 'MM/DD/YYYY' })).toBe('2018-12-25');
    expect(parseDate('12/25/2018', { format: 'DD/MM/YYYY' })).toBe('2018-12-25');
  });

  it('reads a year-first format with two-digit years only when told', () => {
    expect(parseDate('18/12/25')).toBe('2025-12-18');
    expect(parseDate('18/12/25', { format: 'YYYY/MM/DD' })).toBe('2025-12-18');
    expect(parseDate('18.04.05', { format: 'YYYY-MM-DD' })).toBe('2005-04-18');
  });

  it('tells the printed format', () => {
    expect(formatOfMatch(findDates('2024-03-04')[0]!)).toBe('YYYY-MM-DD');
    expect(formatOfMatch(findDates('2024/03/04')[0]!)).toBe('YYYY/MM/DD');
    expect(formatOfMatch(findDates('13/03/2024')[0]!)).toBe('DD/MM/YYYY');
    expect(formatOfMatch(findDates('03/13/2024')[0]!)).toBe('MM/DD/YYYY');
    expect(formatOfMatch(findDates('13 March 2024')[0]!)).toBeUndefined();
  });

  it('finds several dates in order with their positions', () => {
    const ds = findDates('Issued 01.02.2024, due 2024-03-01');
    expect(ds.map((d) => d.iso)).toEqual(['2024-02-01', '2024-03-01']);
    expect(ds[0]!.raw).toBe('01.02.2024');
    expect(ds[1]!.index).toBe('Issued 01.02.2024, due '.length);
  });
});

describe("a document's currency settles the order of an ambiguous date", () => {
  const page = (total: string) => textDocument(['KEDAI RUNCIT MAJU', 'Date : 09/01/2019 8:01 PM', `TOTAL ${total}`]);

  it('reads it day first, as sure as an unambiguous date, in a day-first country\'s currency', () => {
    const ringgit = extractDocument(page('(RM) 9.00')).fields.issue_date!;
    const plain = extractDocument(textDocument(['KEDAI RUNCIT MAJU', 'Date : 25/01/2019 8:01 PM', 'TOTAL (RM) 9.00'])).fields.issue_date!;
    expect(ringgit.value).toBe('2019-01-09');
    expect(ringgit.confidence).toBe(plain.confidence);
  });

  it('keeps it doubtful in dollars or with no currency, unless the supplier\'s format is known', () => {
    const dollars = extractDocument(page('$9.00')).fields.issue_date!;
    const none = extractDocument(page('9.00')).fields.issue_date!;
    const known = extractDocument(page('9.00'), { dateFormat: 'DD/MM/YYYY' }).fields.issue_date!;
    expect(dollars.confidence).toBeLessThan(90);
    expect(none.confidence).toBeLessThan(90);
    expect(known.confidence).toBeGreaterThanOrEqual(90);
  });
});

describe("the seller's address settles the order of an ambiguous date where no currency does", () => {
  const date = (address: string[]) =>
    extractDocument(textDocument(['KEDAI RUNCIT MAJU SDN BHD', ...address, 'Date : 09/01/2019', 'TOTAL 9.00'])).fields.issue_date!;

  it('reads it day first, and as sure, for an address in Malaysia', () => {
    const malaysian = date(['NO 7, JALAN BESAR,', '47400 PJ']);
    expect(malaysian.value).toBe('2019-01-09');
    expect(malaysian.confidence).toBeGreaterThanOrEqual(90);
    expect(date(['LOT 3, 40300 SHAH ALAM, SELANGOR']).confidence).toBeGreaterThanOrEqual(90);
  });

  it('keeps it doubtful for five digits that only may be a Malaysian postcode', () => {
    expect(date(['5 MAIN STREET,', '20500 SPRINGFIELD']).confidence).toBeLessThan(90);
  });
});

describe("the sale's time stamp", () => {
  const issue = (lines: string[]) => extractDates(textRows(lines)).issue!;

  it('makes an unlabelled date followed by a time of day as sure as a labelled one', () => {
    const stamped = issue(['KEDAI RUNCIT MAJU', '25/12/2018 20:17:05  T1 R000020832', 'TOTAL 9.00']);
    const labelled = issue(['KEDAI RUNCIT MAJU', 'Date: 25/12/2018', 'TOTAL 9.00']);
    expect(stamped.value).toBe('2018-12-25');
    expect(stamped.confidence).toBe(labelled.confidence);
  });

  it('takes a time of day anywhere on the date\'s row, before it too', () => {
    const before = issue(['KEDAI RUNCIT MAJU', '07:49PM  563094  14-12-16', 'TOTAL 9.00']);
    expect(before.value).toBe('2016-12-14');
    expect(before.confidence).toBeGreaterThanOrEqual(90);
  });

  it('takes a time whose colon the print spaced', () => {
    expect(issue(['KEDAI RUNCIT MAJU', '28-04-18 15: 40 SH01 ZJ86  T3 R000064333', 'TOTAL 9.00']).confidence).toBeGreaterThanOrEqual(90);
  });

  it('leaves an unlabelled date without a time beside another date, or two time stamps of different days, less sure', () => {
    expect(issue(['KEDAI RUNCIT MAJU', '25/12/2018  T1 R000020832', 'TOTAL 9.00', 'VALID UNTIL 31/12/2019']).confidence).toBeGreaterThanOrEqual(90);
    expect(issue(['KEDAI RUNCIT MAJU', '25/12/2018  T1 R000020832', 'TOTAL 9.00', '31/12/2019']).confidence).toBeLessThan(90);
    expect(issue(['PARKING', '24/12/2018 09:49 - 25/12/2018 10:08', 'TOTAL 9.00']).confidence).toBeLessThan(90);
  });

  it('leaves a labelled date less sure when the date is printed again one character apart', () => {
    const stamps = ['20/06/2018 12:56 PM', 'TOTAL 85.20', '*** 20/06/2018 12:56 PM ***'];
    const apart = issue(['GH DISTRIBUTOR', 'Date : 20/05/2018 #1', ...stamps]);
    const agreed = issue(['GH DISTRIBUTOR', 'Date : 20/06/2018 #1', ...stamps]);
    expect(apart.value).toBe('2018-05-20');
    expect(agreed.confidence).toBeGreaterThanOrEqual(90);
    expect(apart.confidence).toBeCloseTo(agreed.confidence * 0.85, 1);
    // Another day printed beside it (a stay's first night, a previous visit) is no misread copy.
    expect(issue(['HOTEL', 'Date : 20/06/2018', 'ARRIVAL 17/06/2018 14:00', 'TOTAL 85.20']).confidence).toBe(agreed.confidence);
  });

  it('makes the only date a receipt prints as sure as a labelled one', () => {
    const labelled = issue(['KEDAI RUNCIT MAJU', 'Date: 14/04/2018', 'TOTAL 9.00']);
    expect(issue(['KEDAI RUNCIT MAJU', '14/04/2018', 'TOTAL 9.00']).confidence).toBe(labelled.confidence);
    expect(issue(['KEDAI RUNCIT MAJU', 'NO : CS-20243   14/04/2018', 'TOTAL 9.00', 'THANK YOU 14/04/2018']).confidence).toBe(labelled.confidence);
    // A day and month that may be swapped stay less sure.
    expect(issue(['KEDAI RUNCIT MAJU', '04/05/2018', 'TOTAL 9.00']).confidence).toBeLessThan(90);
  });

  it('takes the sale\'s stamp as sure beside dates without a time of day (validity, promotions)', () => {
    const stamped = issue(['PETROL STATION', '18-01-2018 15:44:46', 'TOTAL 9.00', '31/10/2020  30/11/2020']);
    expect(stamped.value).toBe('2018-01-18');
    expect(stamped.confidence).toBeGreaterThanOrEqual(90);
  });
});

describe('separators the OCR lost or misread', () => {
  it.each([
    // After a date label.
    [['RECEIPT#: CS0397 DATE: 15062018'], '2018-06-15'],
    [['DATE: 13707/2017'], '2017-07-13'],
    [['DATE: 13107/2017'], '2017-07-13'],
    [['Date 05 02-18'], '2018-02-05'],
    [['Date 05 -02-18'], '2018-02-05'],
    [['Date: 05- 02 -18'], '2018-02-05'],
    [['Date: 15,01/2018'], '2018-01-15'],
    [['Date: 15.01/2018'], '2018-01-15'],
    [['Date: 15:01:2018'], '2018-01-15'],
    [['Date: 15 - 01 - 2018'], '2018-01-15'],
    [['DATE: 13I07/2017'], '2017-07-13'],
    [['Date: 13l07/2017'], '2017-07-13'],
    // Either separator, with a two-digit year too.
    [['DATE: 12103/18'], '2018-03-12'],
    [['Date: 12/03118'], '2018-03-12'],
    // Letters for digits in a date with its separators: Z for 2, g for 9, b for 6, as well as O, l, I, S, B.
    [['Date: Z9-12-2017'], '2017-12-29'],
    [['Date: 09/01/Z0l9'], '2019-01-09'],
    [['DATE 0b/03/2018'], '2018-03-06'],
    [['29-12-Z017 13:05'], '2017-12-29'],
    // Letters for digits around a month name, labelled or not.
    [['15 JAN 2Ol8'], '2018-01-15'],
    [['Date: 15-JAN-l8'], '2018-01-15'],
    [['Date: l5 Jan 2018'], '2018-01-15'],
    // On a page with no other date, anywhere.
    [['TOTAL 5.00', '01:34PM 568017 05 02-18'], '2018-02-05'],
    [['TOTAL 5.00', '01:34PM 568017 05 -02-18'], '2018-02-05'],
    // Year first without separators after a date label ("DATE/TIME : 20180428/191204").
    [['DATE/TIME : 20180428/191204'], '2018-04-28'],
    // Of unlabelled dates, the sale's time stamp, not an article code shaped like a date.
    [['CURTAIN STRAPS *S', 'CK 11-22-31 - 10/400', 'TOTAL INCL RM 15.90', '19-09-17 15:39 SH01 ZJ03'], '2017-09-19'],
    // Wrong inputs: no date comes out of a number that is not one.
    [['DATE: 13797/2017'], undefined],
    [['DATE: 32/13118'], undefined],
    [['DATE: 45 02-18'], undefined],
    [['TIME: 15:01:20'], undefined],
    [['SO JAN ST'], undefined],
    [['INVOICE 1234 5678-90'], undefined],
  ])('%j → %s', (lines, iso) => {
    expect(extractDates(textRows(lines)).issue?.value).toBe(iso);
  });

  it('takes a label only as whole words: a word that holds "due" labels no due date', () => {
    const read = (label: string) => extractDates(textRows([label, '02-03-18 17:23 SH01 ZJ42']));
    expect(read('Duey')).toEqual({ issue: expect.objectContaining({ value: '2018-03-02' }) });
    expect(read('Residue')).toEqual({ issue: expect.objectContaining({ value: '2018-03-02' }) });
    expect(read('Due:').due?.value).toBe('2018-03-02');
  });

  it('leaves a page that has a date as it is', () => {
    expect(extractDates(textRows(['05 02-18', 'DATE: 06/03/2018'])).issue?.value).toBe('2018-03-06');
  });
});

describe('a printed weekday corrects a misread date', () => {
  it.each([
    ['Friday', 5],
    ['FRI', 5],
    ['Fridv,', 5],
    ['sekmadienis', 0],
    ['Šeštadienis', 6],
    ['SABTU', 6],
    ['WEDNESDAV', 3],
    ['Fr', undefined],
    ['MONTH', undefined],
    ['Sunway', undefined],
    ['', undefined],
  ])('weekdayOf(%j) = %s', (word, day) => {
    expect(weekdayOf(word)).toBe(day);
  });

  const first = (text: string) => matchPrintedWeekday(text, findDates(text)[0]!).iso;
  it.each([
    // 29-12-2017 was a Friday; "20" is the one confusable reading that is not.
    ['Friday, 20-12-2017 Time : 20:17', '2017-12-29'],
    ['Fridv, 20-12-2017', '2017-12-29'],
    ['20/12/2017 FRI', '2017-12-29'],
    // Already on its weekday: kept.
    ['Friday, 29-12-2017', '2017-12-29'],
    // No weekday next to the date: kept as read.
    ['Friday offer! Date 20-12-2017 Time 10:00', '2017-12-20'],
    // Several variants fit the weekday: left as read rather than guessed.
    ['Thursday 11/11/2021', '2021-11-11'],
    // Month names are not digits to confuse.
    ['Monday 25 Dec 2018', '2018-12-25'],
  ])('%s → %s', (text, iso) => {
    expect(first(text)).toBe(iso);
  });
});

describe('Lithuanian pages are recognised for a second OCR reading', () => {
  it.each([
    ['UAB "Maxima LT" PVM kodas LT123456715', true],
    ['KVITAS Nr. 123 Suma 12,00 Moketi', true],
    ['Iš viso: 12,00 EUR', true],
    ['ąžuolas ir PVM', true],
    ['SUMA 12.00', false],
    ['DATA 2018-01-01 TOTAL 10.00', false],
    ['GST ID: 001661886464 TOTAL 10.00 SDN BHD', false],
    ['', false],
  ])('%s → %s', (text, yes) => {
    expect(looksLithuanian(text)).toBe(yes);
  });
});

describe('a printed weekday settles the order of an ambiguous date', () => {
  const issue = (lines: string[]) => extractDates(textRows(lines)).issue!;

  it('reads the order that falls on the weekday, as sure as an unambiguous date', () => {
    const may = issue(['KEDAI RUNCIT MAJU', 'Rabu, 10-05-2017  Time : 21:51', 'TOTAL 9.00']);
    expect(may.value).toBe('2017-05-10');
    expect(may.confidence).toBeGreaterThanOrEqual(90);
    // Thursday is 5 October 2017: the month comes first here.
    expect(issue(['KEDAI RUNCIT MAJU', 'Thursday 10-05-2017  21:51', 'TOTAL 9.00']).value).toBe('2017-10-05');
  });

  it('keeps the date ambiguous where the weekday fits neither order', () => {
    expect(issue(['KEDAI RUNCIT MAJU', 'Monday 10-05-2017  21:51', 'TOTAL 9.00']).confidence).toBeLessThan(90);
  });
});
