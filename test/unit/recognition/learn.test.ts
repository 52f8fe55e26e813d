import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { readyCheck } from '../../../lambdas/core/documents/content';
import { blocksToDocument, toAnalyzeExpenseResult } from '../../../lambdas/core/recognition/expense';
import { applyHintsToResult, applyLayout, confirmedDateOrder, hintFromStakeholder, learnLayout, selectHint } from '../../../lambdas/core/recognition/learn';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import type { AnalyzeExpenseResult, OcrWord, SupplierLayoutHint } from '../../../lambdas/core/recognition/types';
import { LAYOUT_DOCS, LAYOUT_SUPPLIER } from '../../fixtures/recognition/data';
import { textDocument } from './helpers';

const dir = join(import.meta.dirname, '../../fixtures/recognition');
const recogniser = new LocalRecogniser();
afterAll(() => recogniser.close());

const [doc1, doc2] = LAYOUT_DOCS as [(typeof LAYOUT_DOCS)[0], (typeof LAYOUT_DOCS)[0]];
const read = (file: string, hints?: SupplierLayoutHint[]) =>
  recogniser.analyzeExpense({ bytes: readFileSync(join(dir, file)), mime: 'application/pdf', fileName: file, ...(hints ? { hints } : {}) });
const wordsOf = (r: AnalyzeExpenseResult): OcrWord[] => blocksToDocument(r).pages.flatMap((p) => p.lines.flatMap((l) => l.words));

