/**
 * Line items. Invoices: a table under a header row ("No. | Code | Description | Qty | Unit | Price |
 * VAT % | Amount"), cells assigned to the header's columns by position. Receipts without a header:
 * rows between the top and the first total that end with an amount ("2 x 3.50  7.00").
 */
import { centerX, horizontalOverlap, unionBoxes } from '../geometry';
import type { Box, LineItemFieldId } from '../types';
import { findAmounts, findRates, formatAmount } from './amounts';
import { classifyLabel } from './totals';
import type { Cell, Found, Row } from './rows';
import { foldDiacritics, fuzzyEquals } from './text';

export type LineItem = Partial<Record<LineItemFieldId, Found>> & { row?: Found };

const COLUMN_WORDS: [LineItemFieldId, RegExp][] = [
  ['item_number', /^(no\.?|nr\.?|eil\.?\s*nr\.?|#|pos\.?|line)$/i],
  ['price_per_unit', /(kaina\s*su\s*pvm|price\s*incl|unit\s*price\s*incl|gross\s*price)/i],
  ['unit_price_without_vat', /(unit\s*price|u\.?\s*price|price|kaina(\s*be\s*pvm)?|vnt\.?\s*kaina|rate|unit\s*cost|cost)/i],
  ['vat_rate', /((vat|pvm|tax|gst)\s*(%|rate|tarifas)|%)/i],
  ['vat', /^(vat|pvm|tax|gst)(\s*(amount|suma))?$/i],
  ['total_price', /(suma\s*(be|su)\s*pvm|amount(\s*(excl|incl)\.?(\s*(vat|tax))?)?|net\s*amount|line\s*total|total|suma|sum|value|verte|net)/i],
  ['product_code', /(prekes\s*kodas|item\s*code|product\s*code|code|kodas|sku|art(icle)?\.?(\s*no)?|ean|barcode|ref)/i],
  ['quantity', /^(qty|quantity|kiekis|kiek\.?|q'?ty|units|pcs)$/i],
  ['unit_of_measurement', /^(unit|um|uom|mato\s*vnt\.?|mat\.?\s*vnt\.?|mato\s*vienetas|vnt\.?|mat\.?\s*vien\.?)$/i],
  ['description', /(description|item|items|product|pavadinimas|aprasymas|details|service|particulars|goods|prekes|paslaugos|designation)/i],
];

/** Long header words, known also when read a letter off ("Descriptior"). */
const LONG_COLUMN_WORDS: [string, LineItemFieldId][] = [
  ['description', 'description'],
  ['particulars', 'description'],
  ['quantity', 'quantity'],
];

function columnOf(cellText: string): LineItemFieldId | undefined {
  const t = foldDiacritics(cellText).trim().replace(/[:.]$/, '');
  for (const [id, re] of COLUMN_WORDS) if (re.test(t)) return id;
  if (/^\p{L}{8,}$/u.test(t)) return LONG_COLUMN_WORDS.find(([word]) => fuzzyEquals(t, word, 1))?.[1];
  return undefined;
}

interface Column {
  id: LineItemFieldId;
  box: Box;
}

const ANCHORED: [LineItemFieldId, RegExp][] = COLUMN_WORDS.map(([id, re]) => [id, new RegExp(`^(?:${re.source.replace(/^\^|\$$/g, '')})$`, 'i')]);

function anchoredColumn(text: string): LineItemFieldId | undefined {
  const t = foldDiacritics(text).trim().replace(/:$/, '');
  for (const [id, re] of ANCHORED) if (re.test(t)) return id;
  return undefined;
}

/**
 * Splits the header row into columns. A cell may hold several headers printed close together
 * ("Eil. Nr. Prekės kodas"): its words are split greedily into the longest known header phrases.
 */
function headerColumns(row: Row): Column[] | undefined {
  const cols: Column[] = [];
  const add = (id: LineItemFieldId, box: Box) => {
    if (!cols.some((c) => c.id === id)) cols.push({ id, box });
  };
  for (const cell of row.cells) {
    const words = cell.words;
    const found: Column[] = [];
    let i = 0;
    while (i < words.length) {
      let matched = false;
      for (let j = Math.min(words.length - 1, i + 3); j >= i; j--) {
        const phrase = words.slice(i, j + 1);
        const id = anchoredColumn(phrase.map((w) => w.text).join(' '));
        if (id) {
          found.push({ id, box: unionBoxes(phrase.map((w) => w.box)) });
          i = j + 1;
          matched = true;
          break;
        }
      }
      if (!matched) i++;
    }
    if (found.length) found.forEach((c) => add(c.id, c.box));
    else {
      const id = columnOf(cell.text);
      if (id) add(id, cell.box);
    }
  }
  const ids = new Set(cols.map((c) => c.id));
  const hasAmount = ids.has('total_price') || ids.has('unit_price_without_vat');
  if (cols.length >= 3 && hasAmount && (ids.has('description') || ids.has('quantity'))) return cols.sort((a, b) => a.box.left - b.box.left);
  return undefined;
}

function nearestColumn(cols: Column[], cell: Cell): Column | undefined {
  let best: Column | undefined;
  let bestScore = -Infinity;
  for (const c of cols) {
    const ov = horizontalOverlap(c.box, cell.box);
    const dist = Math.abs(centerX(c.box) - centerX(cell.box));
    // Numbers are right-aligned under their header: compare right edges too.
    const rightDist = Math.abs(c.box.left + c.box.width - (cell.box.left + cell.box.width));
    const score = ov * 2 - Math.min(dist, rightDist) * 10;
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best;
}

function cellFound(row: Row, cell: Cell, value: string): Found {
  const conf = cell.words.reduce((s, w) => s + w.confidence, 0) / cell.words.length;
  return { value, raw: cell.text, page: row.page, box: unionBoxes(cell.words.map((w) => w.box)), confidence: Math.round(conf * 10) / 10 };
}

function normaliseCell(id: LineItemFieldId, text: string): string | undefined {
  switch (id) {
    case 'quantity': {
      const a = findAmounts(text, { requireDecimals: false });
      return a.length ? formatQuantity(a[0]!.value) : undefined;
    }
    case 'unit_price_without_vat':
    case 'price_per_unit':
    case 'vat':
    case 'total_price': {
      const a = findAmounts(text, { requireDecimals: false });
      return a.length ? formatAmount(a[a.length - 1]!.value) : undefined;
    }
    case 'vat_rate': {
      const r = findRates(text);
      if (r.length) return String(r[0]!.value);
      const n = text.match(/^\s*(\d{1,2}(?:[.,]\d+)?)\s*$/);
      return n ? String(Number(n[1]!.replace(',', '.'))) : undefined;
    }
    default:
      return text.trim() || undefined;
  }
}

function formatQuantity(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
}

/** A row's text without the amount it ends with: its label. */
function rowLabel(row: Row): string {
  return row.text.replace(/[\d.,\s%:€$-]+$/g, '');
}

const TOTALS_KINDS = ['total_final', 'total', 'subtotal', 'tax', 'rounding', 'paid', 'change'];

function isTotalsRow(row: Row): boolean {
  const label = rowLabel(row);
  const k = classifyLabel(label).kind;
  return TOTALS_KINDS.includes(k) && /\p{L}{3,}/u.test(label) && !/^\d/.test(row.text.trim());
}

/** A label that starts with a total word ("Total Qty:", "Sub Total", "Jumlah"). */
const SUMMARY_START = /^\W*(sub[\s-]*total|total|grand\s*total|jumlah)\b/i;

/** A count of the items as a label ("No. Qtys:", "Item(s) :", "Items="). */
const COUNT_LABEL = /\b(no\.?\s*(of\s*)?)?(qtys?|qty\(s\)|quantity|items?|item\(s\)|item\s*count)\s*[:=]/gi;

/** A row of item counts and nothing else ("No. Qtys:  1.00 No. Items:  1"); not one that an item runs into. */
function countsRow(text: string): boolean {
  const rest = text.replace(COUNT_LABEL, '');
  return rest !== text && !/\p{L}/u.test(rest);
}

/**
 * A row with an amount that sums the items up rather than being one:
 * - its label starts with a total word, whatever follows ("Total Qty:  7  51.42": the items counted and summed);
 * - or it holds counts of the items and nothing else ("No. Qtys:  1.00 No. Items:  1");
 * - or it starts with a count, a totals label follows, and its amount is the sum of the items before it
 *   ("2  SUB TOTAL  295.00" after 150.00 and 145.00). A count alone does not tell ("1 COLGATE TOTAL 12.90" is an item).
 */
function summaryRow(row: Row, items: LineItem[]): boolean {
  const amounts = findAmounts(row.text);
  const label = rowLabel(row).trim();
  // After the items, a total word starts their summary with or without an amount ("TOTAL QUANTITY  2").
  if (SUMMARY_START.test(label) && (amounts.length > 0 || items.length > 0)) return true;
  if (!amounts.length) return false;
  if (countsRow(row.text)) return true;
  if (!items.length || !/^\d/.test(row.text.trim()) || !TOTALS_KINDS.includes(classifyLabel(label).kind)) return false;
  const sum = items.reduce((s, it) => s + Number(it.total_price?.value ?? NaN), 0);
  return Math.abs(amounts[amounts.length - 1]!.value - sum) < 0.005;
}

/** Columns of words rather than numbers. */
const TEXT_COLUMNS: LineItemFieldId[] = ['description', 'product_code', 'unit_of_measurement', 'item_number'];

/** One row's cells under the table's columns, and how many of them are numbers (quantities, prices, rates). */
function rowItem(row: Row, cols: Column[]): { item: LineItem; numeric: number } {
  const item: LineItem = {};
  let numeric = 0;
  const descriptionColumn = cols.find((c) => c.id === 'description');
  for (const cell of row.cells) {
    // Words that name an item are its description wherever they run ("PHILIPS 18W/E27/827 ESSENTIAL BULB" across
    // the quantity column), not a number of the column they reach into.
    const nearest = nearestColumn(cols, cell);
    const col = nearest && TEXT_COLUMNS.includes(nearest.id) ? nearest : descriptionColumn && namesItem(cell.text) ? descriptionColumn : nearest;
    if (!col) continue;
    const value = normaliseCell(col.id, cell.text);
    if (value === undefined) continue;
    if (!TEXT_COLUMNS.includes(col.id)) numeric++;
    const prev = item[col.id];
    if (prev && col.id === 'description') {
      prev.value = `${prev.value} ${value}`;
      prev.raw = `${prev.raw} ${cell.text}`;
      prev.box = unionBoxes([prev.box, cell.box]);
    } else if (!prev || col.id === 'total_price') {
      // Two numbers under one amount header (a unit price whose own header ran into it, "UP AMOUNT"): the line's
      // total is the rightmost.
      item[col.id] = cellFound(row, cell, value);
    }
  }
  return { item, numeric };
}

/** A total of the supplies at one tax rate ("Total 0% supplies: 39.01"), which a table of items grouped by rate prints after each group. */
function rateTotalRow(row: Row): boolean {
  return isTotalsRow(row) && classifyLabel(rowLabel(row)).rate !== undefined;
}

/** Whether more items follow the rate totals from row `i` on: the first row after them reads as an item. */
function itemsGoOn(rows: Row[], i: number, isItem: (row: Row) => boolean): boolean {
  let j = i;
  while (j < rows.length && rows[j]!.page === rows[i]!.page && rateTotalRow(rows[j]!)) j++;
  const next = rows[j];
  return !!next && next.page === rows[i]!.page && !isTotalsRow(next) && isItem(next);
}

/** Items of a table under a recognised header row; in a table grouped by tax rate, across the groups' totals. */
function tableItems(rows: Row[], headerIndex: number, cols: Column[]): LineItem[] {
  const items: LineItem[] = [];
  const header = rows[headerIndex]!;
  // An item fills the table's columns: a description and two numbers or more.
  const fillsColumns = (r: Row) => {
    const { item, numeric } = rowItem(r, cols);
    return !!item.description && numeric >= 2;
  };
  // Some tables print each item's name on a row of its own above the row of its numbers ("POLY CHOPPING BOARD" over
  // "3 UNIT *  4.80  0.00  14.40  SR"): once an item has taken its name from above, rows of words are the next
  // item's name, not the last one's continuation.
  let above: Row | undefined;
  let namesAbove = false;
  for (let i = headerIndex + 1; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.page !== header.page) break;
    if (isTotalsRow(row)) {
      if (items.length && rateTotalRow(row) && itemsGoOn(rows, i, fillsColumns)) continue;
      break;
    }
    if (summaryRow(row, items)) break;
    const { item, numeric } = rowItem(row, cols);
    if (numeric === 0 && (namesAbove || !items.length)) {
      if (/\p{L}{3,}/u.test(row.text)) above = row;
      continue;
    }
    if (numeric === 0) {
      // A continuation of the previous item's description.
      const last = items[items.length - 1];
      const text = row.text.trim();
      if (last?.description && text && row.box.top - (last.description.box.top + last.description.box.height) < row.box.height * 1.5) {
        last.description.value = `${last.description.value} ${text}`;
        last.description.box = unionBoxes([last.description.box, row.box]);
        continue;
      }
      break;
    }
    if (!namesItem(item.description?.value) && above) {
      item.description = { value: above.text.trim(), raw: above.text, page: above.page, box: above.box, confidence: Math.round(above.confidence * 10) / 10 };
      namesAbove = true;
    }
    above = undefined;
    item.row = { value: row.text, raw: row.text, page: row.page, box: row.box, confidence: Math.round(row.confidence * 10) / 10 };
    items.push(item);
  }
  return items;
}

/** Units of measure printed beside an item's numbers ("3 UNIT *", "2 PCS"): no item's name. */
const UNIT_WORDS = /^(units?|pcs?|pieces?|ea|each|nos?|kgs?|gm?|ltrs?|ml|box(es)?|pkts?|ctns?|sets?|pairs?|rolls?|btls?|bottles?|packs?)$/i;

/** Whether a description names an item: a word of three letters or more that is not a unit. */
function namesItem(description: string | undefined): boolean {
  return (description?.match(/\p{L}{3,}/gu) ?? []).some((w) => !UNIT_WORDS.test(w));
}

/** The decimal mark of an amount as printed ("9.00": "."; "12,50 €": ","). */
function decimalMark(raw: string): string | undefined {
  return /([.,])\d{1,4}\D*$/.exec(raw)?.[1];
}

/** The decimal mark most of a document's amounts print: one document prints one. */
function documentDecimalMark(rows: Row[]): string | undefined {
  const counts = new Map<string, number>();
  for (const r of rows) {
    for (const a of findAmounts(r.text)) {
      const mark = decimalMark(a.raw);
      if (mark) counts.set(mark, (counts.get(mark) ?? 0) + 1);
    }
  }
  const [dot, comma] = [counts.get('.') ?? 0, counts.get(',') ?? 0];
  return dot > comma ? '.' : comma > dot ? ',' : undefined;
}

/**
 * Letters of a row's text before its amount that could describe an item ("H/C A4 400'S": H, C, A, S), leaving out
 * a currency and the "x" or "@" of a quantity and price ("C5 X RM 15.80": only C).
 */
function describingLetters(before: string): number {
  const words = before.replace(/\b(RM|MYR|USD|EUR|SGD|GBP)\b/gi, ' ').replace(/(^|\s)[xX@*](?=\s|$)|(?<=\d)[xX](?=\s|$)/g, ' ');
  return (words.match(/\p{L}/gu) ?? []).length;
}

/** A row of words alone that can name the item printed above it: no amount, no label with a colon, no total. */
function describesAbove(row: Row | undefined): boolean {
  return !!row && !findAmounts(row.text).length && /\p{L}{3,}/u.test(row.text) && !/[:]/.test(row.text) && !SUMMARY_START.test(row.text.trim());
}

/** Receipt items: "DESCRIPTION 2 x 3.50 7.00" rows before the first total. */
function receiptItems(rows: Row[]): LineItem[] {
  const items: LineItem[] = [];
  // A number with the other decimal mark is no amount of this document ("NO. 53 55,57 & 59, JALAN" on a page of 9.00).
  const mark = documentDecimalMark(rows);
  // Items end at the first total, unless more items follow a rate's total (supplies grouped by tax rate).
  const described = (r: Row) => {
    const first = findAmounts(r.text)[0];
    return !!first && /\p{L}{3,}/u.test(r.text.slice(0, first.index));
  };
  // A row of words alone, or of words and a unit price ("BERAS 10KG @53.50"), describes the item on the next row.
  let pending: { row: Row; text: string } | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (isTotalsRow(row) && findAmounts(row.text).length > 0) {
      if (items.length && rateTotalRow(row) && itemsGoOn(rows, i, described)) continue;
      break;
    }
    if (summaryRow(row, items)) break;
    const amounts = findAmounts(row.text).filter((a) => !mark || decimalMark(a.raw) === mark);
    const text = row.text;
    if (!amounts.length) {
      // Words describe the next item; a row of codes alone ("FZ02 - 6/54") leaves the description above it pending.
      if (/\p{L}{3,}/u.test(text)) pending = !/[:]/.test(text) ? { row, text } : undefined;
      continue;
    }
    const last = amounts[amounts.length - 1]!;
    const before = text.slice(0, amounts[0]!.index).trim();
    // Header-like rows with dates, times and labels are not items.
    if (/\b(date|time|tel|gst\s*(id|reg|no)|invoice|cashier|table|receipt)\b/i.test(text)) continue;
    // One amount after "@" is a price each, not the item's total: the total follows on the next row.
    if (amounts.length === 1 && /@\s*$/.test(before) && /\p{L}{3,}/u.test(before)) {
      pending = { row, text: before.replace(/\s*@$/, '') };
      continue;
    }
    // The row's own words describe it, unless they are a code or a unit ("FM4 T1000055 *4", "3 UNIT *") under a
    // described row.
    const ownWords = (/\p{L}{2,}/u.test(before) || describingLetters(before) >= 2) && (!pending || namesItem(before));
    // A row of a code, a count and an amount with no description above it takes the row of words right below it
    // ("1x 000002781709  15.50SR" over "BIO ZIP POWDER"): such receipts print each item's name under its amount.
    if (!ownWords && !pending && describesAbove(rows[i + 1])) {
      pending = { row: rows[i + 1]!, text: rows[i + 1]!.text };
      i++;
    }
    if (!ownWords && !pending) continue;
    const item: LineItem = {};
    const descRow = ownWords ? row : pending!.row;
    // Without the quantity printed before the price ("MILO 1KG  2 x 3.50  7.00" → "MILO 1KG").
    const dText = ownWords ? before.replace(/\s+\d+(?:[.,]\d+)?\s*[xX@*]$/, '') : pending!.text;
    item.description = {
      value: dText.replace(/^\d+\s+(?=\p{L})/u, '').trim(),
      raw: dText,
      page: descRow.page,
      box: descRow === row ? unionBoxes(row.words.filter((_, k) => row.spans[k]!.end <= before.length).map((w) => w.box)) : descRow.box,
      confidence: Math.round(descRow.confidence * 10) / 10,
    };
    item.total_price = { value: formatAmount(last.value), raw: last.raw, page: row.page, box: row.box, confidence: Math.round(row.confidence * 10) / 10 };
    const qx = text.match(/(\d+(?:[.,]\d+)?)\s*[xX@*]\s*(?:RM|\$|€)?\s*(\d+[.,]\d{2,4})/);
    if (qx) {
      item.quantity = { ...item.total_price, value: formatQuantity(Number(qx[1]!.replace(',', '.'))), raw: qx[1]! };
      item.price_per_unit = { ...item.total_price, value: formatAmount(Number(qx[2]!.replace(',', '.'))), raw: qx[2]! };
    }
    item.row = { value: row.text, raw: row.text, page: row.page, box: row.box, confidence: Math.round(row.confidence * 10) / 10 };
    items.push(item);
    pending = undefined;
  }
  return items;
}

export function extractLineItems(rows: Row[]): LineItem[] {
  for (let i = 0; i < rows.length; i++) {
    const cols = headerColumns(rows[i]!);
    if (cols) {
      const items = tableItems(rows, i, cols);
      if (items.length) return items;
    }
  }
  return receiptItems(rows);
}
