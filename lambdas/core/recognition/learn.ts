/**
 * Learning from corrections. When a person confirms a document's fields, `learnLayout` records
 * where each value sat, the words printed next to it and how dates were written. On the same
 * supplier's next document `applyLayout` reads those fields from the same place (found again by
 * their label words, else by position) and overrides what the general extractor found. Fields that
 * are the same on every document of the supplier (its name, address, codes, bank details) are not
 * read by position: the confirmed text is looked for among the printed words, and taken where found.
 * A total the person put right teaches where the supplier prints the amount paid: on the next documents the amount at
 * that line is taken over the general reading's, and a document whose general reading that line contradicts is not
 * ready by itself (docs/recognition.md, "Matching and learning").
 */
import type { ExpenseField } from '@aws-sdk/client-textract';
import { READY_CONFIDENCE } from '../documents/content';
import { extractRows } from './extract';
import { findAmounts, formatAmount } from './extract/amounts';
import { findDates, formatOfMatch, type DateOrder } from './extract/dates';
import { compactId } from './extract/identifiers';
import { BUSINESS_WORDS, normaliseCompanyName } from './extract/legal';
import { buildRow, type Row } from './extract/rows';
import { digitLookAlike, foldDiacritics, levenshtein } from './extract/text';
import { blocksToDocument, geometry, HEADER_TYPE } from './expense';
import { bottom, centerY, groupWordsIntoLines, right, unionBoxes } from './geometry';
import { mapExpenseToFields } from './map-fields';
import { identifiersDiffer } from './match';
import type {
  AnalyzeExpenseResult,
  Box,
  DateFormat,
  ExtractedFields,
  FieldLayout,
  FieldValue,
  HeaderFieldId,
  OcrWord,
  Stakeholder,
  SupplierLayoutHint,
} from './types';

export type ConfirmedFields = Partial<Record<HeaderFieldId, string>>;
/** Where the document's content says a confirmed value was read (its stored position), by field. */
export type ConfirmedPlaces = Partial<Record<HeaderFieldId, { page: number; box: Box }>>;

const KIND: Record<HeaderFieldId, FieldLayout['kind']> = {
  supplier_name: 'text',
  supplier_code: 'code',
  supplier_vat_id: 'code',
  supplier_address: 'text',
  customer_name: 'text',
  customer_code: 'code',
  customer_vat_id: 'code',
  document_id: 'code',
  issue_date: 'date',
  due_date: 'date',
  currency: 'code',
  amount_total: 'amount',
  amount_total_base: 'amount',
  amount_tax: 'amount',
  iban: 'code',
  bic_swift: 'code',
};

/**
 * The document's own values: its number, dates and amounts change from one document to the next. Every other
 * header field is a party's (the supplier's name, address, codes, bank details; the customer's): printed the same
 * on every document of one supplier, learnt as its confirmed text and found again by it (`findPrinted`), never
 * read from a position — a receipt's lines move with its length, and a value read where the name was is whatever
 * is printed there.
 */
const DOCUMENT_VALUES: ReadonlySet<HeaderFieldId> = new Set(['document_id', 'issue_date', 'due_date', 'amount_total', 'amount_total_base', 'amount_tax']);
const sameOnEveryDocument = (field: HeaderFieldId) => !DOCUMENT_VALUES.has(field);

/** A labelled value's label is at most this many words (`labelOf`); a shorter label was whole. */
const LABEL_WORDS = 4;
/** A gap wider than this many word heights ends a label (`labelOf`). */
const LABEL_GAP_HEIGHTS = 6;

function rowsOf(words: OcrWord[]): Row[] {
  const pages = [...new Set(words.map((w) => w.page))].sort((a, b) => a - b);
  const rows: Row[] = [];
  for (const p of pages) {
    for (const line of groupWordsIntoLines(words.filter((w) => w.page === p))) rows.push(buildRow(line.words, p, rows.length));
  }
  return rows;
}

