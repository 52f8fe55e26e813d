/**
 * Line items of an invoice's table: a header row ("No. | Code | Description | Qty | Unit | Price | VAT % |
 * Amount") and the rows under it, each cell assigned to the header's columns by position.
 */
import { centerX, horizontalOverlap, unionBoxes } from '../geometry';
import type { Box, LineItemFieldId } from '../types';
import { findAmounts, findRates, formatAmount } from './amounts';
import { formatQuantity, isTotalsRow, itemsGoOn, type LineItem, namesItem, rateTotalRow, rowLabel, summaryRow } from './item-rows';
import type { Cell, Found, Row } from './rows';
import { classifyLabel } from './totals';
import { foldDiacritics, fuzzyEquals } from './text';

const COLUMN_WORDS: [LineItemFieldId, RegExp][] = [
  ['item_number', /^(no\.?|nr\.?|eil\.?\s*nr\.?|#|pos\.?|line|lp\.?)$/i],
  ['price_per_unit', /(kaina\s*su\s*pvm|price\s*incl|unit\s*price\s*incl|gross\s*price)/i],
  [
    'unit_price_without_vat',
    /(unit\s*price|u\.?\s*price|price|kaina(\s*be\s*pvm)?|vnt\.?\s*kaina|rate|unit\s*cost|cost|(?<!gesamt)preis|precio|prezzo|prijs|^(cena|hind)(\s*(netto|bez\s*pvn))?$|prix\s*unitaire)/i,
  ],
  ['vat_rate', /((vat|pvm|tax|gst|mwst|ust|pvn)\.?\s*-?\s*(%|rate|tarifas|satz|likme)|%)/i],
  ['vat', /^(vat|pvm|tax|gst|mwst\.?|ust\.?|pvn)(\s*(amount|suma|betrag|summa))?$/i],
  [
    'total_price',
    /(suma\s*(be|su)\s*pvm|amount(\s*(excl|incl)\.?(\s*(vat|tax))?)?|net\s*amount|line\s*total|total|suma|sum|value|verte|net|gesamt(preis|betrag)?|betrag|wartosc|montant|importe|importo|bedrag)/i,
  ],
  // "Artikel", "Article" alone: the item's code beside a column that describes it, else the item (`headerColumns`).
  ['product_code', /(prekes\s*kodas|item\s*code|product\s*code|code|kodas|sku|(?!artikel\s*-?\s*bezeichnung)art(icle|ikel|iculo|icolo)?\.?(\s*-?\s*(no|nr)\.?)?|ean|barcode|ref)/i],
  ['quantity', /^(qty|quantity|kiekis|kiek\.?|q'?ty|units|pcs|menge|anzahl|daudzums|daudz\.?|kogus|ilosc|aantal|quantite|cantidad|quantita)$/i],
  ['unit_of_measurement', /^(unit|um|uom|mato\s*vnt\.?|mat\.?\s*vnt\.?|mato\s*vienetas|vnt\.?|mat\.?\s*vien\.?|einheit|me|merv\.?|mervieniba|uhik|jm\.?|j\.\s*m\.?)$/i],
  [
    'description',
    /(description|item|items|product|pavadinimas|aprasymas|details|service|particulars|goods|prekes|paslaugos|designation|\bpreke\b|\bpaslauga\b|bezeichnung|\bleistung\b|nosaukums|kirjeldus|nimetus|\bnazwa\b|\btowar|\bopis\b|\btoode\b|produktas|omschrijving|descrizione)/i,
  ],
];

/** Headers that name the item itself ("Artikel", "Article"): its code beside a column that describes it. */
const ARTICLE_HEADER = /^(artikel|article|artikl|articulo|articolo)$/i;

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
export function headerColumns(row: Row): Column[] | undefined {
  const cols: Column[] = [];
  const add = (id: LineItemFieldId, box: Box) => {
    if (!cols.some((c) => c.id === id)) cols.push({ id, box });
  };
  let article: Box | undefined;
  for (const cell of row.cells) {
    const words = cell.words;
    const found: Column[] = [];
    let i = 0;
    while (i < words.length) {
      let matched = false;
      for (let j = Math.min(words.length - 1, i + 3); j >= i; j--) {
        const phrase = words.slice(i, j + 1);
        const text = phrase.map((w) => w.text).join(' ');
        const id = anchoredColumn(text);
        if (id) {
          found.push({ id, box: unionBoxes(phrase.map((w) => w.box)) });
          if (id === 'product_code' && ARTICLE_HEADER.test(foldDiacritics(text).replace(/[:.]$/, ''))) article = found.at(-1)!.box;
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
  // "Artikel" alone names the item; beside a column that describes it ("Artikel | Bezeichnung"), its code.
  const articleColumn = cols.find((c) => c.box === article);
  if (articleColumn && !cols.some((c) => c.id === 'description')) articleColumn.id = 'description';
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

/**
 * Whether a document's money prints a decimal comma ("1 234,56", "12,50"): more of its amounts with two decimals
 * print a comma before them than a point (a date printed with points, "25.11.2026", reads as one with a point).
 */
function printsDecimalComma(rows: Row[]): boolean {
  let comma = 0;
  let point = 0;
  for (const r of rows) {
    for (const a of findAmounts(r.text)) {
      const mark = a.raw.match(/\d([.,])\d{2}(?!\d)/)?.[1];
      if (mark === ',') comma++;
      else if (mark === '.') point++;
    }
  }
  return comma > point;
}

/**
 * A number with one mark and three digits after it ("45,670", "1,459", "1.500"), read by the document's decimal mark.
 * A document uses one decimal mark: where its money prints a decimal comma, "45,670" in a quantity or a unit price
 * cell is litres or kilograms to the gram, or a price to the tenth of a cent, and "1.500" is thousands; where it
 * prints a point, the other way round.
 */
function byDecimalMark(text: string, decimalComma: boolean): number | undefined {
  const first = findAmounts(text, { requireDecimals: false })[0];
  const m = first?.raw.match(/^\D*?(\d+)([.,])(\d{3})\D*$/);
  if (!first || !m) return undefined;
  const magnitude = (m[2] === ',') === decimalComma ? Number(`${m[1]}.${m[3]}`) : Number(`${m[1]}${m[3]}`);
  return first.value < 0 ? -magnitude : magnitude;
}

/**
 * An amount cell's money. Money prints its decimals: a whole number after an amount in the cell is a tax code or a
 * count read as a digit ("55.00 1", the code T read as 1), not the amount.
 */
function moneyCell(text: string, wholeAmounts: boolean): string | undefined {
  const decimal = findAmounts(text);
  const a = decimal.length || !wholeAmounts ? decimal : findAmounts(text, { requireDecimals: false });
  return a.length ? formatAmount(a[a.length - 1]!.value) : undefined;
}

function normaliseCell(id: LineItemFieldId, text: string, wholeAmounts: boolean, decimalComma: boolean): string | undefined {
  switch (id) {
    case 'quantity': {
      const marked = byDecimalMark(text, decimalComma);
      if (marked !== undefined) return formatQuantity(marked);
      const a = findAmounts(text, { requireDecimals: false });
      return a.length ? formatQuantity(a[0]!.value) : undefined;
    }
    case 'unit_price_without_vat':
    case 'price_per_unit': {
      const marked = byDecimalMark(text, decimalComma);
      return marked !== undefined ? formatAmount(marked) : moneyCell(text, wholeAmounts);
    }
    case 'vat':
    case 'total_price':
      return moneyCell(text, wholeAmounts);
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

/** Columns of words rather than numbers. */
const TEXT_COLUMNS: LineItemFieldId[] = ['description', 'product_code', 'unit_of_measurement', 'item_number'];

/**
 * One row's cells under the table's columns, and how many of them are numbers (quantities, prices, rates).
 * `wholeAmounts`: whether a whole number under an amount's header is money. Where the document prints money with
 * decimals, such a number that is a row's only number is a speck, a count or a code ("1" under "Total" beside an
 * item's name printed on a row of its own), no amount; with a quantity, or beside a price with decimals, it is the
 * line's total printed without them ("1  RICE BAG  55", "76.00  76 SR").
 */
function itemOfRow(row: Row, cols: Column[], wholeAmounts: boolean, decimalComma: boolean): { item: LineItem; numeric: number } {
  const item: LineItem = {};
  let numeric = 0;
  const descriptionColumn = cols.find((c) => c.id === 'description');
  for (const cell of row.cells) {
    // Words that name an item are its description wherever they run ("PHILIPS 18W/E27/827 ESSENTIAL BULB" across
    // the quantity column), not a number of the column they reach into.
    const nearest = nearestColumn(cols, cell);
    const col = nearest && TEXT_COLUMNS.includes(nearest.id) ? nearest : descriptionColumn && namesItem(cell.text) ? descriptionColumn : nearest;
    if (!col) continue;
    const value = normaliseCell(col.id, cell.text, wholeAmounts, decimalComma);
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

/** Labels of a subtotal carried from one page to the next ("Carried forward", "Brought forward", "Übertrag", "Perkelta"). */
const CARRIED_LABEL = /\b(carried|brought)\s*(forward|over)\b|\b[cb]\/f\b|\bubertrag|\bperkel(ta|iama)|\bparnest|\bprzeniesieni/i;

/**
 * A subtotal carried over a page break: it repeats the sum of the items so far ("Carried forward  17 812,25"), under
 * a label that says so, a subtotal's or none. A total's label without those words ends the items however it sums them.
 */
function carriedSum(row: Row, items: LineItem[]): boolean {
  const amounts = findAmounts(row.text);
  if (!amounts.length || !items.length) return false;
  const sum = items.reduce((s, it) => s + Number(it.total_price?.value ?? NaN), 0);
  if (Math.abs(amounts[amounts.length - 1]!.value - sum) >= 0.005) return false;
  const label = foldDiacritics(rowLabel(row));
  return CARRIED_LABEL.test(label) || ['subtotal', 'none'].includes(classifyLabel(label).kind);
}

/** A row of the totals that end the items: a totals label with an amount, other than a subtotal carried over. */
function totalsBlockRow(row: Row, items: LineItem[]): boolean {
  return (isTotalsRow(row) || summaryRow(row, items)) && findAmounts(row.text).length > 0 && !carriedSum(row, items);
}

function sameColumns(a: Column[], b: Column[]): boolean {
  return a.length === b.length && a.every((c) => b.some((d) => d.id === c.id));
}

/**
 * Where a table whose rows on `page` ended at row `end` goes on, on the next page: a table runs over a page break
 * under its header repeated, or with rows in the same columns, before the totals. It goes on only where its page
 * holds nothing after it but what a page ends with (a page number, a subtotal carried over, which repeats the sum of
 * the items so far and is no item), and the next page takes it up (its header again, or an item) before any total.
 */
function nextPagePart(
  rows: Row[],
  page: number,
  end: number,
  items: LineItem[],
  cols: Column[],
  isItem: (r: Row, cols: Column[]) => boolean,
): { start: number; cols: Column[] } | undefined {
  let i = end;
  for (; i < rows.length && rows[i]!.page === page; i++) if (totalsBlockRow(rows[i]!, items) || isItem(rows[i]!, cols)) return undefined;
  for (; i < rows.length && rows[i]!.page === page + 1; i++) {
    const row = rows[i]!;
    const repeated = headerColumns(row);
    if (repeated && sameColumns(repeated, cols)) return { start: i + 1, cols: repeated };
    if (totalsBlockRow(row, items)) return undefined;
    if (!carriedSum(row, items) && isItem(row, cols)) return { start: i, cols };
  }
  return undefined;
}

/**
 * Items of a table under a recognised header row; in a table grouped by tax rate, across the groups' totals; in a
 * table over several pages, across the page breaks (`nextPagePart`).
 */
export function tableItems(rows: Row[], headerIndex: number, headerCols: Column[]): LineItem[] {
  const items: LineItem[] = [];
  let cols = headerCols;
  let page = rows[headerIndex]!.page;
  const wholeAmounts = !rows.some((r) => findAmounts(r.text).length > 0);
  const decimalComma = printsDecimalComma(rows);
  const rowItem = (r: Row, under = cols) => {
    const item = itemOfRow(r, under, true, decimalComma);
    return wholeAmounts || item.numeric !== 1 || findAmounts(r.text).length > 0 ? item : itemOfRow(r, under, false, decimalComma);
  };
  // An item fills the table's columns: a description and two numbers or more.
  const fillsColumns = (r: Row, under = cols) => {
    const { item, numeric } = rowItem(r, under);
    return !!item.description && numeric >= 2;
  };
  // Some tables print each item's name on a row of its own above the row of its numbers ("POLY CHOPPING BOARD" over
  // "3 UNIT *  4.80  0.00  14.40  SR"): once an item has taken its name from above, rows of words are the next
  // item's name, not the last one's continuation.
  let above: Row | undefined;
  let namesAbove = false;
  // Others print it on the row below ("1  D  8.00 SR" over "Cmellete Item"): the first item tells, having no name
  // of its own and none above it.
  let namesBelow = false;
  const nameRow = (r: Row): Found => ({ value: r.text.trim(), raw: r.text, page: r.page, box: r.box, confidence: Math.round(r.confidence * 10) / 10 });
  // No description, or a mark too short to be one ("D"); a code is one, the row under it goes on with its name.
  const nameless = (d: Found | undefined) => !d || d.value.replace(/[^\p{L}\d]/gu, '').length < 3;
  const wordsAlone = (r: Row | undefined) =>
    !!r && r.page === page && rowItem(r).numeric === 0 && /\p{L}{3,}/u.test(r.text) && !isTotalsRow(r) && !summaryRow(r, items);
  // Where the table's rows on a page end at row `i`: the row before the next page's first item, or none.
  const turnPage = (i: number): number | undefined => {
    const next = nextPagePart(rows, page, i, items, cols, fillsColumns);
    if (!next) return undefined;
    cols = next.cols;
    page = rows[next.start]?.page ?? page;
    above = undefined;
    return next.start - 1;
  };
  for (let i = headerIndex + 1; i < rows.length; i++) {
    const row = rows[i]!;
    const ends = row.page !== page || isTotalsRow(row) || summaryRow(row, items);
    if (ends && row.page === page && items.length && rateTotalRow(row) && itemsGoOn(rows, i, fillsColumns)) continue;
    if (ends) {
      const resume = turnPage(i);
      if (resume === undefined) break;
      i = resume;
      continue;
    }
    const { item, numeric } = rowItem(row);
    // A subtotal carried over ends the page's rows though no total word labels it ("Carried forward  22,00").
    if (numeric === 1 && carriedSum(row, items)) {
      const resume = turnPage(i);
      if (resume !== undefined) {
        i = resume;
        continue;
      }
    }
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
      const resume = turnPage(i);
      if (resume === undefined) break;
      i = resume;
      continue;
    }
    if (!namesItem(item.description?.value) && above) {
      item.description = nameRow(above);
      namesAbove = true;
    } else if (nameless(item.description) && !namesAbove && (namesBelow || !items.length) && wordsAlone(rows[i + 1])) {
      item.description = nameRow(rows[i + 1]!);
      namesBelow = true;
      i++;
    }
    above = undefined;
    item.row = { value: row.text, raw: row.text, page: row.page, box: row.box, confidence: Math.round(row.confidence * 10) / 10 };
    items.push(item);
  }
  return items;
}
