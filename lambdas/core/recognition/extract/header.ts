/**
 * Labelled header fields: dates, document number, parties (seller / buyer blocks), company codes,
 * VAT IDs, IBAN, BIC, currency. English, Lithuanian and Malay labels.
 */
import { unionBoxes } from '../geometry';
import { hasAddressWord } from './address';
import type { DateFormat, OcrWord } from '../types';
import { currencyFromText, findAmounts } from './amounts';
import { findDates, monthFromName, type DateMatch, type DateOrder } from './dates';
import { findBics, findIbans, findVatIds, isValidIban } from './identifiers';
import { sureWords } from './known-spellings';
import { cleanCompanyName, looksLikeAddress, type NameOptions } from './supplier';
import { buildRow, foundInRow, labelIn, type Cell, type Found, type Row } from './rows';
import { collapseSpaces, confusionVariants, DIGIT_CONFUSIONS, fixDigits, foldDiacritics, levenshtein, oneSlipFrom } from './text';
import { isMalaysianAddress } from './places';

// Labels are matched on text with diacritics folded (ą → a), case-insensitive.
/**
 * A due date's label, as whole words: a word that holds one ("Duey", a speck read over the sale's stamp) is none.
 * Suppliers name the day to pay by in many ways: "Mokėti iki", "Apmokėti per", "Apmokėjimo data", "Payment date",
 * "Pay before", "Termin płatności" (Polish), "Apmaksas termiņš" (Latvian).
 */
const DUE_LABEL =
  /(?<![a-z])(due\s*date|payment\s*(due|date|deadline)|date\s*due|pay\s*(by|before)|payable\s*by|due\s*by|due|(ap|su)?moketi\s*(iki|per|ne\s*veliau\s*kaip)|(ap)?mokejimo\s*(terminas|data)|terminas|tarikh\s*akhir|zahlbar\s*bis|echeance|termin\s*p[lł]atnosci|apmaksas\s*termins)(?![a-z])/i;
/** Labels that name the invoice's (or receipt's) own date: they win over a bare "Date" / "Data" elsewhere. */
const NAMED_ISSUE_LABEL =
  /(invoice\s*date|date\s*of\s*(issue|invoice)|issue\s*date|issued(\s*on)?|receipt\s*date|bill\s*date|bizdate|doc(ument)?\s*date|tax\s*point|sask(aitos)?\s*(israsymo\s*)?data|israsymo\s*data|dokumento\s*data)/i;
const ISSUE_LABEL = new RegExp(`${NAMED_ISSUE_LABEL.source}|tarikh|datum|\\bdate\\b|\\bdata\\b|\\ble\\b`, 'i');
const OTHER_DATE_LABEL = /(delivery|shipping|ship|order\s*date|period|valid|expir|exp\.?\b|from|to\b|birth|pristatymo|laikotarpis|galioja|printed|time\s*:?\s*$|laikas)/i;
/**
 * "X date" right before the date names another date than the invoice's when X is the order, the delivery, the
 * shipping, a contract, a service, a period's start or end ("Order date:", "Užsakymo data:", "Prekių pristatymo
 * data:"): the generic "date" / "data" at its end makes it no issue label.
 */
const QUALIFIED_OTHER_DATE =
  /(?<![a-z])(order|delivery|shipping|ship|dispatch|despatch|contract|service|supply|performance|completion|start|end|expiry|birth|uzsakymo|pristatymo|tiekimo|sutarties|suteikimo|atlikimo|pradzios|pabaigos|gimimo)\s*(date|data|datum)\s*[:.\-]?\s*$/i;

/**
 * Words that name the invoice a credit note or a correcting invoice corrects ("Koreguojama sąskaita Nr. SD-117,
 * 2026-01-10", "Original invoice date:", "relating to invoice INV-117 of …", "zur Rechnung Nr. RE-117 vom …", "do
 * faktury nr … z dnia …"): a date they label is that invoice's, never the document's own.
 */
const CORRECTED_INVOICE =
  /(?<![a-z])((koreguojam|kredituojam|taisom|anuliuojam|pradin|originali)\w*\s*(pvm\s*)?(saskait|sf\b|faktur)|(original|corrected|credited|cancell?ed|referenced|relating\s*to|related\s*to|refers?\s*to|reference\s*to|regarding|correction\s*(of|to)|credit(ed)?\s*(for|against|on)|against)\s*(the\s*)?(tax\s*)?invoice|invoice\s*(being\s*)?(corrected|credited|cancell?ed)|(zur?|bezug\s*auf(\s*die)?|ursprunglichen?)\s*rechnung|originalrechnung|do\s*faktury|faktur\w*\s*korygowan|korygowan\w*\s*faktur|korigejam\w*\s*(pvn\s*)?rekin)/i;

/**
 * The words that label the date at `index` of `row`: those before it in its cell, else the nearest cell before it
 * that holds words (the date printed apart from its label), not before `from`.
 */
function dateLabelWords(row: Row, index: number, from: number): string {
  const starts = row.cells.map((cell) => row.spans[cell.first]?.start ?? 0).filter((start) => start < index);
  for (let k = starts.length - 1; k >= 0; k--) {
    const text = row.text.slice(Math.max(starts[k]!, from), k === starts.length - 1 ? index : starts[k + 1]).trim();
    if (/\p{L}{2,}/u.test(text)) return text;
    if (starts[k]! <= from) break;
  }
  return '';
}