function wordKey(s: string): string {
  return foldDiacritics(s).toLowerCase().replace(/[^a-z0-9#%]/g, '');
}

/**
 * Where a known text is printed: the page's words in reading order, letters and digits only, searched for the
 * text with at most one slip in ten characters for text (a misread letter, as names are matched in master
 * data; never a digit: `1320-TMN BATU` is another branch than `1558-TMN PUSAT KEPONG`) and none for codes (a VAT
 * ID a digit off is another company's). Answers the words it covers.
 */
export function findPrinted(rows: Row[], value: string, kind: FieldLayout['kind']): { words: OcrWord[]; page: number; slips: number } | undefined {
  const target = wordKey(value);
  if (target.length < 2) return undefined;
  const allowed = kind === 'text' ? Math.floor(target.length / 10) : 0;
  let best: { words: OcrWord[]; page: number; slips: number } | undefined;
  for (const page of [...new Set(rows.map((r) => r.page))]) {
    const owners: OcrWord[] = [];
    let text = '';
    for (const row of rows) {
      if (row.page !== page) continue;
      for (const w of row.words) {
        const k = wordKey(w.text);
        text += k;
        for (let i = 0; i < k.length; i++) owners.push(w);
      }
    }
    const hit = approximateSubstring(target, text, allowed);
    if (hit && (!best || hit.slips < best.slips)) best = { words: [...new Set(owners.slice(hit.start, hit.end))], page, slips: hit.slips };
  }
  return best;
}

/**
 * The place in `text` where `pattern` occurs with the fewest edits, if at most `allowed` (edit distance of the
 * pattern to a substring, digits kept but for their look-alike letters; the first such place).
 */
function approximateSubstring(pattern: string, text: string, allowed: number): { start: number; end: number; slips: number } | undefined {
  if (allowed === 0) {
    const at = text.indexOf(pattern);
    return at < 0 ? undefined : { start: at, end: at + pattern.length, slips: 0 };
  }
  const m = pattern.length;
  // A digit is never a slip — another house number, postcode or branch number is another place — but for the
  // letter it looks like (`STATI0NERY`).
  const never = allowed + 1;
  const edit = (c: string) => (/\d/.test(c) ? never : 1);
  const swap = (p: string, t: string) => (digitLookAlike(p, t) ? 1 : Math.max(edit(p), edit(t)));
  // cost[i] and start[i]: the fewest edits of pattern[0..i) ending at the current text position, and where that substring starts.
  let cost = [0];
  for (let i = 1; i <= m; i++) cost.push(cost[i - 1]! + edit(pattern[i - 1]!));
  let start = new Array<number>(m + 1).fill(0);
  let best: { start: number; end: number; slips: number } | undefined;
  for (let j = 1; j <= text.length; j++) {
    const t = text[j - 1]!;
    const next = [0];
    const nextStart = [j];
    for (let i = 1; i <= m; i++) {
      const p = pattern[i - 1]!;
      const sub = cost[i - 1]! + (p === t ? 0 : swap(p, t));
      const del = cost[i]! + edit(t);
      const ins = next[i - 1]! + edit(p);
      const c = Math.min(sub, del, ins);
      next.push(c);
      nextStart.push(c === sub ? start[i - 1]! : c === del ? start[i]! : nextStart[i - 1]!);
    }
    cost = next;
    start = nextStart;
    if (cost[m]! <= allowed && (!best || cost[m]! < best.slips)) best = { start: start[m]!, end: j, slips: cost[m]! };
  }
  return best;
}

/** A document number's series: letters and digits as runs (`OR18031202170432` → `A9`), other characters kept. */
function seriesShape(s: string): string {
  return s.trim().replace(/\p{L}+/gu, 'A').replace(/\d+/g, '9');
}

/** Another number of the series a confirmed number belongs to: the same shape and about as long. */
function sameSeries(confirmed: string, read: string): boolean {
  return seriesShape(confirmed) === seriesShape(read) && Math.abs(confirmed.trim().length - read.trim().length) <= 2;
}

interface Span {
  row: Row;
  first: number;
  last: number;
  dateOrder?: DateOrder;
  dateFormat?: DateFormat;
  /** An amount found printed with its decimals. */
  decimals?: boolean;
}

function wordIndexAt(row: Row, charIndex: number): number {
  const i = row.spans.findIndex((s) => s.end > charIndex);
  return i < 0 ? row.words.length - 1 : i;
}

/**
 * Where a confirmed value is printed among the words: on the row where the content says it was read, when it is
 * printed there (an amount is printed on several rows of a receipt — an item's price, the sub-total, the total);
 * else on the first row that prints it (a value typed by hand keeps the position of the value it replaced).
 */
function locateValue(rows: Row[], field: HeaderFieldId, value: string, place?: { page: number; box: Box }): Span | undefined {
  if (place) {
    const mid = centerY(place.box);
    const there = rows.filter((r) => r.page === place.page && Math.abs(centerY(r.box) - mid) <= Math.max(r.box.height, place.box.height) / 2);
    const span = there.length ? locateIn(there, field, value) : undefined;
    if (span) return span;
  }
  return locateIn(rows, field, value);
}

/** The words whose centre lies in a place on the page (a stored value's position). */
function wordsAt(words: OcrWord[], place: { page: number; box: Box }): OcrWord[] {
  const inside = (b: Box) => {
    const x = b.left + b.width / 2;
    const y = centerY(b);
    return x >= place.box.left - 0.002 && x <= right(place.box) + 0.002 && y >= place.box.top - 0.002 && y <= bottom(place.box) + 0.002;
  };
  return words.filter((w) => w.page === place.page && inside(w.box));
}

/** The words of a name that tell it from others: three letters or more, not a legal form nor a business word (KEDAI, TRADING). */
function ownNameWords(name: string): Set<string> {
  return new Set(normaliseCompanyName(name).split(' ').filter((w) => /[A-Z]{3}/.test(w) && !BUSINESS_WORDS.has(w)));
}

/**
 * The supplier's name as the page prints it where the content says the name was read (its words there, in reading
 * order), when that is another name than the confirmed one once normalised — the register's name written over the
 * one read ("KEDAI KOPI HONG LEE" linked to "Hong Lee Kopitiam"), or a name typed over it — and still names the same
 * party: it shares a word of its own with the confirmed name. Text read as the name that is no name of the supplier
 * ("TAX INVOICE" typed over) is none. The supplier's next document prints this one, and is read and looked up by it.
 */
export function printedNameAt(confirmedName: string | undefined, ocrWords: OcrWord[], place: { page: number; box: Box } | undefined): string | undefined {
  if (!place || !confirmedName) return undefined;
  const printed = rowsOf(wordsAt(ocrWords, place))
    .map((r) => r.text)
    .join(' ')
    .trim();
  if (!printed || normaliseCompanyName(printed) === normaliseCompanyName(confirmedName)) return undefined;
  const own = ownNameWords(confirmedName);
  return [...ownNameWords(printed)].some((w) => own.has(w)) ? printed : undefined;
}

/**
 * Was a confirmed total put right by the person, not confirmed as read: the words at the place the content keeps for
 * it read another amount (a value typed over the one read there keeps its place), or the general reading of these
 * words takes another amount for the total (a value picked elsewhere on the page, or typed where nothing was read).
 */
function totalPutRight(rows: Row[], words: OcrWord[], value: string, place: { page: number; box: Box } | undefined): boolean {
  const target = Number(value);
  const reads = (text: string) => findAmounts(text).some((a) => Math.abs(a.value - target) < 0.005);
  if (place) {
    const there = wordsAt(words, place).sort((a, b) => a.box.left - b.box.left);
    if (there.length && !reads(there.map((w) => w.text).join(' '))) return true;
  }
  const read = extractRows(rows).fields.amount_total;
  return read !== undefined && Math.abs(Number(read.value) - target) >= 0.005;
}

/**
 * The first of the rows that prints a confirmed value of the document (a date, an amount, its number). An amount
 * is looked for printed with its decimals first: `21.00` is the tax of `VAT 21% 21.00`, not its rate.
 */
function locateIn(rows: Row[], field: HeaderFieldId, value: string): Span | undefined {
  const kind = KIND[field];
  if (kind === 'amount') {
    const target = Number(value);
    for (const decimals of [true, false]) {
      for (const row of rows) {
        const m = findAmounts(row.text, { requireDecimals: decimals }).find((a) => Math.abs(a.value - target) < 0.001);
        if (m) return { row, first: wordIndexAt(row, m.index), last: wordIndexAt(row, m.index + m.raw.length - 1), ...(decimals ? { decimals } : {}) };
      }
    }
    return undefined;
  }
  for (const row of rows) {
    if (kind === 'date') {
      for (const order of ['DMY', 'MDY'] as const) {
        const m = findDates(row.text, { defaultOrder: order }).find((d) => d.iso === value);
        if (m) {
          const fmt = formatOfMatch(m);
          return { row, first: wordIndexAt(row, m.index), last: wordIndexAt(row, m.index + m.raw.length - 1), ...(m.order ? { dateOrder: m.order } : {}), ...(fmt ? { dateFormat: fmt } : {}) };
        }
      }
    } else {
      // A document number, printed in up to six pieces.
      const target = compactId(value);
      for (let i = 0; i < row.words.length; i++) {
        let acc = '';
        for (let j = i; j < row.words.length && j < i + 6; j++) {
          acc += compactId(row.words[j]!.text).replace(/^[:#(]+|[:)]+$/g, '');
          if (acc === target) return { row, first: i, last: j };
          if (!target.startsWith(acc)) break;
        }
      }
    }
  }
  return undefined;
}

/**
 * The label of a value: the words before it in its row — the nearest group of words, however far (a receipt
 * prints its labels on the left and its amounts on the right), up to a wide gap inside the group or four
 * words —, else the row above over the value.
 */
function labelOf(rows: Row[], span: Span): { words: string[]; box: Box } | undefined {
  const { row, first } = span;
  const before = row.words.slice(0, first);
  const label: OcrWord[] = [];
  for (let i = before.length - 1; i >= 0 && label.length < LABEL_WORDS; i--) {
    const w = before[i]!;
    if (label.length && label[0]!.box.left - right(w.box) > w.box.height * LABEL_GAP_HEIGHTS) break;
    label.unshift(w);
  }
  const keep = label.filter((w) => wordKey(w.text) && !/^\d[\d.,/-]*$/.test(w.text));
  if (keep.length) return { words: keep.map((w) => wordKey(w.text)), box: unionBoxes(keep.map((w) => w.box)) };
  const valueBox = unionBoxes(row.words.slice(span.first, span.last + 1).map((w) => w.box));
  const above = rows.filter((r) => r.page === row.page && r.index < row.index && bottom(r.box) <= valueBox.top + 0.002).pop();
  if (above && valueBox.top - bottom(above.box) < valueBox.height * 2) {
    const ws = above.words.filter((w) => right(w.box) > valueBox.left - 0.02 && w.box.left < right(valueBox) + 0.02);
    // Another value printed above (an amount, a date) is not a label.
    const k = ws.filter((w) => wordKey(w.text) && !/^\d[\d.,/-]*$/.test(w.text));
    if (k.length) return { words: k.map((w) => wordKey(w.text)), box: unionBoxes(k.map((w) => w.box)) };
  }
  return undefined;
}

/**
 * What a confirmed document teaches about its supplier's layout: for every confirmed field, the box
 * of its value, the label words next to it and, for dates, the printed format.
 */
export function learnLayout(confirmed: ConfirmedFields, ocrWords: OcrWord[], places: ConfirmedPlaces = {}): SupplierLayoutHint {
  const rows = rowsOf(ocrWords);
  const fields: FieldLayout[] = [];
  let dateFormat: DateFormat | undefined;
  for (const [id, value] of Object.entries(confirmed) as [HeaderFieldId, string][]) {
    if (!value) continue;
    if (sameOnEveryDocument(id)) {
      const found = findPrinted(rows, value, KIND[id]);
      if (found) fields.push({ field: id, page: found.page, box: unionBoxes(found.words.map((w) => w.box)), labelWords: [], kind: KIND[id], value });
      continue;
    }
    const span = locateValue(rows, id, value, places[id]);
    if (!span) continue;
    const box = unionBoxes(span.row.words.slice(span.first, span.last + 1).map((w) => w.box));
    const label = labelOf(rows, span);
    const layout: FieldLayout = { field: id, page: span.row.page, box, labelWords: label?.words ?? [], kind: KIND[id], value };
    if (label) layout.labelOffset = { dx: box.left - label.box.left, dy: box.top - label.box.top };
    if (span.decimals) layout.decimals = true;
    if (id === 'amount_total' && totalPutRight(rows, ocrWords, value, places[id])) layout.corrected = true;
    if (span.dateFormat) {
      layout.dateFormat = span.dateFormat;
      // Only formats with a numeric order settle ambiguity on the next documents.
      if (span.dateOrder && span.dateOrder !== 'YMD') dateFormat ??= span.dateFormat;
    }
    fields.push(layout);
  }
  const supplier: SupplierLayoutHint['supplier'] = {};
  if (confirmed.supplier_name) supplier.name = confirmed.supplier_name;
  const printedName = printedNameAt(confirmed.supplier_name, ocrWords, places.supplier_name);
  if (printedName) supplier.printed_name = printedName;
  if (confirmed.supplier_code) supplier.code = confirmed.supplier_code;
  if (confirmed.supplier_vat_id) supplier.vat_id = compactId(confirmed.supplier_vat_id);
  return { supplier, ...(dateFormat ? { dateFormat } : {}), fields };
}

/** Finds the label words in a row (allowing one OCR slip per word); returns the index after them. */
function findLabel(row: Row, label: string[]): { first: number; end: number } | undefined {
  const keys = row.words.map((w) => wordKey(w.text));
  for (let i = 0; i + label.length <= keys.length; i++) {
    let ok = true;
    for (let k = 0; k < label.length && ok; k++) {
      const a = keys[i + k]!;
      const b = label[k]!;
      ok = a === b || (b.length >= 4 && levenshtein(a, b, 1) <= 1);
    }
    if (ok) return { first: i, end: i + label.length };
  }
  return undefined;
}

/**
 * A document's own value (a date, an amount, its number) in the words found where it was expected. The party's
 * fields are not read so (`constantAt`).
 */
function parseAt(kind: FieldLayout['kind'], words: OcrWord[], layout: FieldLayout, hintFormat: DateFormat | undefined): FieldValue | undefined {
  if (!words.length) return undefined;
  const row = buildRow(words, words[0]!.page, 0);
  const conf = Math.round((words.reduce((s, w) => s + w.confidence, 0) / words.length) * 10) / 10;
  const at = (first: number, last: number, value: string): FieldValue => ({
    value,
    page: row.page,
    box: unionBoxes(row.words.slice(first, last + 1).map((w) => w.box)),
    confidence: conf,
  });
  if (kind === 'date') {
    const fmt = layout.dateFormat ?? hintFormat;
    const m = findDates(row.text, fmt ? { format: fmt } : {})[0];
    return m ? at(wordIndexAt(row, m.index), wordIndexAt(row, m.index + m.raw.length - 1), m.iso) : undefined;
  }
  if (kind === 'amount') {
    // Printed with decimals where it was learnt so: bare digits there are a code's (`VAT code LT100002222222`)
    const m = findAmounts(row.text, { requireDecimals: Boolean(layout.decimals) })[0];
    return m ? at(wordIndexAt(row, m.index), wordIndexAt(row, m.index + m.raw.length - 1), formatAmount(m.value)) : undefined;
  }
  if (kind !== 'code') return undefined;
  // A document number: as many words as the learnt value had, judged by its width; its dashes kept.
  let last = 0;
  while (last + 1 < row.words.length && right(row.words[last + 1]!.box) <= row.words[0]!.box.left + layout.box.width * 1.3 + 0.005) last++;
  const value = row.words.slice(0, last + 1).map((w) => w.text).join('').replace(/^[:#(]+|[:),.;]+$/g, '');
  return value ? at(0, last, value) : undefined;
}

/** Words of a page that start inside a region. */
function wordsIn(words: OcrWord[], page: number, box: Box): OcrWord[] {
  return words
    .filter((w) => w.page === page && w.box.left >= box.left - 0.002 && w.box.left <= right(box) && w.box.top + w.box.height / 2 >= box.top && w.box.top + w.box.height / 2 <= bottom(box))
    .sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
}

/** The value was learnt on its label's row (not under it). */
const besideItsLabel = (layout: FieldLayout) => layout.labelOffset !== undefined && Math.abs(layout.labelOffset.dy) < layout.box.height / 2;

/**
 * The learnt label is the whole label of a value on this row: no label word printed right before it
 * (`labelOf`'s bounds; `TOTAL` is not the end of `SUB TOTAL`), and — for a value printed beside its label — no
 * word between it and the value (`TOTAL SALES INCLUSIVE GST` is another label).
 */
function wholeLabel(row: Row, hit: { first: number; end: number }, layout: FieldLayout, valueLeft: number): boolean {
  if (!besideItsLabel(layout)) return true;
  if (row.words.slice(hit.end).some((w) => w.box.left < valueLeft)) return false;
  if (hit.first === 0 || layout.labelWords.length >= LABEL_WORDS) return true;
  const before = row.words[hit.first - 1]!;
  return row.words[hit.first]!.box.left - right(before.box) > before.box.height * LABEL_GAP_HEIGHTS;
}

/** A field the same on every document of the supplier, where its confirmed text is printed on this one. */
function constantAt(layout: FieldLayout, rows: Row[]): FieldValue | undefined {
  if (!layout.value) return undefined;
  const found = findPrinted(rows, layout.value, layout.kind);
  if (!found) return undefined;
  const confidence = Math.round((found.words.reduce((s, w) => s + w.confidence, 0) / found.words.length) * 10) / 10;
  return { value: layout.value, page: found.page, box: unionBoxes(found.words.map((w) => w.box)), confidence };
}

/**
 * Reads the hint's fields on a new document of the same supplier. The supplier's own fields are taken where
 * their confirmed text is printed; the others are read at their label, else — for a value learnt without a
 * label, or a date or number whose form the reading checks — where the value was. A document number is kept
 * only when it is of the confirmed number's series.
 */
export function applyLayout(hint: SupplierLayoutHint, ocrWords: OcrWord[]): Partial<Record<HeaderFieldId, FieldValue>> {
  return readLayout(hint, ocrWords).values;
}

/** What a hint reads on a document: the values, and for each field the rows where its whole learnt label is printed. */
interface LayoutReading {
  values: Partial<Record<HeaderFieldId, FieldValue>>;
  labelRows: Partial<Record<HeaderFieldId, { page: number; box: Box }[]>>;
}

function readLayout(hint: SupplierLayoutHint, ocrWords: OcrWord[]): LayoutReading {
  const rows = rowsOf(ocrWords);
  const out: Partial<Record<HeaderFieldId, FieldValue>> = {};
  const labelRows: LayoutReading['labelRows'] = {};
  for (const layout of hint.fields) {
    if (sameOnEveryDocument(layout.field)) {
      const value = constantAt(layout, rows);
      if (value) out[layout.field] = value;
      continue;
    }
    let value: FieldValue | undefined;
    const fits = (v: FieldValue | undefined) => v !== undefined && (layout.field !== 'document_id' || !layout.value || sameSeries(layout.value, v.value));
    // 1. By the label: the value sits at the learnt offset from the label words.
    if (layout.labelWords.length && layout.labelOffset) {
      for (const row of rows) {
        if (row.page !== layout.page && layout.kind !== 'amount') continue;
        const hit = findLabel(row, layout.labelWords);
        if (!hit) continue;
        const labelBox = unionBoxes(row.words.slice(hit.first, hit.end).map((w) => w.box));
        if (!wholeLabel(row, hit, layout, labelBox.left + layout.labelOffset.dx - 0.01)) continue;
        (labelRows[layout.field] ??= []).push({ page: row.page, box: row.box });
        const width = Math.max(layout.box.width * 2, 0.15);
        // A value printed beside its label is read on the label's row only (the row under it holds other values).
        const expected: Box = besideItsLabel(layout)
          ? { left: labelBox.left + layout.labelOffset.dx - 0.01, top: row.box.top, width, height: row.box.height }
          : {
              left: labelBox.left + layout.labelOffset.dx - 0.01,
              top: labelBox.top + layout.labelOffset.dy - layout.box.height * 0.6,
              width,
              height: layout.box.height * 2.2,
            };
        value = parseAt(layout.kind, wordsIn(ocrWords, row.page, expected), layout, hint.dateFormat);
        if (fits(value)) break;
        value = undefined;
      }
    }
    // 2. By position: the words where the value was. An amount learnt at its label is not read where it was:
    // any amount printed there reads as one, and a receipt's amounts move with its length.
    if (!value && !(layout.kind === 'amount' && layout.labelWords.length)) {
      const b = layout.box;
      const region: Box = { left: b.left - 0.01, top: b.top - b.height * 0.8, width: Math.max(b.width * 2, 0.1), height: b.height * 2.6 };
      value = parseAt(layout.kind, wordsIn(ocrWords, layout.page, region), layout, hint.dateFormat);
      if (!fits(value)) value = undefined;
    }
    if (value) out[layout.field] = value;
  }
  return { values: out, labelRows };
}

/**
 * The hint whose supplier matches the document's (VAT ID, company code, then normalised name — not a supplier
 * whose VAT ID or code differs from the document's).
 */
export function selectHint(hints: SupplierLayoutHint[] | undefined, fields: ExtractedFields, ocrWords: OcrWord[] = []): SupplierLayoutHint | undefined {
  if (!hints?.length) return undefined;
  const vat = fields.supplier_vat_id ? compactId(fields.supplier_vat_id.value) : undefined;
  const code = fields.supplier_code ? compactId(fields.supplier_code.value) : undefined;
  const name = fields.supplier_name ? normaliseCompanyName(fields.supplier_name.value) : undefined;
  const byVat = vat && hints.find((h) => h.supplier.vat_id && compactId(h.supplier.vat_id) === vat);
  if (byVat) return byVat;
  const byCode = code && hints.find((h) => h.supplier.code && compactId(h.supplier.code) === code);
  if (byCode) return byCode;
  // Another company of the same trading name (its own VAT ID or code, `identifiersDiffer`) has another layout.
  const party = { ...(vat ? { vat_id: vat } : {}), ...(code ? { code } : {}) };
  const named = (n: string | undefined) => Boolean(n && normaliseCompanyName(n) === name);
  const byName = name && hints.find((h) => (named(h.supplier.name) || named(h.supplier.printed_name)) && !identifiersDiffer(party, h.supplier));
  if (byName) return byName;
  // The supplier's VAT ID or code printed anywhere on the page (the extractor may have missed it).
  const all = compactId(ocrWords.map((w) => w.text).join(''));
  return hints.find((h) => (h.supplier.vat_id && all.includes(compactId(h.supplier.vat_id))) || (h.supplier.code && h.supplier.code.length >= 7 && all.includes(compactId(h.supplier.code))));
}

/** A hint from master data alone: the stakeholder's identity and known date format, no learnt positions. */
export function hintFromStakeholder(s: Stakeholder): SupplierLayoutHint {
  const supplier: SupplierLayoutHint['supplier'] = { id: s.id, name: s.name };
  if (s.code) supplier.code = s.code;
  if (s.vat_id) supplier.vat_id = s.vat_id;
  return { supplier, ...(s.date_format ? { dateFormat: s.date_format } : {}), fields: [] };
}

/** Dates of a result read again from their printed words with the supplier's date format. */
function rereadDates(summary: ExpenseField[], words: OcrWord[], format: DateFormat): void {
  for (const [i, f] of summary.entries()) {
    if (f.Type?.Text !== HEADER_TYPE.issue_date && f.Type?.Text !== HEADER_TYPE.due_date) continue;
    const bb = f.ValueDetection?.Geometry?.BoundingBox;
    if (!bb) continue;
    const box: Box = { left: bb.Left ?? 0, top: bb.Top ?? 0, width: bb.Width ?? 0, height: bb.Height ?? 0 };
    const printed = words
      .filter((w) => w.page === (f.PageNumber ?? 1) && w.box.left < right(box) + 0.002 && right(w.box) > box.left - 0.002 && w.box.top < bottom(box) && bottom(w.box) > box.top)
      .sort((a, b) => a.box.left - b.box.left)
      .map((w) => w.text)
      .join(' ');
    const d = findDates(printed, { format })[0] ?? findDates(f.ValueDetection?.Text ?? '', { format })[0];
    if (d) summary[i] = { ...f, ValueDetection: { ...f.ValueDetection, Text: d.iso } };
  }
}

/**
 * The issue and due dates of a result read again with a known date format (the matched stakeholder's
 * selected_date_format): an ambiguous date such as 01/02/2024 is then read in that order. Unambiguous
 * dates and dates with a month name read the same in any format.
 */
export function applyDateFormat(result: AnalyzeExpenseResult, format: DateFormat): AnalyzeExpenseResult {
  if (!result.ExpenseDocuments?.length) return result;
  const doc = blocksToDocument(result);
  const words = doc.pages.flatMap((p) => p.lines.flatMap((l) => l.words));
  const [first, ...rest] = result.ExpenseDocuments;
  const summary = [...(first!.SummaryFields ?? [])];
  rereadDates(summary, words, format);
  return { ...result, ExpenseDocuments: [{ ...first!, SummaryFields: summary }, ...rest] };
}

/**
 * The day-and-month order a confirmed document's dates show as printed, as the date format that reads them so
 * ('DD/MM/YYYY' or 'MM/DD/YYYY'): a confirmed issue or due date whose day and month differ, found printed as a
 * numeric date on the page (on the row the content says it was read from, else the first row printing it). A date
 * whose day equals its month, written year first or with a month name, or not found, tells nothing; two dates that
 * tell different orders tell nothing either. The confirm uses it to correct a stakeholder's date format that a
 * reviewer's correction contradicts (docs/recognition.md, "Date format").
 */
export function confirmedDateOrder(confirmed: ConfirmedFields, ocrWords: OcrWord[], places: ConfirmedPlaces = {}): 'DD/MM/YYYY' | 'MM/DD/YYYY' | undefined {
  const orders = new Set<'DD/MM/YYYY' | 'MM/DD/YYYY'>();
  let rows: Row[] | undefined;
  for (const field of ['issue_date', 'due_date'] as const) {
    const value = confirmed[field]?.trim();
    const m = value ? /^\d{4}-(\d{2})-(\d{2})$/.exec(value) : null;
    if (!value || !m || m[1] === m[2]) continue;
    rows ??= rowsOf(ocrWords);
    const span = locateValue(rows, field, value, places[field]);
    if (span?.dateOrder === 'DMY') orders.add('DD/MM/YYYY');
    else if (span?.dateOrder === 'MDY') orders.add('MM/DD/YYYY');
  }
  return orders.size === 1 ? [...orders][0] : undefined;
}

/** How a learnt total weighs against the total the general reading took. */
type TotalOutcome = 'learnt' | 'read' | 'read in doubt';

/**
 * The learnt total against a total the extraction read surely. Its amounts are checked against each other
 * (sub-total and tax, tendered and change, rounding), a learnt place is not: the read total stays — but for a total
 * the person put right (`FieldLayout.corrected`: the amount paid after a discount, not the total above it) and
 * learnt at its label. Its line printed with another amount: that amount is taken. Its line printed without a
 * readable amount while the read total is elsewhere: the read total stays in doubt, so that the document is not
 * ready by itself with the amount the person put right before. Its line not printed (a receipt without a
 * discount): the read total stays. A total confirmed as read teaches nothing the general reading does not know.
 */
function weighTotal(read: ExpenseField, layout: FieldLayout | undefined, learnt: FieldValue | undefined, labelRows: { page: number; box: Box }[] = []): TotalOutcome {
  if (!layout?.corrected || !layout.labelWords.length) return 'read';
  if (learnt) return Math.abs(Number(learnt.value) - Number(read.ValueDetection?.Text)) < 0.005 ? 'read' : 'learnt';
  const bb = read.ValueDetection?.Geometry?.BoundingBox;
  const readMid = bb ? (bb.Top ?? 0) + (bb.Height ?? 0) / 2 : NaN;
  const onLearntLine = labelRows.some((r) => r.page === (read.PageNumber ?? 1) && readMid >= r.box.top && readMid <= bottom(r.box));
  return labelRows.length && !onLearntLine ? 'read in doubt' : 'read';
}

/**
 * Applies the matching hint to an AnalyzeExpense result (from either recogniser): the hint's fields
 * replace the SummaryFields of the same type — but for an amount the extraction read with the ready rule's
 * confidence, which stays (a total as `weighTotal` says).
 */
export function applyHintsToResult(result: AnalyzeExpenseResult, hints: SupplierLayoutHint[] | undefined): AnalyzeExpenseResult {
  if (!hints?.length || !result.ExpenseDocuments?.length) return result;
  const doc = blocksToDocument(result);
  const words = doc.pages.flatMap((p) => p.lines.flatMap((l) => l.words));
  const hint = selectHint(hints, mapExpenseToFields(result), words);
  if (!hint) return result;
  const { values: overrides, labelRows } = readLayout(hint, words);
  const [first, ...rest] = result.ExpenseDocuments;
  const summary = [...(first!.SummaryFields ?? [])];
  if (hint.dateFormat) rereadDates(summary, words, hint.dateFormat);
  const header = (f: ExpenseField, id: HeaderFieldId) => f.Type?.Text === HEADER_TYPE[id] && !(f.GroupProperties ?? []).some((g) => g.Types?.includes('VAT_LINE'));
  const sure = (f: ExpenseField | undefined): f is ExpenseField => (f?.ValueDetection?.Confidence ?? 0) >= READY_CONFIDENCE;
  const readTotalAt = summary.findIndex((f) => header(f, 'amount_total'));
  const readTotal = readTotalAt >= 0 ? summary[readTotalAt] : undefined;
  const totalOutcome: TotalOutcome = sure(readTotal)
    ? weighTotal(readTotal, hint.fields.find((f) => f.field === 'amount_total' && f.kind === 'amount'), overrides.amount_total, labelRows.amount_total)
    : 'learnt';
  if (totalOutcome === 'read in doubt') {
    // Under the ready rule's confidence: the document waits for a person.
    const confidence = Math.min(readTotal!.ValueDetection?.Confidence ?? 0, READY_CONFIDENCE - 1);
    summary[readTotalAt] = { ...readTotal!, ValueDetection: { ...readTotal!.ValueDetection, Confidence: confidence } };
  }
  const totalText = (totalOutcome === 'learnt' ? overrides.amount_total?.value : undefined) ?? readTotal?.ValueDetection?.Text;
  const total = totalText ? Math.abs(Number(totalText)) : NaN;
  for (const [id, v] of Object.entries(overrides) as [HeaderFieldId, FieldValue][]) {
    // The tax and the net are parts of the total: a learnt place that reads more than the total read something else
    if ((id === 'amount_tax' || id === 'amount_total_base') && Number.isFinite(total) && Math.abs(Number(v.value)) > total + 0.005) continue;
    const type = HEADER_TYPE[id];
    const replacement: ExpenseField = {
      Type: { Text: type, Confidence: v.confidence },
      ValueDetection: { Text: v.value, Geometry: geometry(v.box), Confidence: v.confidence },
      PageNumber: v.page,
    };
    const i = summary.findIndex((f) => header(f, id));
    // An amount the extraction read surely stays: its amounts are checked against each other (sub-total and tax,
    // tendered and change, rounding), a learnt place is not. The layout fills amounts it missed or doubted, and takes
    // the total where the person put it right (`weighTotal`).
    if (id === 'amount_total' ? totalOutcome !== 'learnt' : i >= 0 && KIND[id] === 'amount' && sure(summary[i])) continue;
    if (i >= 0) {
      const currency = summary[i]!.Currency;
      summary[i] = currency ? { ...replacement, Currency: currency } : replacement;
    }
    else summary.push(replacement);
  }
  return { ...result, ExpenseDocuments: [{ ...first!, SummaryFields: summary }, ...rest] };
}