describe('learning a supplier layout from a confirmed document', { timeout: 60_000 }, () => {
  it('the plain extractor gets this layout wrong (the case the learner is for)', async () => {
    const f = mapExpenseToFields(await read(doc2.file));
    expect(f.document_id?.value).toBe(doc2.orderNo);
    expect(f.issue_date?.value).not.toBe(doc2.issueDate);
    expect(f.supplier_vat_id?.value).toBe(LAYOUT_SUPPLIER.vatId);
  });

  it('after one confirmed document, reads the next one of the same layout right', async () => {
    const r1 = await read(doc1.file);
    const plain1 = mapExpenseToFields(r1);
    // The person corrects the number and the date and confirms the rest.
    const confirmed = {
      supplier_name: plain1.supplier_name!.value,
      supplier_vat_id: plain1.supplier_vat_id!.value,
      document_id: doc1.ref,
      issue_date: doc1.issueDate,
      amount_total: plain1.amount_total!.value,
    };
    expect(confirmed.amount_total).toBe(doc1.total.toFixed(2));
    const hint = learnLayout(confirmed, wordsOf(r1));
    expect(hint.supplier).toEqual({ name: LAYOUT_SUPPLIER.name, vat_id: LAYOUT_SUPPLIER.vatId });
    expect(hint.dateFormat).toBe('MM/DD/YYYY');
    const docId = hint.fields.find((f) => f.field === 'document_id')!;
    expect(docId.labelWords).toEqual(['our', 'ref']);
    expect(docId.kind).toBe('code');

    // The layout alone, on the words of the next document.
    const r2plain = await read(doc2.file);
    const overrides = applyLayout(hint, wordsOf(r2plain));
    expect(overrides.document_id?.value).toBe(doc2.ref);
    expect(overrides.issue_date?.value).toBe(doc2.issueDate);
    expect(overrides.amount_total?.value).toBe(doc2.total.toFixed(2));
    expect(overrides.document_id!.box.top).toBeCloseTo(docId.box.top, 2);

    // Through the recogniser: the supplier's hint is picked among others and applied.
    const other: SupplierLayoutHint = { supplier: { vat_id: 'LT100001919017' }, fields: [{ field: 'document_id', page: 1, box: { left: 0.1, top: 0.1, width: 0.1, height: 0.01 }, labelWords: [], kind: 'code' }] };
    const f2 = mapExpenseToFields(await read(doc2.file, [other, hint]));
    expect([f2.document_id?.value, f2.issue_date?.value, f2.amount_total?.value]).toEqual([doc2.ref, doc2.issueDate, doc2.total.toFixed(2)]);
    // Fields the hint does not cover keep the extractor's values.
    expect(f2.supplier_vat_id?.value).toBe(LAYOUT_SUPPLIER.vatId);
  });

  it('does not apply another supplier\'s layout', async () => {
    const hint: SupplierLayoutHint = {
      supplier: { vat_id: 'LT100001919017', name: 'Someone Else UAB' },
      fields: [{ field: 'document_id', page: 1, box: { left: 0.6, top: 0.07, width: 0.1, height: 0.012 }, labelWords: ['order', 'no'], labelOffset: { dx: 0.1, dy: 0 }, kind: 'code' }],
    };
    const plain = mapExpenseToFields(await read(doc2.file));
    expect(selectHint([hint], plain)).toBeUndefined();
    const f = mapExpenseToFields(await read(doc2.file, [hint]));
    expect(f.document_id?.value).toBe(plain.document_id?.value);
  });

  it('reads ambiguous dates with the supplier\'s known date format from master data', async () => {
    const hint = hintFromStakeholder({ id: 's9', name: 'Harbor Freight', vat_id: LAYOUT_SUPPLIER.vatId, date_format: 'MM/DD/YYYY' });
    expect(hint).toEqual({ supplier: { id: 's9', name: 'Harbor Freight', vat_id: LAYOUT_SUPPLIER.vatId }, dateFormat: 'MM/DD/YYYY', fields: [] });
    const f = mapExpenseToFields(await read(doc2.file, [hint]));
    expect(f.issue_date?.value).toBe(doc2.issueDate);
    expect(f.document_id?.value).toBe(doc2.orderNo);
  });

  it('falls back to the position when the label is gone', () => {
    const first = textDocument(['ACME TRADING', '', 'Inv 4471-A          12.03.2024', '', 'TOTAL               99.10']);
    const hint = learnLayout({ document_id: '4471-A', issue_date: '2024-03-12' }, first.pages[0]!.lines.flatMap((l) => l.words));
    const next = textDocument(['ACME TRADING', '', '    5120-B          02.04.2024', '', 'TOTAL               15.00']);
    const o = applyLayout(hint, next.pages[0]!.lines.flatMap((l) => l.words));
    expect(o.document_id?.value).toBe('5120-B');
    expect(o.issue_date?.value).toBe('2024-04-02');
  });

  /** Words at (left, top) in page fractions, 1.2 % of the page high, about 1 % wide per character. */
  const at = (text: string, left: number, top: number): OcrWord => ({ text, box: { left, top, width: text.length * 0.01, height: 0.012 }, confidence: 95, page: 1 });

  it('reads a learnt name from its own row, not together with a tightly printed row under it', () => {
    const page = (vat: string) => [at('ACME', 0.08, 0.05), at('TRADING', 0.13, 0.05), at('UAB', 0.21, 0.05), at('VAT', 0.08, 0.065), at('ID:', 0.12, 0.065), at(vat, 0.16, 0.065)];
    const hint = learnLayout({ supplier_name: 'ACME TRADING UAB' }, page('LT119511515'));
    expect(hint.fields.map((f) => [f.field, f.labelWords])).toEqual([['supplier_name', []]]);
    expect(applyLayout(hint, page('LT100001919017')).supplier_name?.value).toBe('ACME TRADING UAB');
  });

  it('does not take a number printed above a value for its label', () => {
    const words = [at('VAT', 0.08, 0.2), at('21%', 0.12, 0.2), at('217.01', 0.85, 0.2), at('Total', 0.08, 0.215), at('due:', 0.14, 0.215), at('1,250.40', 0.83, 0.215)];
    const hint = learnLayout({ amount_total: '1250.40' }, words);
    // The label is the words before the value on its row, however far to the left (not the 217.01 above).
    expect(hint.fields).toEqual([expect.objectContaining({ field: 'amount_total', labelWords: ['total', 'due'], kind: 'amount' })]);
    const alone = [at('217.01', 0.85, 0.2), at('1,250.40', 0.83, 0.215)];
    expect(learnLayout({ amount_total: '1250.40' }, alone).fields).toEqual([expect.objectContaining({ field: 'amount_total', labelWords: [], kind: 'amount' })]);
  });

  it("learns a tax printed after its rate as that amount, not the rate, and never reads a code's digits for it", () => {
    const invoice = (tax: string) => [
      at('VAT', 0.08, 0.12),
      at('code', 0.12, 0.12),
      at('LT100002222222', 0.17, 0.12),
      at('Subtotal', 0.6, 0.62),
      at('100.00', 0.8, 0.62),
      at('VAT', 0.6, 0.64),
      at('21%', 0.64, 0.64),
      at(tax, 0.8, 0.64),
    ];
    const hint = learnLayout({ amount_tax: '21.00' }, invoice('21.00'));
    // The value is 21.00 (the rate 21% before it is part of its label), printed with decimals
    expect(hint.fields).toEqual([expect.objectContaining({ field: 'amount_tax', labelWords: ['vat', '21%'], decimals: true })]);
    expect(applyLayout(hint, invoice('24.15')).amount_tax?.value).toBe('24.15');
  });

  it('takes no learnt tax or net larger than the total (a layout learnt at the rate reads the VAT code line)', () => {
    const lines = (tax: string, total: string) => ['UAB POPIERIUS', 'VAT code LT100002222222', '', 'Subtotal                 100.00', `VAT 21%                   ${tax}`, `Total                    ${total}`];
    const next = textDocument(lines('24.15', '124.15'));
    const words = next.pages[0]!.lines.flatMap((l) => l.words);
    const vat = words.filter((w) => w.text === 'VAT').pop()!;
    const rate = words.find((w) => w.text === '21%')!;
    // As layouts were learnt before amounts were looked for with their decimals: the value at the rate, labelled VAT
    const legacy: SupplierLayoutHint = {
      supplier: { vat_id: 'LT100002222222' },
      fields: [{ field: 'amount_tax', page: 1, box: rate.box, labelWords: ['vat'], labelOffset: { dx: rate.box.left - vat.box.left, dy: 0 }, kind: 'amount', value: '21.00' }],
    };
    expect(applyLayout(legacy, words).amount_tax?.value).toBe('100002222222.00');
    const extraction = extractDocument(next);
    const doubted = toAnalyzeExpenseResult(next, { ...extraction, fields: { ...extraction.fields, amount_tax: { ...extraction.fields.amount_tax!, confidence: 60 } } });
    expect(mapExpenseToFields(applyHintsToResult(doubted, [legacy])).amount_tax?.value).toBe('24.15');
  });

  const wordsOfLines = (lines: string[]) => textDocument(lines).pages[0]!.lines.flatMap((l) => l.words);

  /** A shop's receipt: its name, address and tax number on top, items, then its totals; `above` lines first. */
  const receipt = (o: { above?: string[]; name?: string; items: string[]; total: string; number: string }) =>
    wordsOfLines([
      ...(o.above ?? []),
      o.name ?? 'SANYU STATIONERY SHOP',
      'NO. 31G&33G, JALAN SETIA INDAH X',
      'U13/X 40170 SETIA ALAM',
      'GST ID No: 001531760640',
      ...o.items,
      'Total Sales Inclusive GST @6%      ' + o.total,
      'Discount                            0.00',
      'Total                              ' + o.total,
      'Round Adj                           0.00',
      'Final Total                        ' + o.total,
      `INV NO: ${o.number}`,
    ]);
  const NAME = 'SANYU STATIONERY SHOP';
  const ADDRESS = 'NO. 31G&33G, JALAN SETIA INDAH X U13/X 40170 SETIA ALAM';

  it('finds the supplier\'s own fields by their confirmed text wherever the next receipt prints them, never by position', () => {
    const first = receipt({ items: ['PEN                                14.90'], total: '14.90', number: 'CS-SA-0108558' });
    const hint = learnLayout({ supplier_name: NAME, supplier_address: ADDRESS, supplier_vat_id: '001531760640' }, first);
    expect(hint.fields.map((f) => [f.field, f.value])).toEqual([['supplier_name', NAME], ['supplier_address', ADDRESS], ['supplier_vat_id', '001531760640']]);
    // The next receipt prints two lines more on top, and its name is read with a slip: the confirmed texts are taken.
    const next = receipt({ above: ['WELCOME', '*** TAX INVOICE ***'], name: 'SANYU STATI0NERY SHOP', items: ['A4 PAPER                            3.30'], total: '3.30', number: 'CS-SA-0075638' });
    const o = applyLayout(hint, next);
    expect([o.supplier_name?.value, o.supplier_address?.value, o.supplier_vat_id?.value]).toEqual([NAME, ADDRESS, '001531760640']);
    expect(o.supplier_address!.box.height).toBeGreaterThan(o.supplier_name!.box.height * 2); // both address lines
    // A receipt that does not print them (another branch, another number) keeps what the extraction read.
    const other = wordsOfLines(['SANYU BOOKSTORE', 'JALAN KLANG LAMA', 'GST ID No: 001531760641', 'Total     9.00']);
    expect(applyLayout(hint, other)).toEqual({});
  });

  it('reads a total beside its whole label only, and not where it was when the label is gone', () => {
    const first = receipt({ items: ['PEN                                14.90'], total: '14.90', number: 'CS-SA-0108558' });
    // The content says where the total was read: on the Final Total row, not the item's row that prints it too.
    const finalRow = first.find((w) => w.text === 'Final')!;
    const hint = learnLayout({ amount_total: '14.90' }, first, { amount_total: { page: 1, box: { ...finalRow.box, left: 0.4, width: 0.1 } } });
    expect(hint.fields).toEqual([expect.objectContaining({ field: 'amount_total', labelWords: ['final', 'total'] })]);
    const next = receipt({ items: ['A4 PAPER                            3.30', 'PEN                                 5.00'], total: '8.30', number: 'CS-SA-0075638' });
    expect(applyLayout(hint, next).amount_total?.value).toBe('8.30');
    // Learnt at `Total`: not the end of `Final Total` or `Sub Total`, nor `Total Sales Inclusive GST @6%`.
    const atTotal = learnLayout({ amount_total: '14.90' }, first, { amount_total: { page: 1, box: first.filter((w) => w.text === 'Total')[1]!.box } });
    expect(atTotal.fields).toEqual([expect.objectContaining({ labelWords: ['total'] })]);
    const at35 = (label: string, amount: string) => label.padEnd(35) + amount;
    const reordered = wordsOfLines([at35('Sub Total', '7.00'), at35('Total Sales Inclusive GST @6%', '7.42'), at35('Final Total', '7.40'), at35('Total', '7.40')]);
    expect(applyLayout(atTotal, reordered).amount_total?.value).toBe('7.40');
    expect(applyLayout(atTotal, wordsOfLines([at35('Sub Total', '7.00'), at35('Total Sales Inclusive GST @6%', '7.42')])).amount_total).toBeUndefined();
    // Without its label the amount is not read where it was: a receipt's amounts move with its length.
    const unlabelled = wordsOfLines(['SANYU STATIONERY SHOP', '', '', '', '', '', '', '', '', '', '', '', '                                   3.30']);
    expect(applyLayout(hint, unlabelled).amount_total).toBeUndefined();
  });

  it('never takes another branch\'s address for the confirmed one: a digit is not a slip', () => {
    const shop = (branch: string) => wordsOfLines(['99 SPEED MART S/B', 'LOT P.T. 2811, JALAN ANGSA,', 'TAMAN BERKELEY 41150 KLANG, SELANGOR', branch]);
    const address = 'LOT P.T. 2811, JALAN ANGSA, TAMAN BERKELEY 41150 KLANG, SELANGOR 1320-TMN BATU';
    const hint = learnLayout({ supplier_address: address }, shop('1320-TMN BATU'));
    expect(applyLayout(hint, shop('1320-TMN BATV')).supplier_address?.value).toBe(address);
    expect(applyLayout(hint, shop('1558-TMN PUSAT')).supplier_address).toBeUndefined();
    expect(applyLayout(hint, shop('1328-TMN BATU')).supplier_address).toBeUndefined();
  });

  it('keeps an amount the extraction read surely; the layout fills one it missed', () => {
    const lines = (total: string, paid: string, change: string) => ['ACME TRADING', 'VAT ID: LT119511515', '', `TOTAL                  ${total}`, `CASH                   ${paid}`, `CHANGE                  ${change}`];
    const first = textDocument(lines('99.10', '99.10', '0.00'));
    const hint = learnLayout({ supplier_vat_id: 'LT119511515', amount_total: '99.10' }, first.pages[0]!.lines.flatMap((l) => l.words), {});
    const next = textDocument(lines('15.00', '20.00', '5.00'));
    const result = toAnalyzeExpenseResult(next, extractDocument(next));
    const plain = mapExpenseToFields(result);
    expect(plain.amount_total?.value).toBe('15.00');
    // A layout that reads another amount at its label (the cash, 20.00) does not replace a sure total.
    const wrong = { ...hint, fields: hint.fields.map((f) => (f.field === 'amount_total' ? { ...f, labelWords: ['cash'] } : f)) };
    expect(applyLayout(wrong, next.pages[0]!.lines.flatMap((l) => l.words)).amount_total?.value).toBe('20.00');
    const extraction = extractDocument(next);
    const read = (total: { value: string; confidence: number }) =>
      toAnalyzeExpenseResult(next, { ...extraction, fields: { ...extraction.fields, amount_total: { ...extraction.fields.amount_total!, ...total } } });
    expect(mapExpenseToFields(applyHintsToResult(read({ value: '15.00', confidence: 95 }), [wrong])).amount_total?.value).toBe('15.00');
    expect(mapExpenseToFields(applyHintsToResult(read({ value: '1.50', confidence: 60 }), [hint])).amount_total?.value).toBe('15.00');
  });

  it('keeps a document number only of the confirmed number\'s series', () => {
    const first = wordsOfLines(['ACME TRADING', '', 'Inv 4471-A          12.03.2024']);
    const hint = learnLayout({ document_id: '4471-A' }, first);
    expect(applyLayout(hint, wordsOfLines(['ACME TRADING', '', 'Inv 5120-B          02.04.2024'])).document_id?.value).toBe('5120-B');
    expect(applyLayout(hint, wordsOfLines(['ACME TRADING', '', 'Inv Cashier:5120    02.04.2024'])).document_id).toBeUndefined();
    expect(applyLayout(hint, wordsOfLines(['ACME TRADING', '', '    PerindustrianBahru,Johor'])).document_id).toBeUndefined();
  });

  it('selects a hint by VAT ID, company code or normalised name', () => {
    const hints: SupplierLayoutHint[] = [
      { supplier: { vat_id: 'LT119511515' }, fields: [] },
      { supplier: { code: '304567891' }, fields: [] },
      { supplier: { name: 'UAB "Šviesos Technika"' }, fields: [] },
    ];
    const f = (o: Record<string, string>) => ({ vat_lines: [], line_items: [], ...Object.fromEntries(Object.entries(o).map(([k, v]) => [k, { value: v, page: 1, box: { left: 0, top: 0, width: 0, height: 0 }, confidence: 90 }])) });
    expect(selectHint(hints, f({ supplier_vat_id: 'LT 119511515' }))).toBe(hints[0]);
    expect(selectHint(hints, f({ supplier_code: '304567891' }))).toBe(hints[1]);
    expect(selectHint(hints, f({ supplier_name: 'Šviesos technika, UAB' }))).toBe(hints[2]);
    expect(selectHint(hints, f({ supplier_name: 'Kita įmonė' }))).toBeUndefined();
    // Another company of the same trading name has its own VAT ID: not its layout.
    const diy: SupplierLayoutHint = { supplier: { name: 'MR. D.I.Y. SDN BHD', vat_id: '001092886528' }, fields: [] };
    expect(selectHint([diy], f({ supplier_name: 'MR. D.I.Y. (M) SDN BHD', supplier_vat_id: '000306020352' }))).toBeUndefined();
    expect(selectHint([diy], f({ supplier_name: 'MR. D.I.Y. (M) SDN BHD' }))).toBe(diy);
  });
});