const DOC_ID_LABEL =
  /(inv[od0]ice[\s.\-]*(no|number|nr|num|#|:)|inv[\s.\-]*(no|#|:)|receipt[\s.\-]*(no|number|#|:)|bill[\s.\-]*(no|#|:)|cash\s*bill(\s*no)?|\bc\/?b\s*(no|#)|doc(ument)?[\s.\-]*(no|number|#)|tax\s*invoice\s*(no|#)?|trans(action)?\s*(no|#|:)|transaction|ref(erence)?\s*(no|#)|order\s*(no|#)|slip\s*no|check\s*#|\bchk\b\s*#?|sask(aitos|aita|\.)?\s*(faktur(os|a)\s*)?(nr|numeris)|\bsf\s*(nr|numeris)|dokumento\s*(nr|numeris)|\bserija\b|\bnr\b|\bno\b|#)/i;

/**
 * A number label that names the document itself ("Invoice No.", "Sąskaitos faktūros Nr.", "PVM SF Nr."): what follows
 * is the document's number even when short ("Invoice No. 45", "SF Nr. AB 45"). A bare "No" is no such label: on a till
 * receipt it numbers tables, covers and counters too.
 */
function namesDocumentNumber(label: string): boolean {
  return /(inv[od0]ice|saskait|\bsf\b|faktur)/i.test(label) && /(no|nr|number|num|numeris|#)[\s.:]*$/i.test(label);
}

/** The index of the cell of `row` that holds the character at `index` of its text (-1: none, a gap). */
function cellOf(row: Row, index: number): number {
  return row.cells.findIndex((c) => row.spans[c.first]!.start <= index && index < row.spans[c.first + c.words.length - 1]!.end);
}

/** Currency codes and signs as letters: "RM 125" after a label is an amount, no series of a number. */
const CURRENCY_CODE = /^(RM|MYR|USD|EUR|SGD|GBP|AUD|JPY|CNY|RMB|IDR|THB|PHP|INR|HKD|LT|LTL)$/;

/** Words that a bare "No", "Nr" or "#" after them numbers, which are no document's number ("GST ID NO", "Company Reg #"). */
const OTHER_NUMBER_BEFORE =
  /\b(gst|sst|vat|pvm|tax|co|company|reg|regn|registration|roc|id|tel|telephone|phone|fax|hp|mobile|card|member|membership|table|pax|qty|qtys|items?|acc|account|a\/c|ic|staff|cashier|counter|pos|terminal|lot|unit|house|box)\s*\.?\s*:?\s*$/i;

/** Party labels. Strong ones stand alone; weak ones ("From:", "To:") only with a colon. */
const SELLER_STRONG = /^(seller|supplier|pardavejas|tiekejas|paslaugu\s*teikejas|issued\s*by|bill\s*from|verkaufer|lieferant)\b/i;
const SELLER_WEAK = /^(from|vendor|penjual)\s*:/i;
const BUYER_STRONG = /^(buyer|bill\s*to|billed\s*to|sold\s*to|invoice\s*to|pirkejas|uzsakovas|paslaugu\s*gavejas|rechnungsempfanger)\b/i;
const BUYER_WEAK = /^(to|customer|client|recipient|purchaser|klientas|gavejas|pembeli|kunde)\s*:/i;

const COMPANY_CODE_LABEL =
  /(imones\s*kodas|im\.?\s*kodas|im\.\s*k\.|juridinio\s*asmens\s*kodas|company\s*(code|reg(istration)?\.?\s*(no|number|code)?|no|number|id)|reg(istration)?\.?\s*(code|no|number)|registro\s*kodas|co\.?\s*reg\.?\s*(no)?|roc\s*(no)?|\bkodas\b|handelsregister|kvk|registrikood)/i;
const VAT_LABEL =
  /(pvm\s*(moketojo\s*)?(kodas|k\.|nr)|pvm\s*mok\.?\s*k(odas)?|vat\s*(id|no|number|reg(istration)?(\s*no)?|code|nr)?|tax\s*id|ust-?id(nr)?|gst\s*(id|reg(istration)?\.?\s*(no|number)?|no|number|ref\s*no)|sst\s*(id|reg\s*no|no)|btw|tva\s*intracom|nip|mwst)/i;
const IBAN_LABEL = /(iban|a\/s|a\.s\.|atsiskaitomoji\s*saskaita|account|acc\.?\s*no|bank\s*account|saskaita)/i;
const BIC_LABEL = /(swift|bic|banko\s*kodas|bank\s*code)/i;
const ADDRESS_LABEL = /^(address|adresas|addr\.?|buveines\s*adresas|registered\s*office|alamat)\s*:?/i;
const NAME_LABEL = /^(name|pavadinimas|company|imone|company\s*name)\s*:?/i;

function fold(s: string): string {
  return foldDiacritics(s);
}

/** Text of a row after the label match, without separators. */
function afterLabel(row: Row, labelEnd: number): { start: number; text: string } {
  const rest = row.text.slice(labelEnd);
  // A comma is a full stop thin print lost the dot of ("SLIP NO,: 7010385084"); a value may stand in brackets
  // ("RECEIPT NO.[00522899]").
  const skip = rest.match(/^[\s.,:#\-–=)[(]*/)?.[0].length ?? 0;
  return { start: labelEnd + skip, text: row.text.slice(labelEnd + skip) };
}

/** The row right under a label, overlapping it horizontally (value printed below its label). */
function rowUnder(rows: Row[], row: Row, left: number, rightEdge: number): Row | undefined {
  const next = rows.find((r) => r.page === row.page && r.index > row.index);
  if (!next) return undefined;
  if (next.box.top - (row.box.top + row.box.height) > row.box.height * 1.5) return undefined;
  const words = next.words.filter((w) => w.box.left + w.box.width > left - 0.02 && w.box.left < rightEdge + 0.15);
  if (!words.length) return undefined;
  return buildRow(words, next.page, next.index);
}

/**
 * A document's title, alone on its row but for the date and time ("TAX INVOICE", "14/04/2018 Tax Invoice",
 * "TAX CASH SALES", "OFFICIAL RECEIPT"): a bare "No" opening the row under it numbers that document.
 */
const DOCUMENT_TITLE =
  /^(simplified\s*)?(tax\s*)?(invoice|receipt|cash\s*(sales?|bill)|bill|official\s*receipt|sales?\s*(invoice|receipt|order)|credit\s*note|debit\s*note)$/i;

/** Is the row right above `row` (no farther than a line and a half) a document's title? */
function underDocumentTitle(rows: Row[], row: Row): boolean {
  const above = rows.filter((r) => r.page === row.page && r.index < row.index).at(-1);
  if (!above || row.box.top - (above.box.top + above.box.height) > row.box.height * 1.5) return false;
  let text = fold(above.text);
  for (const d of findDates(text)) text = text.replace(d.raw, ' ');
  text = text.replace(new RegExp(TIME_OF_DAY.source, 'g'), ' ').replace(/\s*(am|pm)\b/gi, ' ');
  return DOCUMENT_TITLE.test(collapseSpaces(text).trim());
}

export interface DateCandidate {
  match: DateMatch;
  row: Row;
  label: string;
  /** The row the label is printed on (the date's own, or the one above). */
  labelRow: Row;
  kind: 'issue' | 'due' | 'other' | 'none';
}

/** The order of numeric dates in this document, when one of its dates settles it (e.g. 25/12/2018). */
export function documentDateOrder(rows: Row[]): DateOrder | undefined {
  for (const r of rows) {
    for (const d of findDates(r.text)) {
      if (!d.ambiguous && d.order && d.order !== 'YMD' && !d.monthName && d.fullYear) return d.order;
    }
  }
  return undefined;
}

function dateFormatFromOrder(o: DateOrder | undefined): DateFormat | undefined {
  return o === 'MDY' ? 'MM/DD/YYYY' : o === 'DMY' ? 'DD/MM/YYYY' : undefined;
}

/** The numeric date format that an unambiguous date of the document settles (25/12/2018: day first), if any. */
export function documentDateFormat(rows: Row[]): DateFormat | undefined {
  return dateFormatFromOrder(documentDateOrder(rows));
}

/** Weekday names (folded, upper case) by day of the week, Sunday = 0: English, Malay, Lithuanian. */
const WEEKDAYS: string[][] = [
  ['SUNDAY', 'SUN', 'AHAD', 'SEKMADIENIS'],
  ['MONDAY', 'MON', 'ISNIN', 'PIRMADIENIS'],
  ['TUESDAY', 'TUE', 'TUES', 'SELASA', 'ANTRADIENIS'],
  ['WEDNESDAY', 'WED', 'RABU', 'TRECIADIENIS'],
  ['THURSDAY', 'THU', 'THUR', 'THURS', 'KHAMIS', 'KETVIRTADIENIS'],
  ['FRIDAY', 'FRI', 'JUMAAT', 'PENKTADIENIS'],
  ['SATURDAY', 'SAT', 'SABTU', 'SESTADIENIS'],
];

/** The day of the week a word names: exactly, or a full English name read with its end garbled ("Fridv"). */
export function weekdayOf(word: string): number | undefined {
  const w = foldDiacritics(word).toUpperCase().replace(/[^A-Z]/g, '');
  if (w.length < 3) return undefined;
  const exact = WEEKDAYS.findIndex((names) => names.includes(w));
  if (exact >= 0) return exact;
  // "FRIDV", "WEDNESDAV": the first four letters and the length of an English name (±1).
  const loose = WEEKDAYS.findIndex((names) => w.length >= 5 && w.startsWith(names[0]!.slice(0, 4)) && Math.abs(w.length - names[0]!.length) <= 1);
  return loose >= 0 ? loose : undefined;
}

/** The weekday printed right before or after a date ("Friday, 29-12-2017", "29/12/2017 FRI"). */
function weekdayNextTo(text: string, m: DateMatch): number | undefined {
  const before = text.slice(0, m.index).trim().split(/\s+/).pop() ?? '';
  const after = text.slice(m.index + m.raw.length).trim().split(/\s+/)[0] ?? '';
  return weekdayOf(before) ?? weekdayOf(after);
}

/** Digits OCR confuses, for dates whose printed weekday says a digit was misread. */
const WEEKDAY_CONFUSIONS: Record<string, string[]> = { ...DIGIT_CONFUSIONS, '0': ['8', '6', '9'], '9': ['0', '8'] };

/**
 * The weekday printed next to a date checks it:
 * - an ambiguous date (`10-05-2017`) whose one order falls on that weekday and the other not is read in that order,
 *   and is no longer ambiguous ("Rabu, 10-05-2017": Wednesday 10 May, not Thursday 5 October);
 * - a date that falls on another day was misread: the one variant with confusable digits changed that falls on that
 *   weekday replaces it. Several such variants: left as read.
 */
export function matchPrintedWeekday(text: string, m: DateMatch, opts: { format?: DateFormat } = {}): DateMatch {
  const weekday = weekdayNextTo(text, m);
  if (weekday === undefined || m.monthName) return m;
  const dayOf = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay();
  if (m.ambiguous && m.order) {
    const swapped = `${m.iso.slice(0, 4)}-${m.iso.slice(8, 10)}-${m.iso.slice(5, 7)}`;
    const [asRead, other] = [dayOf(m.iso) === weekday, dayOf(swapped) === weekday];
    if (asRead && !other) return { ...m, ambiguous: false };
    if (other && !asRead) return { ...m, iso: swapped, order: m.order === 'DMY' ? 'MDY' : 'DMY', ambiguous: false };
  }
  if (dayOf(m.iso) === weekday) return m;
  const thisYear = new Date().getUTCFullYear();
  const fits = new Map<string, DateMatch>();
  for (const v of confusionVariants(m.raw, WEEKDAY_CONFUSIONS)) {
    const d = findDates(v, opts)[0];
    if (!d || d.raw !== v) continue;
    const y = Number(d.iso.slice(0, 4));
    if (y >= 2000 && y <= thisYear + 1 && dayOf(d.iso) === weekday) fits.set(d.iso, d);
  }
  if (fits.size !== 1) return m;
  const [d] = [...fits.values()];
  return { ...m, iso: d!.iso };
}

/** A day, a month name and a year, the numbers with letters read for digits. */
const MONTH_NAME_DATE = /(?<![\p{L}\d])([0-9OoIl|]{1,2})([\s\-/.]{0,3})(\p{L}{3,9})([\s\-/.,']{0,3})([0-9OoIlSB|]{2,4})(?![\p{L}\d])/gu;

/**
 * Finds dates, repairing OCR slips when a row holds none: letters for digits (O for 0, also around a month name),
 * "~" for "-", separators misread or spaced after a date label ("15,01/2018", "15 - 01 - 2018"),
 * lost, misread or spaced separators after a date label ("15062018", "13707/2017", "05 02-18", "05 -02-18"), and confusable digits
 * ("17/83/2817") when exactly one plausible date comes out.
 */
function datesInText(text: string, format: DateFormat | undefined, labelled = false): DateMatch[] {
  const opts = format ? { format } : {};
  const direct = findDates(text, opts);
  if (direct.length) return direct.map((m) => matchPrintedWeekday(text, m, opts));
  let repaired = text
    .replace(/[0-9OoIlSBZzgb|]{1,4}[/.\-~][0-9OoIlSBZzgb|]{1,2}[/.\-~][0-9OoIlSBZzgb|]{2,4}/g, (t) => fixDigits(t))
    // Day and year around a month name: "15 JAN 2Ol8", "15-JAN-l8".
    .replace(MONTH_NAME_DATE, (all, d: string, s1: string, month: string, s2: string, y: string) =>
      monthFromName(month) === undefined ? all : `${fixDigits(d)}${s1}${month}${s2}${fixDigits(y)}`,
    )
    .replace(/(\d{1,2})~(\d{1,2})([/.-])(\d{2,4})/g, '$1$3$2$3$4')
    .replace(/(\d{1,2})([/.-])(\d{1,2})~(\d{2,4})/g, '$1$2$3$2$4');
  if (labelled) {
    // "Date: 15062018" → 15/06/2018; "1609/2017" → 16/09/2017; "16/09/:017" → 16/09/2017; a separator read as a
    // 1, a 7, an I or an l ("13707/2017", "13I07/2017" → 13/07/2017, "12/03118" → 12/03/18) or as a space
    // ("05 02-18" → 05-02-18), or with a space beside it ("05 -02-18")
    repaired = repaired
      .replace(/(?<!\d)(\d{2})(\d{2})(20\d{2})(?!\d)/g, '$1/$2/$3')
      // "DATE/TIME : 20180428/191204": the year first, as the ISO basic form prints it.
      .replace(/(?<!\d)(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?!\d)/g, '$1-$2-$3 ')
      .replace(/(?<![\d/])(\d{2})(\d{2})([/.-])(20\d{2})(?!\d)/g, '$1$3$2$3$4')
      .replace(/(?<![\d/])(\d{2})[17Il|](\d{2})([/.-])(20\d{2}|\d{2})(?![\d/.-])/g, '$1$3$2$3$4')
      .replace(/(?<![\d/.-])(\d{2})([/.-])(\d{2})[17Il|](20\d{2}|\d{2})(?![\d/.-])/g, '$1$2$3$2$4')
      .replace(/(?<![\d/.-])(\d{2}) (\d{2})([/.-])(\d{2}|20\d{2})(?![\d/.-])/g, '$1$3$2$3$4')
      // A space beside a separator ("05 -02-18", "05- 02 -18"), with a two-digit year too.
      .replace(/(?<![\d/.-])(\d{2}) ?([/.-]) ?(\d{2}) ?\2 ?(\d{2}|20\d{2})(?![\d/.-])/g, '$1$2$3$2$4')
      // Separators misread or spaced: "15,01/2018", "15.01/2018", "15:01:2018", "15 - 01 - 2018" (a four-digit year).
      .replace(/(?<![\d/.,:-])(\d{1,2})\s*[,.:/-]\s*(\d{1,2})\s*[,.:/-]\s*(20\d{2})(?!\d)/g, '$1/$2/$3')
      .replace(/(?<!\d)(\d{1,2})([/.-])(\d{2})\2[:;](0\d\d)(?!\d)/g, '$1$2$3$2' + '2$4');
  }
  const fixed = repaired === text ? [] : findDates(repaired, opts);
  if (fixed.length) return fixed;
  const thisYear = new Date().getUTCFullYear();
  for (const m of text.matchAll(/(?<![\d/.-])\d{1,2}([/.-])\d{2}\1(\d{2}|\d{4})(?![\d/])/g)) {
    const found = new Set<string>();
    let first: DateMatch | undefined;
    for (const v of confusionVariants(m[0])) {
      const d = findDates(v, opts)[0];
      const y = d ? Number(d.iso.slice(0, 4)) : 0;
      if (d && d.raw === v && y >= 2000 && y <= thisYear + 1) {
        found.add(d.iso);
        first ??= { ...d, raw: m[0], index: m.index };
      }
    }
    if (found.size === 1 && first) return [first];
  }
  return [];
}

export function dateCandidates(rows: Row[], format?: DateFormat, repairAll = false): DateCandidate[] {
  const fmt = format ?? documentDateFormat(rows);
  const out: DateCandidate[] = [];
  rows.forEach((row, i) => {
    const labelled = repairAll || /\b(date|tarikh|data|datum)\b/i.test(fold(row.text));
    for (const m of datesInText(row.text, fmt, labelled)) {
      let label = row.text.slice(0, m.index).trim();
      let labelRow = row;
      // Only the words just before the date (a row may hold several label/value pairs).
      const prevDate = out.filter((o) => o.row === row).pop();
      if (prevDate) label = row.text.slice(prevDate.match.index + prevDate.match.raw.length, m.index).trim();
      if (!/\p{L}{2,}/u.test(label) && i > 0) {
        const prev = rows[i - 1]!;
        if (prev.page === row.page && row.box.top - (prev.box.top + prev.box.height) < row.box.height * 1.5 && !findDates(prev.text).length) {
          label = prev.text;
          labelRow = prev;
        }
      }
      const lf = fold(label).slice(-40);
      const own = labelRow === row ? dateLabelWords(row, m.index, prevDate ? prevDate.match.index + prevDate.match.raw.length : 0) : label;
      const kind: DateCandidate['kind'] = DUE_LABEL.test(lf)
        ? 'due'
        : CORRECTED_INVOICE.test(fold(own)) || QUALIFIED_OTHER_DATE.test(lf) || (OTHER_DATE_LABEL.test(lf) && !ISSUE_LABEL.test(lf.slice(-12)))
          ? 'other'
          : ISSUE_LABEL.test(lf)
            ? 'issue'
            : 'none';
      out.push({ match: m, row, label, labelRow, kind });
    }
  });
  return out;
}

/**
 * The words before `index` in the same cell of the row (a row may join two columns: `VAT code LT100… Date` before a
 * date is the label `Date`), as the value's printed label; undefined when they hold no word of letters.
 */
function labelInCell(row: Row, index: number): Found['label'] {
  const starts = row.cells.map((cell) => row.spans[cell.first]?.start ?? 0).filter((start) => start <= index);
  const start = starts.length ? Math.max(...starts) : 0;
  const text = row.text.slice(start, index).trim();
  if (!/\p{L}{2,}/u.test(text)) return undefined;
  const from = row.text.indexOf(text, start);
  return labelIn(row, text, { start: from, end: from + text.length });
}

function dateFound(c: DateCandidate, factor: number): Found {
  const f = foundInRow(c.row, c.match.index, c.match.index + c.match.raw.length, c.match.iso, c.match.ambiguous ? factor * 0.8 : factor);
  if (c.label) f.label = (c.labelRow === c.row && labelInCell(c.row, c.match.index)) || labelIn(c.labelRow, c.label);
  return f;
}

/** A time of day ("18:09"; thin print loses the colon's tail or spaces it: "15: 40"). */
const TIME_OF_DAY = /(?<![\d:])\d{1,2}: ?\d{2}(?!\d)/;

/**
 * A date with a time of day on its row ("10/03/2018 17:24:07", "07:49PM  563094  14-12-16"): the moment of the
 * sale that a receipt prints.
 */
function saleStamp(c: DateCandidate): boolean {
  const { text } = c.row;
  const rest = text.slice(0, c.match.index) + ' ' + text.slice(c.match.index + c.match.raw.length);
  return TIME_OF_DAY.test(rest);
}

export function extractDates(rows: Row[], format?: DateFormat): { issue?: Found; due?: Found } {
  let cands = dateCandidates(rows, format);
  // No date at all: the separators may have been lost everywhere ("30032018").
  if (!cands.length) cands = dateCandidates(rows, format, true).map((c) => ({ ...c, match: { ...c.match, ambiguous: true } }));
  const full = (c: DateCandidate) => (c.match.fullYear || c.match.monthName ? 1 : 0);
  // Of the unlabelled dates, the sale's time stamp is the receipt's own (others are codes, promotions, validity).
  const stamped = (c: DateCandidate) => (saleStamp(c) ? 1 : 0);
  // A label that names the invoice's date ("Invoice date", "Išrašymo data") wins over a bare "Date".
  const named = (c: DateCandidate) => (NAMED_ISSUE_LABEL.test(fold(c.label).slice(-40)) ? 1 : 0);
  const issue =
    cands.filter((c) => c.kind === 'issue').sort((a, b) => named(b) - named(a) || full(b) - full(a))[0] ??
    cands.filter((c) => c.kind === 'none').sort((a, b) => full(b) - full(a) || stamped(b) - stamped(a))[0] ??
    cands.filter((c) => c.kind === 'other' && !/valid|expir|exp\b|birth/i.test(c.label) && !CORRECTED_INVOICE.test(fold(c.label)))[0];
  const due = cands.find((c) => c.kind === 'due' && c !== issue);
  // An unlabelled date is less sure, unless no other unlabelled or issue date differs (dates labelled as due or
  // valid are no rivals), or it is the sale's time stamp and no other stamp differs (unlabelled dates without a
  // time are validity or promotion dates).
  const rival = (c: DateCandidate) => (c.kind === 'none' || c.kind === 'issue') && c.match.iso !== issue!.match.iso;
  const sure = !!issue && (issue.kind === 'issue' || (issue.kind === 'none' && (!cands.some(rival) || (saleStamp(issue) && !cands.some((c) => rival(c) && saleStamp(c))))));
  // The date printed again one character apart ("Date : 20/05/2018" over "20/06/2018 12:56 PM"): copies of one date
  // were read apart, so one of them is misread, and which one is not known.
  const printed = (c: DateCandidate) => c.match.raw.replace(/\s+/g, '');
  const readApart = !!issue && cands.some((c) => rival(c) && levenshtein(printed(c), printed(issue), 1) === 1);
  return {
    ...(issue ? { issue: dateFound(issue, sure && !readApart ? 1 : 0.85) } : {}),
    ...(due ? { due: dateFound(due, 1) } : {}),
  };
}

/** Words of number labels OCR gets one letter wrong ("Involce No.", "RECElPT #"), put right in place (same length). */
const NUMBER_LABEL_WORDS = ['INVOICE', 'RECEIPT', 'DOCUMENT', 'NUMBER', 'TRANSACTION', 'REFERENCE'];
function repairNumberLabel(text: string): string {
  return text.replace(/\p{L}{6,}/gu, (w) => {
    const up = w.toUpperCase();
    const k = oneSlipFrom(up, NUMBER_LABEL_WORDS, { sameLength: true });
    return k && k !== up ? (w === up ? k : k.toLowerCase()) : w;
  });
}

/** The document number after a number label ("Invoice No: INV-001", "Serija AB Nr. 123"). */
export function extractDocumentId(rows: Row[]): Found | undefined {
  type C = { found: Found; score: number };
  const cands: C[] = [];
  for (const row of rows) {
    const t = repairNumberLabel(fold(row.text));
    // "Serija AB Nr. 000123" (Lithuanian series and number)
    const series = t.match(/\bserija\s*:?\s*([A-Z]{1,6})\s*,?\s*(nr\.?|numeris)\s*:?\s*([A-Z0-9][\w\-/]*\d[\w\-/]*)/i);
    if (series) {
      const start = series.index!;
      const f = foundInRow(row, start + series[0].indexOf(series[1]!), start + series[0].length, `${series[1]}${series[3]}`);
      f.label = labelIn(row, 'Serija Nr.', { start, end: start + series[0].indexOf(series[1]!) });
      cands.push({ found: f, score: 10 });
      continue;
    }
    for (const m of t.matchAll(new RegExp(DOC_ID_LABEL.source, 'gi'))) {
      const labelEnd = m.index + m[0].length;
      const after = afterLabel(row, labelEnd);
      const label = m[0];
      // Right after a label that names the document, in its cell, a short number is its number; elsewhere three
      // characters at least (a short number printed apart is a table's or a counter's: "TAX INVOICE NO      47").
      const minLength = namesDocumentNumber(label) && cellOf(row, after.start) === cellOf(row, labelEnd - 1) ? 1 : 3;
      // A series of letters and its digits may stand a space apart ("INVOICE NO.:  CS 67832"); a currency is no series.
      const spaced = after.text.match(new RegExp(`^([A-Z]{1,4} \\d{${minLength},}[A-Z0-9\\-/]*)(?=\\s|$)`));
      const tok = spaced && !CURRENCY_CODE.test(spaced[1]!.split(' ')[0]!) ? spaced : after.text.match(/^([A-Z0-9][A-Z0-9\-/.]*\d[A-Z0-9\-/]*|\d[\w\-/]*)/i);
      const bare = /^(no|nr|#)$/i.test(label.trim());
      // A bare "No" opening the row under the document's title numbers that document ("TAX INVOICE" / "No.: CS001").
      const strong = !bare || (!t.slice(0, m.index).trim() && underDocumentTitle(rows, row));
      // A bare "No" numbers what the words before it name (a tax or company registration, a phone, a card), or a
      // house in an address line ("NO.113G, JALAN"): no document's number.
      if (!strong && (OTHER_NUMBER_BEFORE.test(t.slice(0, m.index)) || hasAddressWord(t))) continue;
      // A "#" run on from a code with digits is part of the code ("A002# 26CM", "25SQ# 30CM", "LDO01# #").
      if (label === '#' && /(^|\s)[A-Z0-9]*\d[A-Z0-9]*#?\s?$/i.test(t.slice(0, m.index))) continue;
      if (tok && tok[1]!.length >= minLength && !findDates(tok[1]!).length && !/^\d{1,2}[:.]\d{2}$/.test(tok[1]!)) {
        const value = tok[1]!.replace(/[.\-/]+$/, '');
        const f = foundInRow(row, after.start, after.start + value.length, value, strong ? 1 : 0.8);
        f.label = labelIn(row, label, { start: m.index, end: labelEnd });
        cands.push({ found: f, score: (strong ? 5 : 2) - row.index * 0.05 + (/invoice|saskait|receipt|bill|doc/i.test(label) ? 2 : 0) });
        break;
      }
      if (!after.text.trim() && strong) {
        const under = rowUnder(rows, row, row.box.left, row.box.left + row.box.width);
        const ut = under?.text.match(/^([A-Z0-9][A-Z0-9\-/.]*\d[A-Z0-9\-/]*)/i);
        if (under && ut && !findDates(ut[1]!).length && !findAmounts(ut[1]!).length) {
          const f = foundInRow(under, 0, ut[1]!.length, ut[1]!, 0.85);
          f.label = labelIn(row, label, { start: m.index, end: labelEnd });
          cands.push({ found: f, score: 4 - row.index * 0.05 });
          break;
        }
      }
    }
  }
  const stamp = stampNumber(rows);
  if (stamp) cands.push({ found: stamp, score: 4.5 });
  cands.sort((a, b) => b.score - a.score);
  return cands[0]?.found;
}

/** A receipt's number as a till prints it: a letter series and six or more digits ("R000111754", "B999215"). */
const TILL_NUMBER = /(?<![\w/\-.])([A-Z]{1,3}\d{6,})(?![\w/\-.])/g;

/**
 * The receipt's number where the till prints it unlabelled on the sale's stamp, the row with the date and the
 * time of the sale ("23-03-18 18:09 SH01 ZJ86  T1 R000111754", "14/04/2018 16:14  B999215"): the one code there
 * of a letter series and six or more digits. Shop, cashier and terminal codes have fewer digits; two such codes
 * on the row are no answer.
 */
function stampNumber(rows: Row[]): Found | undefined {
  for (const row of rows) {
    const dates = findDates(row.text);
    if (dates.length !== 1) continue;
    const d = dates[0]!;
    const rest = row.text.slice(0, d.index) + ' '.repeat(d.raw.length) + row.text.slice(d.index + d.raw.length);
    if (!TIME_OF_DAY.test(rest)) continue;
    const codes = [...rest.matchAll(TILL_NUMBER)];
    if (codes.length !== 1) continue;
    const m = codes[0]!;
    return foundInRow(row, m.index + m[0].indexOf(m[1]!), m.index + m[0].length, m[1]!);
  }
  return undefined;
}

export interface PartyBlock {
  rows: Row[];
  label?: Row;
  /** The text after the label on its own row ("Seller: UAB Pavyzdys"). */
  inline?: Row;
}

/**
 * Text that opens with a label of its own, for another field than a party's: the document's number or series
 * ("Serija SD Nr. 117", "Invoice no.: …", "Užsakymo Nr.: …"), a date ("Išrašymo data: …", "Due date: …",
 * "Apmokėti iki: …"), another place to deliver to ("Ship to:"), or the document's title ("INVOICE").
 */
const OTHER_FIELD_LABELS = [
  // The document's number, series or title: the document's word before a number's or a date's word, a colon, or alone
  // ("Sąskaitos Nr.", "Invoice date:", "INVOICE"; not a name such as "SF Express" or "Invoice Ninja Ltd").
  /^(pvm\s*)?(saskaitos|saskaita|sf|invoice|rechnung|faktura|credit\s*note)(\s*faktur(a|os))?\s*((no|nr|number|numeris|#|date|data|datum)(?![a-z])|:|$)/,
  /^(tax\s*)?receipt$/,
  /^(serija|#)(?![a-z])/,
  /^(receipt|bill|order|po|purchase\s*order|uzsakymo|document|dokumento|reference|ref)\.?\s*(no|nr|number|numeris|#|date|data)(?![a-z])/,
  // Dates: the date's word before a colon, a full stop or digits ("Data: …", "Date of issue …"; not "Data Systems UAB").
  /^((issue|invoice|order|delivery|due|payment|shipping|service|document)\s*)?(date|data|datum)(\s*of\s*[a-z]+)?\s*([:.\d]|$)/,
  /^([a-z]+\s+){0,2}(date|data|datum)\s*:/,
  /^(israsymo|pristatymo|uzsakymo)\s*data\b|^(ap|su)?moketi\s*(iki|per)\b|^(ap)?mokejimo\s*(data|terminas)\b/,
  /^payment\s*(due|terms|deadline)\b|^due\s*(date|on|by)?\s*[:.\d]/,
  // Another place to deliver to.
  /^(ship(ping)?\s*to|deliver(y)?\s*(to|address)|pristatymo\s*adresas)\b/,
];
/** A bare "No"/"Nr" with a value: a document's number, unless it opens an address ("No. 5, Jalan Ampang"). */
const BARE_NUMBER_LABEL = /^(nr|no)\b\.?\s*:?\s*[a-z]{0,4}[\s-]?\d/;

/** Does this text carry a label of its own, for another field than a party's (it is no party's name then)? */
function carriesOtherLabel(text: string): boolean {
  const t = fold(text).trim().toLowerCase();
  return OTHER_FIELD_LABELS.some((re) => re.test(t)) || (BARE_NUMBER_LABEL.test(t) && !hasAddressWord(t));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/**
 * Rows of a party block: under its label, in its column [left, rightEdge), up to a wide vertical gap, the other
 * label stacked below, or an items table's header.
 */
function blockRowsUnder(rows: Row[], labelRow: Row, left: number, rightEdge: number, stackedBelow?: Row): Row[] {
  const out: Row[] = [];
  let lastBottom = labelRow.box.top + labelRow.box.height;
  for (const r of rows) {
    if (r.page !== labelRow.page || r.index <= labelRow.index) continue;
    if (stackedBelow && r.index >= stackedBelow.index) break;
    const ws = r.words.filter((w) => w.box.left >= left && w.box.left < rightEdge);
    if (!ws.length) continue;
    const top = Math.min(...ws.map((w) => w.box.top));
    const h = Math.max(...ws.map((w) => w.box.height));
    if (top - lastBottom > Math.max(h, 0.008) * 2.2) break;
    const sr = buildRow(ws, r.page, r.index);
    if (out.length > 2 && /^(no\.?|nr\.?|eil\.?\s*nr|description|aprasymas|item|qty)\b/i.test(fold(sr.text))) break;
    out.push(sr);
    lastBottom = top + h;
    if (out.length >= 9) break;
  }
  return out;
}

/**
 * Where a second column of text starts beside a party block, on the label's row or the block's rows: a cell after a
 * wide gap (not the first of its row in the block) that carries a label of another field ("Serija SD Nr. 117",
 * "Invoice no.:", "Ship to:") or is printed far larger than the block's text (a title such as "INVOICE"). The
 * party's own label/value pairs after a gap ("Įm. k. 123   PVM k. LT…") start no column. Undefined: none.
 */
function secondColumnLeft(labelCell: Cell, labelRow: Row, blockRows: Row[], left: number, rightEdge: number): number | undefined {
  const inBlock = (c: Cell) => c.box.left >= left && c.box.left < rightEdge;
  const textHeight = median(blockRows.flatMap((r) => r.words.map((w) => w.box.height)).concat(labelCell.words.map((w) => w.box.height)));
  const starts: number[] = [];
  const look = (cells: Cell[]) => {
    cells.slice(1).forEach((c) => {
      if (carriesOtherLabel(c.text) || (textHeight > 0 && median(c.words.map((w) => w.box.height)) > textHeight * 1.5)) starts.push(c.box.left);
    });
  };
  look(labelRow.cells.filter((c) => inBlock(c) && c.box.left >= labelCell.box.left));
  for (const r of blockRows) look(r.cells.filter(inBlock));
  return starts.length ? Math.min(...starts) : undefined;
}

/**
 * Seller and buyer blocks: under a "Seller"/"Buyer" label, limited to the label's column when the
 * two blocks stand side by side, or when the invoice's details stand in a second column on the same lines.
 */
export function partyBlocks(rows: Row[]): { supplier?: PartyBlock; customer?: PartyBlock } {
  interface Label {
    kind: 'supplier' | 'customer';
    row: Row;
    cell: Cell;
    /** Words of the cell after the label. */
    rest: OcrWord[];
  }
  const labels: Label[] = [];
  for (const row of rows) {
    for (const cell of row.cells) {
      const t = fold(cell.text);
      const m = t.match(SELLER_STRONG) ?? t.match(SELLER_WEAK);
      const b = m ? undefined : (t.match(BUYER_STRONG) ?? t.match(BUYER_WEAK));
      const hit = m ?? b;
      if (!hit) continue;
      // The label must end its word: "Seller:", "Seller", not "Sellers' terms".
      const after = t.slice(hit[0].length);
      if (after && !/^\s*:|^\s/.test(after)) continue;
      if (labels.some((l) => l.kind === (m ? 'supplier' : 'customer'))) continue;
      const labelWords = hit[0].trim().split(/\s+/).length;
      const rest = cell.words.slice(labelWords).filter((w) => !/^:$/.test(w.text));
      labels.push({ kind: m ? 'supplier' : 'customer', row, cell, rest });
    }
  }
  const out: { supplier?: PartyBlock; customer?: PartyBlock } = {};
  for (const lab of labels) {
    const left = lab.cell.box.left - 0.01;
    // The other label on the same row bounds this column on the right.
    const neighbour = labels.find((l) => l !== lab && l.row === lab.row && l.cell.box.left > lab.cell.box.left);
    let rightEdge = neighbour ? neighbour.cell.box.left - 0.005 : 1.01;
    // Stacked blocks: the other label below, in the same column, ends this block.
    const stacked = labels.find((l) => l !== lab && l.row.index > lab.row.index && l.cell.box.left < rightEdge && l.cell.box.left >= left - 0.05);
    let blockRows = blockRowsUnder(rows, lab.row, left, rightEdge, stacked?.row);
    // A block's column ends where a second column of text starts on its lines (the invoice's details at the right).
    const second = secondColumnLeft(lab.cell, lab.row, blockRows, left, rightEdge);
    if (second !== undefined) {
      rightEdge = second - 0.005;
      blockRows = blockRowsUnder(rows, lab.row, left, rightEdge, stacked?.row);
    }
    const inlineWords = [
      ...lab.rest,
      ...lab.row.cells.filter((c) => c !== lab.cell && c.box.left > lab.cell.box.left && c.box.left < rightEdge).flatMap((c) => c.words),
    ];
    const inline = inlineWords.length ? buildRow(inlineWords, lab.row.page, lab.row.index) : undefined;
    out[lab.kind] = { rows: blockRows, label: lab.row, ...(inline ? { inline } : {}) };
  }
  return out;
}

/** A line of a postcode and its town ("12345 Berlin", "LT-01103 Vilnius", "00-950 Warszawa"), a country after a comma. */
const POSTCODE_TOWN = /^(?:[A-Z]{1,2}[- ]?)?(?:\d{4,5}|\d{2}-\d{3})\s+\p{L}[\p{L}.'\- ]*(?:,\s*\p{L}[\p{L} ]*)?$/u;
/** What sets apart the parts of a letter's sender line: "·", "|", "•", or a dash between spaces. */
const SENDER_SEPARATOR = /\s*[·•|]\s*|\s[-–]\s/;
/** A line above the buyer's name that only directs the letter ("Firma", "Herrn", "Attn."). */
const ADDRESSEE_WORD = /^(firma|herrn?|frau|an|to|attn\.?|z\.?\s*hd\.?)$/i;

export interface WindowAddress {
  /** The sender line: the seller's name and address. */
  sender: { row: Row; name: Found; address: Found };
  /** The buyer's name and address under it. */
  customer: PartyBlock;
}

/**
 * A letter's window (DIN 5008 and the like): the buyer's name and address printed without a label at the top left,
 * under a small sender line that holds the seller's name and address on one line, its parts set apart by "·", "|",
 * "•" or a dash ("Alpenmetall Handels GmbH · Industriestraße 5 · 4020 Linz"), the last a postcode and town. The
 * lines under it that start where it starts are the buyer's block when, after a line such as "Firma" or "Herrn",
 * 2 to 5 of them end with a postcode and town (a country's name may follow). Undefined: no such layout.
 */
export function windowAddress(rows: Row[]): WindowAddress | undefined {
  const firstPage = rows.filter((r) => r.page === rows[0]?.page).slice(0, 25);
  for (const [i, row] of firstPage.entries()) {
    const cell = row.cells[0];
    if (!cell) continue;
    const parts = cell.text.split(SENDER_SEPARATOR).map((p) => p.trim());
    if (parts.length < 3 || parts.some((p) => !p) || !POSTCODE_TOWN.test(parts.at(-1)!) || !/\p{L}{3,}/u.test(parts[0]!) || /\d/.test(parts[0]!)) continue;
    const lines: Row[] = [];
    let bottom = cell.box.top + cell.box.height;
    for (const r of firstPage.slice(i + 1)) {
      const first = r.cells[0];
      if (!first || Math.abs(first.box.left - cell.box.left) > 0.02 || first.box.top - bottom > first.box.height * 2.2) break;
      lines.push(buildRow(first.words, r.page, r.index));
      bottom = first.box.top + first.box.height;
      if (lines.length >= 7) break;
    }
    const start = lines.findIndex((l) => !ADDRESSEE_WORD.test(l.text.trim()));
    const town = lines.findIndex((l, k) => k > start && POSTCODE_TOWN.test(l.text.trim()));
    if (start < 0 || town < 0 || town - start < 1 || town - start > 4) continue;
    const country = lines[town + 1] && /^\p{L}+(\s\p{L}+){0,2}$/u.test(lines[town + 1]!.text.trim()) ? 1 : 0;
    const from = row.spans[cell.first]!.start;
    const nameEnd = from + cell.text.indexOf(parts[0]!) + parts[0]!.length;
    const addressStart = from + cell.text.indexOf(parts[1]!, nameEnd - from);
    const name = cleanCompanyName(parts[0]!, { sureWords: sureWords([row]) });
    if (!name) continue;
    return {
      sender: {
        row,
        name: foundInRow(row, from + cell.text.indexOf(parts[0]!), nameEnd, name),
        address: foundInRow(row, addressStart, from + cell.text.length, parts.slice(1).join(', ')),
      },
      customer: { rows: lines.slice(start, town + 1 + country) },
    };
  }
  return undefined;
}

export interface PartyFields {
  name?: Found;
  code?: Found;
  vatId?: Found;
  address?: Found;
  iban?: Found;
  bic?: Found;
}

/** The value after a label in a row, or on the row below when the label stands alone. */
function labelledValue(
  rows: Row[],
  label: RegExp,
  pick: (text: string) => { start: number; end: number; value: string } | undefined,
  /** Whether a label, by the text before it on its row, names the wanted value (default: any). */
  accept: (before: string) => boolean = () => true,
): Found | undefined {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const t = fold(row.text);
    const m = [...t.matchAll(new RegExp(label.source, 'gi'))].find((x) => accept(t.slice(0, x.index)));
    if (!m) continue;
    const labelEnd = m.index! + m[0].length;
    const after = afterLabel(row, labelEnd);
    const p = pick(after.text);
    if (p) {
      const f = foundInRow(row, after.start + p.start, after.start + p.end, p.value);
      f.label = labelIn(row, row.text.slice(m.index!, labelEnd), { start: m.index!, end: labelEnd });
      return f;
    }
    if (!after.text.trim() && rows[i + 1]) {
      const next = rows[i + 1]!;
      const q = pick(next.text);
      if (q) {
        const f = foundInRow(next, q.start, q.end, q.value, 0.9);
        f.label = labelIn(row, row.text.slice(m.index!, labelEnd), { start: m.index!, end: labelEnd });
        return f;
      }
    }
  }
  return undefined;
}

const pickCode = (text: string) => {
  const m = text.match(/^\(?([A-Z]{0,3}\d[\d\s-]{4,14}\d(-?[A-Z])?)\)?/i);
  if (!m) return undefined;
  const value = m[1]!.replace(/\s+/g, '');
  return { start: m.index! + (m[0].startsWith('(') ? 1 : 0), end: m.index! + (m[0].startsWith('(') ? 1 : 0) + m[1]!.length, value };
};
const pickVat = (text: string) => {
  const ids = findVatIds(text);
  if (ids.length) return { start: ids[0]!.index, end: ids[0]!.index + ids[0]!.raw.length, value: ids[0]!.value };
  // Tax numbers without a country prefix (GST IDs): 8 to 15 digits.
  const m = text.match(/^\(?([A-Z]{0,2}[\d\s-]{8,16}\d)/i);
  if (m && /^\d/.test(m[1]!.replace(/^[A-Z]+/i, ''))) {
    const value = m[1]!.replace(/[\s-]/g, '');
    return { start: m.index! + (m[0].startsWith('(') ? 1 : 0), end: m.index! + m[0].length, value };
  }
  return undefined;
};
const pickIban = (text: string) => {
  const ib = findIbans(text);
  return ib.length ? { start: ib[0]!.index, end: ib[0]!.index + ib[0]!.raw.length, value: ib[0]!.value } : undefined;
};
const pickBic = (text: string) => {
  const b = findBics(text.toUpperCase(), true);
  return b.length ? { start: b[0]!.index, end: b[0]!.index + b[0]!.value.length, value: b[0]!.value } : undefined;
};

/** Name, code, VAT ID, address, bank account of one party block. */
export function extractParty(block: PartyBlock, names: NameOptions = {}): PartyFields {
  const out: PartyFields = {};
  const rows = block.rows;
  // Text that carries a label of its own (a date's, the document number's) is no party's name.
  const inline = block.inline && !carriesOtherLabel(block.inline.text) ? block.inline : undefined;
  const nameRow =
    inline ??
    rows.find((r) => {
      const t = fold(r.text);
      return !COMPANY_CODE_LABEL.test(t) && !VAT_LABEL.test(t) && !ADDRESS_LABEL.test(t) && !IBAN_LABEL.test(t) && !carriesOtherLabel(r.text) && /\p{L}{3,}/u.test(r.text);
    });
  if (nameRow) {
    const m = nameRow.text.match(NAME_LABEL);
    const start = m ? m[0].length : 0;
    const value = cleanCompanyName(nameRow.text.slice(start).trim(), { ...names, sureWords: sureWords([nameRow]) });
    if (value) out.name = foundInRow(nameRow, start + (nameRow.text.slice(start).length - nameRow.text.slice(start).trimStart().length), nameRow.text.length, value);
  }
  const code = labelledValue(rows, COMPANY_CODE_LABEL, pickCode);
  if (code) out.code = code;
  const vat = labelledValue(rows, VAT_LABEL, pickVat);
  if (vat) out.vatId = vat;
  const iban = labelledValue(rows, IBAN_LABEL, pickIban) ?? firstInRows(rows, pickIban);
  if (iban) out.iban = iban;
  const bic = labelledValue(rows, BIC_LABEL, pickBic);
  if (bic) out.bic = bic;
  // Address: after an address label, else the address-like rows of the block.
  const addrLabelRow = rows.find((r) => ADDRESS_LABEL.test(fold(r.text)));
  let addrRows: { row: Row; start: number }[] = [];
  if (addrLabelRow) {
    const m = fold(addrLabelRow.text).match(ADDRESS_LABEL)!;
    addrRows.push({ row: addrLabelRow, start: afterLabel(addrLabelRow, m[0].length).start });
  } else {
    addrRows = rows
      .filter((r) => r !== nameRow && looksLikeAddress(r.text) && !COMPANY_CODE_LABEL.test(fold(r.text)) && !VAT_LABEL.test(fold(r.text)) && !IBAN_LABEL.test(fold(r.text)) && !findIbans(r.text).length)
      .slice(0, 3)
      .map((row) => ({ row, start: 0 }));
  }
  const addrText = collapseSpaces(addrRows.map((a) => a.row.text.slice(a.start)).join(', '));
  if (addrRows.length && addrText) {
    const words = addrRows.flatMap((a) => a.row.words);
    out.address = {
      value: addrText,
      raw: addrText,
      page: addrRows[0]!.row.page,
      box: unionBoxes(words.map((w) => w.box)),
      confidence: Math.round(words.reduce((s, w) => s + w.confidence, 0) / Math.max(1, words.length)),
    };
  }
  return out;
}

function firstInRows(rows: Row[], pick: (text: string) => { start: number; end: number; value: string } | undefined): Found | undefined {
  for (const r of rows) {
    const p = pick(r.text);
    if (p) return foundInRow(r, p.start, p.end, p.value);
  }
  return undefined;
}

/**
 * A word before an identifier's label that makes it the buyer's: a seller prints the buyer's ids in its invoice's
 * details as "Your VAT ID", "Customer VAT no.", "Buyer's code", "Pirkėjo PVM kodas", "Jūsų PVM kodas", "Ihre
 * USt-IdNr.", "Client VAT".
 */
const BUYER_MARK = /(?<![a-z])(your|customer|buyer|client|purchaser|recipient|pirkejo|jusu|kliento|ihre|kunden)('?s)?[\s.:\-]*$/i;
const buyersLabel = (before: string) => BUYER_MARK.test(before);
const sellersLabel = (before: string) => !BUYER_MARK.test(before);

/** Where a seller prints its registration outside a party block: its letterhead (the top rows) or the page's footer. */
const LETTERHEAD_ROWS = 25;
const FOOTER_ROWS = 3;

/** The letterhead's rows, then the last rows of each page (the footer). */
function letterheadAndFooters(rows: Row[]): Row[] {
  const head = rows.slice(0, LETTERHEAD_ROWS);
  const pages = [...new Set(rows.map((r) => r.page))];
  const feet = pages.flatMap((p) => rows.filter((r) => r.page === p).slice(-FOOTER_ROWS)).filter((r) => !head.includes(r));
  return [...head, ...feet];
}

export interface LooseIds extends PartyFields {
  /** The buyer's VAT ID, printed with a buyer's mark ("Your VAT ID LT…") outside the party blocks. */
  buyerVatId?: Found;
}

/**
 * Labelled company code and VAT ID outside party blocks (receipts: "CO-REG: 860671-D", "GST ID: 0012..."; invoices:
 * the letterhead and the footer). An id marked as the buyer's ("Your VAT ID") is never the seller's.
 */
export function extractLooseIds(rows: Row[]): LooseIds {
  const out: LooseIds = {};
  const code = labelledValue(letterheadAndFooters(rows), COMPANY_CODE_LABEL, pickCode, sellersLabel);
  if (code) out.code = code;
  const buyerVat = labelledValue(rows, VAT_LABEL, pickVat, buyersLabel);
  if (buyerVat) out.buyerVatId = buyerVat;
  const vat =
    labelledValue(rows, VAT_LABEL, pickVat, sellersLabel) ??
    firstInRows(rows, (t) => {
      const ids = findVatIds(t).filter((id) => id.value !== buyerVat?.value);
      return ids.length ? { start: ids[0]!.index, end: ids[0]!.index + ids[0]!.raw.length, value: ids[0]!.value } : undefined;
    });
  if (vat) out.vatId = vat;
  const iban = labelledValue(rows, IBAN_LABEL, pickIban) ?? firstInRows(rows, pickIban);
  if (iban) out.iban = iban;
  const bic =
    labelledValue(rows, BIC_LABEL, pickBic) ??
    firstInRows(rows, (t) => {
      const b = findBics(t, false);
      return b.length ? { start: b[0]!.index, end: b[0]!.index + b[0]!.value.length, value: b[0]!.value } : undefined;
    });
  if (bic) out.bic = bic;
  return out;
}

/**
 * Currencies of countries that write numeric dates day first (or year first), never month first: on a document in
 * one of them, 09/01/2019 is the 9th of January. Not the dollar (the United States write the month first).
 */
const DAY_FIRST_CURRENCIES = new Set(['EUR', 'GBP', 'MYR', 'SGD', 'PLN', 'SEK', 'NOK', 'DKK', 'CHF', 'CZK']);

/** The date format a document's currency settles (`DD/MM/YYYY` in a day-first country's currency), if any. */
export function dateFormatOfCurrency(currency: string | undefined): DateFormat | undefined {
  return currency && DAY_FIRST_CURRENCIES.has(currency) ? 'DD/MM/YYYY' : undefined;
}

/** The date format a document's seller's address settles: Malaysia writes the day first. */
export function dateFormatOfAddress(address: string | undefined): DateFormat | undefined {
  return address && isMalaysianAddress(address) ? 'DD/MM/YYYY' : undefined;
}

export function extractCurrency(rows: Row[]): Found | undefined {
  for (const row of rows) {
    const c = currencyFromText(row.text);
    if (c) {
      const m = row.text.match(/(€|EUR|Eur|eur|USD|GBP|£|PLN|zł|MYR|RM|SEK|NOK|DKK|CHF|CZK|SGD|\$)/);
      const start = m?.index ?? 0;
      return foundInRow(row, start, start + (m?.[0].length ?? row.text.length), c, 0.9);
    }
  }
  return undefined;
}

export { isValidIban };
