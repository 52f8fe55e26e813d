import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import { extractDates, extractDocumentId } from '../../../lambdas/core/recognition/extract/header';
import type { OcrDocument } from '../../../lambdas/core/recognition/types';
import { textDocument, textRows } from './helpers';

/** The header fields of a typed page, its words taken as written (a PDF's text layer). */
function headerOf(doc: OcrDocument): Record<string, string | undefined> {
  const { fields } = extractDocument(doc, { exactText: true });
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.value]));
}

/** A typed page whose last word on the line `line` is printed `scale` times as high (a title, a logo). */
function withLargeLastWord(lines: string[], line: number, scale: number): OcrDocument {
  const doc = textDocument(lines);
  const w = doc.pages[0]!.lines[line]!.words.at(-1)!;
  w.box = { ...w.box, height: w.box.height * scale };
  return doc;
}

describe('a party block beside the invoice details', () => {
  it('ends at the second column on its lines: the details at the right are no name', () => {
    const doc = textDocument([
      'PVM SĄSKAITA FAKTŪRA',
      'Pardavėjas:                                  Serija SD Nr. 117',
      'MB „Skaitmeninė dirbtuvė“                    Išrašymo data: 2026-11-25',
      'Įmonės kodas: 306123456                      Apmokėti iki: 2026-12-09',
      'Ąžuolyno g. 12-3, LT-49312 Kaunas            Užsakymo Nr.: PO-5531',
      'Pirkėjas:',
      'UAB „Ąžuolo baldai“',
      'Įmonės kodas: 305555111',
    ]);
    const f = headerOf(doc);
    expect(f.supplier_name).toBe('MB „Skaitmeninė dirbtuvė“');
    expect(f.supplier_code).toBe('306123456');
    expect(f.customer_name).toBe('UAB „Ąžuolo baldai“');
    expect(f.customer_code).toBe('305555111');
  });

  const wide = ' '.repeat(37);
  it.each([
    ['an invoice number', wide, 'Invoice no.:   SD-2026-117'],
    ['a place to ship to', wide, 'Ship to:'],
    ['a date', wide, 'Invoice date:   2026-11-25'],
    ['an invoice number run close to it', ' ', 'Invoice no.: SD-2026-117'],
  ])("takes %s on the label's row for no buyer's name", (_, gap, right) => {
    const doc = textDocument(['MB Skaitmenine dirbtuve', '', `Bill to:${gap}${right}`, 'UAB Azuolo baldai', 'Pramones pr. 16, Kaunas']);
    expect(headerOf(doc).customer_name).toBe('UAB Azuolo baldai');
  });

  it.each(['INVOICE', 'DATENWERK'])("takes %s, a title or a logo printed far larger on the label's row, for no buyer's name", (title) => {
    const doc = withLargeLastWord(['Datenwerk Solutions GmbH', '', `Bill to:                                     ${title}`, 'UAB Baltijos duomenys', 'Konstitucijos pr. 7'], 2, 2);
    expect(headerOf(doc).customer_name).toBe('UAB Baltijos duomenys');
  });

  it.each(['Data Solutions UAB', 'SF Express Ltd', 'Invoice Ninja Ltd'])('keeps %s, a name that opens with a word of such labels, for the name', (name) => {
    const doc = textDocument(['ACME LTD', '', 'Bill to:                                     Invoice no.:   SD-2026-117', name, 'Pramones pr. 16, Kaunas']);
    expect(headerOf(doc).customer_name).toBe(name);
  });

  it("keeps the party's own label and value pairs after a wide gap in its block", () => {
    const doc = textDocument(['Pardavėjas:', 'UAB Pavyzdys', 'Įmonės kodas: 306123456      Tel. +370 612 34567', 'Gedimino pr. 1, Vilnius']);
    const f = headerOf(doc);
    expect(f.supplier_name).toBe('UAB Pavyzdys');
    expect(f.supplier_code).toBe('306123456');
  });
});

describe('dates named for something else than the invoice', () => {
  it.each([
    ['Užsakymo data:', '2026-11-02', 'Data:'],
    ['Prekių pristatymo data:', '2026-11-18', 'Data:'],
    ['Order date:', '2026-11-02', 'Date:'],
    ['Delivery date:', '2026-11-18', 'Date:'],
    ['Contract date:', '2026-10-01', 'Date:'],
  ])('"%s" printed first is not the issue date, even beside a bare "Date"', (other, date, issueLabel) => {
    const { issue } = extractDates(textRows(['UAB ZALIAS LAPAS', `${other} ${date}`, `${issueLabel} 2026-11-25`]));
    expect(issue?.value).toBe('2026-11-25');
  });

  it('lets a label that names the invoice win over a bare "Date" printed first', () => {
    expect(extractDates(textRows(['UAB ZALIAS LAPAS', 'Data: 2026-11-20', 'Sąskaitos data: 2026-11-25'])).issue?.value).toBe('2026-11-25');
    expect(extractDates(textRows(['ACME LTD', 'Date: 2026-11-20', 'Invoice date: 2026-11-25'])).issue?.value).toBe('2026-11-25');
  });
});

