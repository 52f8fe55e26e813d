/**
 * Line items of a receipt without a header row: the rows between the top and the first total that end with an
 * amount ("2 x 3.50  7.00"), each described by its own words or by a row of words beside it.
 */
import { unionBoxes } from '../geometry';
import { amountsEqual, findAmounts, formatAmount } from './amounts';
import { formatQuantity, isTotalsRow, itemsGoOn, type LineItem, namesItem, rateTotalRow, SUMMARY_START, summaryRow } from './item-rows';
import type { Row } from './rows';

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

/** A row's amounts in the document's decimal mark (a number with the other mark is no amount of this document). */
function amountsOf(row: Row, mark: string | undefined) {
  return findAmounts(row.text).filter((a) => !mark || decimalMark(a.raw) === mark);
}

/** A row of a count and two amounts or more whose words name nothing ("8 UNIT *  2.80  0.00  22.40  SR"). */
function numbersBelow(row: Row | undefined, mark: string | undefined): boolean {
  if (!row || isTotalsRow(row)) return false;
  const amounts = amountsOf(row, mark);
  return amounts.length >= 2 && !namesItem(row.text.slice(0, amounts[0]!.index));
}

/** Is a row an item's numbers with no name ("1X 000004291022  4.80SR") or the totals (or the end of the page)? */
function numbersOrTotals(row: Row | undefined): boolean {
  if (!row || isTotalsRow(row) || SUMMARY_START.test(row.text.trim())) return true;
  const first = findAmounts(row.text)[0];
  return !!first && !namesItem(row.text.slice(0, first.index));
}

/** A row of an item's name and one price ("CUT FRUITS 1.99"), no total and no discount. */
function nameWithPrice(row: Row | undefined, mark: string | undefined): boolean {
  if (!row || isTotalsRow(row) || SUMMARY_START.test(row.text.trim())) return false;
  const amounts = amountsOf(row, mark);
  return amounts.length === 1 && amounts[0]!.value > 0 && namesItem(row.text.slice(0, amounts[0]!.index)) && !/[@:]/.test(row.text);
}

/** A quantity and a price each ("2 x 3.50", "3x8.00", "1 X RM 5.50"). */
const QUANTITY_TIMES_PRICE = /(\d+(?:[.,]\d+)?)\s*[xX@*]\s*(?:RM|\$|€)?\s*(\d+[.,]\d{2,4})/;

/** Receipt items: "DESCRIPTION 2 x 3.50 7.00" rows before the first total. */
export function receiptItems(rows: Row[]): LineItem[] {
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
  // Whether the receipt prints each item's name under its numbers.
  let namesBelow = false;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (isTotalsRow(row) && findAmounts(row.text).length > 0) {
      if (items.length && rateTotalRow(row) && itemsGoOn(rows, i, described)) continue;
      break;
    }
    if (summaryRow(row, items)) break;
    const amounts = amountsOf(row, mark);
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
    // A name and one price ("PLASTIC BOWL - 2.80") over a row of numbers that names nothing ("8 UNIT *  2.80  0.00
    // 22.40  SR"): the row under it is the item's, the price one of its numbers.
    if (amounts.length === 1 && namesItem(before) && numbersBelow(rows[i + 1], mark)) {
      pending = { row, text: before.replace(/[\s-]+$/, '') };
      continue;
    }
    // The row's own words describe it, unless they are a code or a unit ("FM4 T1000055 *4", "3 UNIT *") under a
    // described row.
    const ownWords = (/\p{L}{2,}/u.test(before) || describingLetters(before) >= 2) && (!pending || namesItem(before));
    // A row of a code, a count and an amount with no description above it takes the row of words right below it
    // ("1x 000002781709  15.50SR" over "BIO ZIP POWDER"): such receipts print each item's name under its amount.
    if (!ownWords && !pending && describesAbove(rows[i + 1])) {
      pending = { row: rows[i + 1]!, text: rows[i + 1]!.text };
      namesBelow = true;
      i++;
    } else if (!ownWords && !pending && namesBelow && nameWithPrice(rows[i + 1], mark) && numbersOrTotals(rows[i + 2])) {
      // Once the receipt prints names under the numbers, a name with a price in it is one too ("1X 000000388658
      // 2.50SR" over "CUT FRUITS 1.99", the price a kilo's), where the next item's numbers or the totals follow.
      const under = rows[i + 1]!;
      pending = { row: under, text: under.text.slice(0, findAmounts(under.text)[0]!.index).trim() };
      i++;
    }
    const qx = text.match(QUANTITY_TIMES_PRICE);
    const [quantity, price] = qx ? [Number(qx[1]!.replace(',', '.')), Number(qx[2]!.replace(',', '.'))] : [];
    // A row with nothing to name it is still an item where its quantity times its price is its amount ("0025679 U
    // 1x7.00  7.00 S" under another item of the same code): the arithmetic shows it is one; its code names it.
    const codeOnly = !ownWords && !pending && quantity !== undefined && amountsEqual(quantity * price!, last.value);
    const selfNamed = ownWords || codeOnly;
    if (!selfNamed && !pending) continue;
    const item: LineItem = {};
    const descRow = selfNamed ? row : pending!.row;
    // Without the quantity printed before the price ("MILO 1KG  2 x 3.50  7.00" → "MILO 1KG").
    const dText = selfNamed ? before.replace(/(^|\s+)\d+(?:[.,]\d+)?\s*[xX@*]$/, '') : pending!.text;
    // A count before the name goes ("1 MILO 1KG"), not a code that is the only name ("0025679 U").
    const description = (codeOnly ? dText : dText.replace(/^\d+\s+(?=\p{L})/u, '')).trim();
    if (description) {
      item.description = {
        value: description,
        raw: dText,
        page: descRow.page,
        box: descRow === row ? unionBoxes(row.words.filter((_, k) => row.spans[k]!.end <= before.length).map((w) => w.box)) : descRow.box,
        confidence: Math.round(descRow.confidence * 10) / 10,
      };
    }
    item.total_price = { value: formatAmount(last.value), raw: last.raw, page: row.page, box: row.box, confidence: Math.round(row.confidence * 10) / 10 };
    if (qx) {
      item.quantity = { ...item.total_price, value: formatQuantity(quantity!), raw: qx[1]! };
      item.price_per_unit = { ...item.total_price, value: formatAmount(price!), raw: qx[2]! };
    }
    item.row = { value: row.text, raw: row.text, page: row.page, box: row.box, confidence: Math.round(row.confidence * 10) / 10 };
    items.push(item);
    pending = undefined;
  }
  return items;
}