describe('confirmedDateOrder: the date order a confirmed document shows as printed', () => {
  const word = (text: string, left: number, top: number): OcrWord => ({ text, box: { left, top, width: 0.08, height: 0.015 }, confidence: 99, page: 1 });
  const page = (issue: string, due?: string): OcrWord[] => [
    word('Date', 0.6, 0.12),
    word(issue, 0.7, 0.12),
    ...(due ? [word('Due', 0.6, 0.2), word(due, 0.7, 0.2)] : []),
  ];

  it('an ambiguous date confirmed month first tells MM/DD/YYYY, day first DD/MM/YYYY', () => {
    expect(confirmedDateOrder({ issue_date: '2026-03-04' }, page('03/04/2026'))).toBe('MM/DD/YYYY');
    expect(confirmedDateOrder({ issue_date: '2026-04-03' }, page('03/04/2026'))).toBe('DD/MM/YYYY');
    // A day above 12 is day first whatever was set
    expect(confirmedDateOrder({ issue_date: '2026-03-25' }, page('25/03/2026'))).toBe('DD/MM/YYYY');
  });

  it('a date whose day equals its month, written year first, not printed, or two dates that disagree tell nothing', () => {
    expect(confirmedDateOrder({ issue_date: '2026-03-03' }, page('03/03/2026'))).toBeUndefined();
    expect(confirmedDateOrder({ issue_date: '2026-03-04' }, page('2026-03-04'))).toBeUndefined();
    expect(confirmedDateOrder({ issue_date: '2026-05-06' }, page('03/04/2026'))).toBeUndefined();
    expect(confirmedDateOrder({ issue_date: '2026-03-04', due_date: '2026-04-05' }, page('03/04/2026', '05/04/2026'))).toBeUndefined();
    // The due date tells when the issue date cannot
    expect(confirmedDateOrder({ issue_date: '2026-03-03', due_date: '2026-04-05' }, page('03/03/2026', '04/05/2026'))).toBe('MM/DD/YYYY');
  });
});