describe("a credit note's date beside the corrected invoice's", () => {
  const sure = extractDates(textRows(['UAB ZALIAS LAPAS', 'Data: 2026-01-15'])).issue!.confidence;

  it.each([
    ['Koreguojama sąskaita Nr. SD-117, 2026-01-10', 'Data: 2026-01-15'],
    ['Kredituojama PVM sąskaita faktūra SD-117 2026-01-10', 'Išrašymo data: 2026-01-15'],
    ['Relating to invoice INV-117 of 2026-01-10', 'Date: 2026-01-15'],
    ['Original invoice date: 2026-01-10', 'Date: 2026-01-15'],
    ['zur Rechnung Nr. RE-117 vom 10.01.2026', 'Datum: 15.01.2026'],
    ['Korekta do faktury nr FV/117 z dnia 10.01.2026', 'Data wystawienia: 15.01.2026'],
  ])('"%s" names the corrected invoice\'s date, no issue date of the credit note', (corrected, own) => {
    const { issue } = extractDates(textRows(['UAB ZALIAS LAPAS', 'KREDITINĖ PVM SĄSKAITA FAKTŪRA', corrected, own]));
    expect([issue?.value, issue?.confidence]).toEqual(['2026-01-15', sure]);
  });

  it("takes the credit note's unlabelled date under the title, not the corrected invoice's printed above it", () => {
    const { issue } = extractDates(textRows(['UAB ZALIAS LAPAS', 'KREDITINĖ PVM SĄSKAITA FAKTŪRA', 'Koreguojama sąskaita Nr. SD-117, 2025-12-20', '2026-01-15']));
    expect(issue?.value).toBe('2026-01-15');
  });

  it('keeps an invoice date printed in a column of its own beside the reference', () => {
    const { issue } = extractDates(textRows(['UAB ZALIAS LAPAS', 'Koreguojama sąskaita Nr. SD-117             Data: 2026-01-15']));
    expect(issue?.value).toBe('2026-01-15');
  });
});

describe('due-date labels as suppliers print them', () => {
  it.each(['Mokėti iki:', 'Sumokėti iki:', 'Apmokėti per:', 'Apmokėjimo data:', 'Payment date:', 'Payment deadline:', 'Pay before:', 'Termin płatności:', 'Apmaksas termiņš:'])(
    '"%s" labels the due date, and the invoice date stays as sure',
    (label) => {
      const alone = extractDates(textRows(['UAB ZALIAS LAPAS', 'Sąskaitos data: 2026-11-25']));
      const { issue, due } = extractDates(textRows(['UAB ZALIAS LAPAS', 'Sąskaitos data: 2026-11-25', `${label} 2026-12-25`]));
      expect(due?.value).toBe('2026-12-25');
      expect(issue?.value).toBe('2026-11-25');
      // 2026-12-25 is one character from 2026-11-25: a due date not known as one made the issue date doubtful.
      expect(issue?.confidence).toBe(alone.issue?.confidence);
    },
  );

  it('is no issue date when printed before the invoice date', () => {
    const { issue, due } = extractDates(textRows(['UAB ZALIAS LAPAS', 'Apmokėjimo data: 2026-12-09', 'Data: 2026-11-25']));
    expect(issue?.value).toBe('2026-11-25');
    expect(due?.value).toBe('2026-12-09');
  });
});