describe('a total put right teaches where the seller prints the amount paid', () => {
  const TODAY = '2026-12-03';
  /** A shop's receipt read surely: items, the total before a discount, the discount, the amount paid, cash and change. */
  const till = (o: { items: [string, string][]; total: string; discount?: string; paid?: string | null; paidLabel?: string; cash: string; change: string; number: string }) => {
    const printed = textDocument([
      'KEDAI RUNCIT MAJU JAYA',
      'NO 12 JALAN BUNGA RAYA',
      '43000 KAJANG SELANGOR',
      'GST ID: 000123456789',
      `INVOICE NO: ${o.number}`,
      'DATE: 12/03/2018',
      ...o.items.map(([name, price]) => name.padEnd(35) + price),
      'TOTAL'.padEnd(35) + o.total,
      ...(o.discount ? ['DISCOUNT 10%'.padEnd(35) + o.discount] : []),
      ...(o.paid === undefined ? [] : [(o.paidLabel ?? 'AMOUNT PAID').padEnd(35) + (o.paid ?? '')]),
      'CASH'.padEnd(35) + o.cash,
      'CHANGE'.padEnd(35) + o.change,
    ]);
    const doc = { ...printed, pages: printed.pages.map((p) => ({ ...p, lines: p.lines.map((l) => ({ ...l, confidence: 99, words: l.words.map((w) => ({ ...w, confidence: 99 })) })) })) };
    return { result: toAnalyzeExpenseResult(doc, extractDocument(doc)), words: doc.pages.flatMap((p) => p.lines.flatMap((l) => l.words)) };
  };
  const first = () => till({ items: [['SUGAR 1KG', '5.00'], ['MILK', '4.30']], total: '9.30', discount: '0.93', paid: '8.37', cash: '10.00', change: '1.63', number: 'CS001' });
  const next = (paid: string | null = '18.00') => till({ items: [['RICE 5KG', '12.00'], ['COOKING OIL', '8.00']], total: '20.00', discount: '2.00', paid, cash: '50.00', change: '32.00', number: 'CS002' });
  const fieldsOf = (r: ReturnType<typeof till>['result']) => mapExpenseToFields(r);

  /** The person confirms the first receipt with its total typed over the one read (the content keeps that place). */
  const learntFromTyped = () => {
    const { result, words } = first();
    const read = fieldsOf(result).amount_total!;
    expect([read.value, read.confidence >= 90]).toEqual(['9.30', true]);
    return learnLayout({ supplier_name: 'KEDAI RUNCIT MAJU JAYA', amount_total: '8.37' }, words, { amount_total: { page: read.page, box: read.box } });
  };

  it('without learning the general reading takes the total before the discount, and the receipt is ready with it', () => {
    const { result } = next();
    const f = fieldsOf(applyHintsToResult(result, undefined));
    expect(f.amount_total?.value).toBe('20.00');
    expect(readyCheck(f, 'receipt', TODAY).ready).toBe(true);
  });

  it("reads the amount paid at the learnt line on the seller's next receipt, over the sure general reading", () => {
    const hint = learntFromTyped();
    expect(hint.fields.find((f) => f.field === 'amount_total')).toMatchObject({ labelWords: ['amount', 'paid'], corrected: true });
    const f = fieldsOf(applyHintsToResult(next().result, [hint]));
    expect(f.amount_total?.value).toBe('18.00');
    // Never ready with the total the person put right before.
    expect(readyCheck(f, 'receipt', TODAY).ready && f.amount_total?.value === '20.00').toBe(false);
  });

  it('learns the same from a total picked on the page at the line of the amount paid', () => {
    const { words } = first();
    const paidRow = words.find((w) => w.text === 'PAID')!;
    const hint = learnLayout({ amount_total: '8.37' }, words, { amount_total: { page: 1, box: { ...paidRow.box, left: 0.43, width: 0.05 } } });
    expect(hint.fields).toEqual([expect.objectContaining({ field: 'amount_total', labelWords: ['amount', 'paid'], corrected: true })]);
    expect(fieldsOf(applyHintsToResult(next().result, [{ ...hint, supplier: { name: 'KEDAI RUNCIT MAJU JAYA' } }])).amount_total?.value).toBe('18.00');
  });

  it('keeps the read total but not ready when the learnt line prints no readable amount', () => {
    const f = fieldsOf(applyHintsToResult(next(null).result, [learntFromTyped()]));
    expect(f.amount_total?.value).toBe('20.00');
    expect(f.amount_total!.confidence).toBeLessThan(90);
    expect(readyCheck(f, 'receipt', TODAY).ready).toBe(false);
  });

  it('keeps the read total where the learnt line is not printed (a receipt without a discount)', () => {
    const plain = till({ items: [['RICE 5KG', '12.00'], ['COOKING OIL', '8.00']], total: '20.00', cash: '50.00', change: '30.00', number: 'CS003' });
    const f = fieldsOf(applyHintsToResult(plain.result, [learntFromTyped()]));
    expect(f.amount_total?.value).toBe('20.00');
    expect(readyCheck(f, 'receipt', TODAY).ready).toBe(true);
  });

  it('a total confirmed as read keeps the sure general reading, also where its learnt line reads another amount', () => {
    const plain = till({ items: [['SUGAR 1KG', '5.00'], ['MILK', '4.30']], total: '9.30', cash: '10.00', change: '0.70', number: 'CS001' });
    const read = fieldsOf(plain.result).amount_total!;
    const hint = learnLayout({ supplier_name: 'KEDAI RUNCIT MAJU JAYA', amount_total: '9.30' }, plain.words, { amount_total: { page: read.page, box: read.box } });
    expect(hint.fields.find((f) => f.field === 'amount_total')).toMatchObject({ labelWords: ['total'] });
    expect(hint.fields.find((f) => f.field === 'amount_total')!.corrected).toBeUndefined();
    // The same layout again: the learnt line and the general reading agree.
    const again = till({ items: [['RICE 5KG', '12.00'], ['COOKING OIL', '8.00']], total: '20.00', cash: '50.00', change: '30.00', number: 'CS003' });
    const same = fieldsOf(applyHintsToResult(again.result, [hint]));
    expect([same.amount_total?.value, readyCheck(same, 'receipt', TODAY).ready]).toEqual(['20.00', true]);
    // A receipt whose general reading takes the amount paid after a discount, under the learnt line: the reading stands.
    const { result } = till({ items: [['RICE 5KG', '12.00'], ['COOKING OIL', '8.00']], total: '20.00', discount: '2.00', paid: '18.00', paidLabel: 'NETT TOTAL', cash: '50.00', change: '32.00', number: 'CS004' });
    expect(applyLayout(hint, wordsOf(result)).amount_total?.value).toBe('20.00');
    const f = fieldsOf(applyHintsToResult(result, [hint]));
    expect(f.amount_total).toEqual(fieldsOf(result).amount_total);
    expect([f.amount_total?.value, readyCheck(f, 'receipt', TODAY).ready]).toEqual(['18.00', true]);
  });
});