describe("the buyer's identifiers in the invoice details", () => {
  const letter = (details: string) =>
    textDocument([
      '                                             Alpenmetall Handels GmbH',
      '                                             Industriestrasse 5, 4020 Linz',
      'UAB Baltijos duomenys                        Invoice no.   RE-2026-11873',
      `Konstitucijos pr. 7, Vilnius                 ${details}`,
      'Total   EUR 2,480.00',
      'Alpenmetall Handels GmbH  VAT ID: ATU12345678',
    ]);

  it.each(['Your VAT ID   LT305555119', 'Customer VAT no.   LT305555119', 'Pirkėjo PVM kodas   LT305555119'])(
    '"%s" is the buyer\'s VAT ID, never the seller\'s',
    (details) => {
      const f = headerOf(letter(details));
      expect(f.supplier_vat_id).toBe('ATU12345678');
      expect(f.customer_vat_id).toBe('LT305555119');
    },
  );

  it("takes no buyer's VAT ID for the seller's where the seller prints none", () => {
    const doc = textDocument(['Alpenmetall Handels GmbH', 'Invoice no.   RE-2026-11873', 'Your VAT ID   LT305555119', 'Total   EUR 2,480.00']);
    const f = headerOf(doc);
    expect(f.supplier_vat_id).toBeUndefined();
    expect(f.customer_vat_id).toBe('LT305555119');
  });

  it("takes the seller's unlabelled VAT ID past the buyer's marked one", () => {
    const doc = textDocument(['Alpenmetall Handels GmbH', 'Invoice no.   RE-2026-11873', 'Your VAT ID', 'LT305555119', 'Total   EUR 2,480.00', 'ATU12345678   Linz']);
    const f = headerOf(doc);
    expect(f.supplier_vat_id).toBe('ATU12345678');
    expect(f.customer_vat_id).toBe('LT305555119');
  });

  it("finds the seller's company code in the page's footer, under a long page", () => {
    const items = Array.from({ length: 26 }, (_, i) => `Item ${i + 1}   1   10.00`);
    const doc = textDocument(['UAB ZALIAS LAPAS', 'Gedimino pr. 1, Vilnius', ...items, 'Iš viso   260.00', 'UAB Žalias lapas, įmonės kodas 304512345']);
    expect(headerOf(doc).supplier_code).toBe('304512345');
  });

  it("takes the seller's unlabelled VAT ID printed after its name for its own", () => {
    const doc = textDocument(['UAB ZALIAS LAPAS', 'Gedimino pr. 1, Vilnius', 'Iš viso   260.00', 'UAB Žalias lapas LT119511515']);
    expect(headerOf(doc).supplier_vat_id).toBe('LT119511515');
  });

  it("takes no code marked as the buyer's for the seller's", () => {
    const doc = textDocument(['UAB ZALIAS LAPAS', 'Gedimino pr. 1, Vilnius', 'Pirkėjo kodas: 305555111', 'Iš viso   260.00']);
    expect(headerOf(doc).supplier_code).toBeUndefined();
  });
});

describe("a letter's window: the buyer's address under the seller's sender line", () => {
  const letter = (sender: string, window: string[]) =>
    textDocument([
      'ALPENMETALL',
      sender,
      '',
      ...window.map((l, i) => (i === 0 ? `${l.padEnd(46)}Rechnung Nr.  RE-2026-11873` : i === 1 ? `${l.padEnd(46)}Datum:        15.01.2026` : l)),
      '',
      'Gesamtbetrag:                                        14,40',
    ]);

  it.each([
    'Alpenmetall Handels GmbH · Industriestraße 5 · 4020 Linz',
    'Alpenmetall Handels GmbH | Industriestraße 5 | 4020 Linz',
    'Alpenmetall Handels GmbH - Industriestraße 5 - 4020 Linz',
  ])('takes the block under "%s" for the buyer, and the sender line for the seller', (sender) => {
    const f = headerOf(letter(sender, ['Baltijos duomenys UAB', 'Konstitucijos pr. 7', '08105 Vilnius', 'Litauen']));
    expect([f.customer_name, f.supplier_name, f.supplier_address]).toEqual(['Baltijos duomenys UAB', 'Alpenmetall Handels GmbH', 'Industriestraße 5, 4020 Linz']);
  });

  it('passes over a salutation line before the name', () => {
    const f = headerOf(letter('Alpenmetall Handels GmbH · Industriestraße 5 · 4020 Linz', ['Firma', 'Baltijos duomenys UAB', 'Konstitucijos pr. 7', '08105 Vilnius']));
    expect(f.customer_name).toBe('Baltijos duomenys UAB');
  });

  it('takes no buyer where the lines under the sender line end in no postcode and city', () => {
    const f = headerOf(letter('Alpenmetall Handels GmbH · Industriestraße 5 · 4020 Linz', ['Baltijos duomenys UAB', 'Konstitucijos pr. 7']));
    expect(f.customer_name).toBeUndefined();
  });
});

describe('document-number labels that name the invoice', () => {
  const numberOf = (line: string) => extractDocumentId(textRows(['UAB ZALIAS LAPAS', line]));
  const labelled = numberOf('Invoice No.: SF-2026-045')!.confidence;

  it.each([
    ['Sąskaitos faktūros Nr. SF-2026-045', 'SF-2026-045'],
    ['Sąskaita Nr. ZL-045', 'ZL-045'],
    ['Sąskaita faktūra Nr. 2026/045', '2026/045'],
  ])('reads "%s" as surely as after "Invoice No."', (line, value) => {
    expect(numberOf(line)?.value).toBe(value);
    expect(numberOf(line)?.confidence).toBe(labelled);
  });

  it.each([
    ['Invoice No. 45', '45'],
    ['PVM SF Nr. AB 45', 'AB 45'],
    ['Sąskaitos Nr. 7', '7'],
  ])('takes a short number right after such a label: "%s"', (line, value) => {
    expect(numberOf(line)?.value).toBe(value);
  });

  it('takes no short number after a bare "No", nor one printed apart from the label', () => {
    expect(numberOf('No. 45')).toBeUndefined();
    expect(numberOf('TABLE   No. 12')).toBeUndefined();
    expect(numberOf('TAX INVOICE NO                       47')).toBeUndefined();
  });
});
