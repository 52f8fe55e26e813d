/**
 * Totals of a receipt or an invoice: labelled amounts (TOTAL, SUBTOTAL, TAX, ROUNDING, CASH, CHANGE...)
 * are collected, then the total is the candidate best supported by its label and by arithmetic
 * (cash − change = total, subtotal + tax + rounding = total, VAT lines add up).
 */
import { findAmounts, findRates, formatAmount, roundMoney, toFiveCents, type AmountMatch } from './amounts';
import { foundInRow, spanConfidence, type Found, type Row } from './rows';
import { foldDiacritics, levenshtein, oneSlipFrom } from './text';

export type AmountKind =
  | 'total_final'
  | 'total'
  | 'subtotal'
  | 'tax'
  | 'rounding'
  | 'paid'
  | 'change'
  | 'discount'
  | 'ignore'
  | 'none';

export interface LabelledAmount {
  kind: AmountKind;
  /** Strength of the label for its kind (higher = more explicit). */
  strength: number;
  amount: AmountMatch;
  row: Row;
  /** Row holding the label, when the amount sits on the next row. */
  labelRow: Row;
  labelText: string;
  /** Rate printed in the label ("GST 6%"), if any. */
  rate?: number;
  /** Position of the amount among the amounts of its row, from the right (0 = rightmost). */
  fromRight: number;
}

const IGNORE =
  /\b(total\s*(qty|quantity|items?|item\(s\)|pcs|units?|weight|points?|savings?|discounts?|disc)|tot\.?\s*qty|qty|quantity|item\s*count|no\.?\s*of\s*items?|items?|points?|kiekis|vnt|change\s*item|tips?|balance\s*point|pax)\b/i;
const FINAL =
  /(grand\s*total|nett\s*total|net\s*total|total\s*(amount\s*)?(payable|due|to\s*pay|collected)|amount\s*(payable|due|to\s*pay)|total\s*amt\s*(payable|rounded)|total\s*(after|incl\.?\s*round|rounded)|round(ed)?\s*(d\s*)?total|after\s*(rounding|adj)|final\s*total|total\s*(sales\s*)?(incl|inclusive|with\s*(gst|vat|tax))|incl\.?\s*(of\s*)?(gst|vat|tax)|balance\s*due|total\s*facture|mok[eė]tina\s*suma|i[sš]\s*viso\s*(mok[eė]ti|su\s*pvm)|suma\s*su\s*pvm|viso\s*su\s*pvm|bendra\s*suma|total\s*rm|total\s*\(rm\)|total\s*myr|total\s*:\s*myr|total\s*eur|amount\s*\(rm\)|jumlah|total\s*sales|^\W*due\W*$|gesamtbetrag|rechnungsbetrag|endbetrag|zahlbetrag|zu\s*zahlen|summe\s*brutto|bruttobetrag|(kopa|summa)\s*apmaksai|\btasuda|do\s*zap[lł]aty|razem\s*brutto)/i;
const SUBTOTAL =
  /(sub[\s-]*total|total\s*(sales\s*)?\(?(excl|excluding|before|w\/o|without|net\s*of)|excl\s?\.?\s*(of\s*)?(gst|vat|tax)|before\s*(gst|vat|tax|discount)|net\s*amount|amount\s*excl|taxable\s*amount|suma\s*be\s*pvm|be\s*pvm|tarpin[eė]\s*suma|apmokestinama\s*suma|i[sš]\s*viso\s*be|total\s*net|total\s*ht|amount\s*before|zwischensumme|summe\s*netto|nettobetrag|gesamt\s*netto|summa\s*bez\s*pvn|kopa\s*bez\s*pvn|kaibemaksuta|razem\s*netto)/i;
const TAX = /\b(gst|vat|tax|pvm|sst|mwst|ust|pvn|kaibemaks|tva|iva|ppn)\b|\bgst\s*@|\btax\s*amount|\bsr\s*@/i;
const ROUNDING = /(\bround(ed)?\b|rounding(\s*adj(ustment)?)?|rnd\s*adj|\badj(ustment)?\b|apvalinimas)/i;
const PAID =
  /\b(cash|tunai|paid|pay|payment|tender(ed)?|received|visa|master(card)?|amex|card|credit|debit|edc|e-?wallet|grab\s*pay|boost|touch\s*n\s*go|mok[eė]ta|grynais|kortele|sumok[eė]ta)\b/i;
const CHANGE = /\b(change|baki|balance|gr[aą][zž]a|grąžinta)\b/i;
const DISCOUNT = /\b(discount|disc|savings?|promo|voucher|coupon|nuolaida|less)\b/i;
const TOTAL = /\b(total|tota1|totai|t0tal|amount|amt|sum|suma|i[sš]\s*viso|viso|jumlah|montant|summe|gesamt|summa|kopa|kokku|razem)\b/i;

/** Label words OCR often gets one letter wrong ("CAGH", "T0TAL", "CHANCE", "IUIAL"), put right before classifying. */
const LABEL_WORDS = ['CHARGE', 'CHARGES', 'TOTAL', 'SUBTOTAL', 'CASH', 'CHANGE', 'ROUNDING', 'ROUNDED', 'AMOUNT', 'NETT', 'GRAND', 'PAYABLE', 'TENDER', 'TENDERED', 'PAYMENT', 'INCLUSIVE', 'EXCLUDING', 'INCL', 'EXCL', 'SALES', 'DISCOUNT', 'ADJUSTMENT', 'BALANCE', 'CREDIT', 'RECEIVED', 'SUMA', 'VISO', 'MOKETI'];

/** The label words long enough to be told by their letters with one slip; CHARGE is one slip from CHANGE. */
const SLIP_LABEL_WORDS = LABEL_WORDS.filter((k) => k.length >= 5 && !k.startsWith('CHARGE'));

export function repairLabel(label: string): string {
  return label.replace(/[A-Za-z0-9|$](?:[A-Za-z0-9|$-]{2,})[A-Za-z0-9|$]/g, (w) => {
    const up = w.toUpperCase().replace(/0/g, 'O').replace(/[1|]/g, 'L').replace(/\$/g, 'S').replace(/-/g, '');
    if (LABEL_WORDS.includes(up)) return up;
    if (/\d{2,}/.test(w)) return w;
    // Thin print reads T as I ("IUIAL", "SUBIUIAL"): also tried with every I a T.
    for (const v of [up, up.replace(/I/g, 'T')]) {
      const k = oneSlipFrom(v, SLIP_LABEL_WORDS);
      if (k) return k;
    }
    return w;
  });
}

export function classifyLabel(label: string): { kind: AmountKind; strength: number; rate?: number } {
  // A count in brackets after the label says how many items it sums ("SUBTOTAL (QTY 4)", "TOTAL (3 ITEMS)").
  const l = repairLabel(foldDiacritics(label).replace(/\s+/g, ' ')).replace(/\(\s*(qty|items?|pcs)?\s*:?\s*\d+\s*(items?|pcs)?\s*\)/gi, ' ');
  const lo = label.replace(/\s+/g, ' ');
  const rate = findRates(lo)[0]?.value;
  const withRate = rate !== undefined ? { rate } : {};
  if (!l.trim()) return { kind: 'none', strength: 0 };
  if (IGNORE.test(l) && !FINAL.test(l)) return { kind: 'ignore', strength: 1 };
  // Tax summary tables repeat the amounts per rate; they are checked as VAT lines, not totals.
  if (/\b(summary|analysis|ringkasan|breakdown|suvestine)\b/i.test(l)) return { kind: 'ignore', strength: 1, ...withRate };
  if (CHANGE.test(l) && !/balance\s*due/i.test(l)) return { kind: 'change', strength: 2 };
  if (SUBTOTAL.test(l) && !/(after|rounded|payable|due)/i.test(l)) return { kind: 'subtotal', strength: /sub/i.test(l) ? 3 : 2, ...withRate };
  if (FINAL.test(l) || FINAL.test(lo)) return { kind: 'total_final', strength: /grand|nett|net\s*total|payable|due|rounded|round|after|final|mok[eė]tina/i.test(l) ? 4 : 3, ...withRate };
  if (ROUNDING.test(l)) return { kind: 'rounding', strength: 2 };
  if (PAID.test(l) && !/\btotal\b/i.test(l)) return { kind: 'paid', strength: 2 };
  if (DISCOUNT.test(l)) return { kind: 'discount', strength: 2 };
  // "6% supplies (Inc. GST)", its "Total" misread: an amount including the tax is a total, never the tax.
  if (/\binc\.?\s*(gst|vat|tax)\b/i.test(l)) return { kind: 'total', strength: 1, ...withRate };
  if (TAX.test(l) && !/\btotal\b/i.test(l)) return { kind: 'tax', strength: 2, ...withRate };
  if (TAX.test(l) && /\btotal\s*(gst|vat|tax|pvm)\b|\b(gst|vat|tax|pvm)\s*(total|amount|sum|suma)\b/i.test(l)) return { kind: 'tax', strength: 3, ...withRate };
  if (TOTAL.test(l)) return { kind: 'total', strength: /\btotal\b/i.test(l) ? 2 : 1, ...withRate };
  if (PAID.test(l)) return { kind: 'paid', strength: 2 };
  return { kind: 'none', strength: 0 };
}

/** A table's column headers ("Qty  Description  Total  TAX"): the first item's row is under them, no label of its amount. */
const COLUMN_HEADER = /\b(q'?ty|oty|quantity|description|desc)\b.*\b(total|amount|amt|price|tax|rm)\b|\b(rate|net)\b.*\b(gst|tax|vat)\b.*\b(total|amount|amt)\b/i;

/** The label of an amount: the words between the previous amount (or the row start) and it. */
function labelBefore(text: string, from: number, to: number): string {
  const seg = text.slice(from, to).trim();
  // "Item Count 12 Change Amt" → "Change Amt": a bare number separates two labels.
  const parts = seg.split(/\s\d+\s(?!\s*%)/);
  return (parts.length > 1 ? parts[parts.length - 1]! : seg).trim();
}

/** Collects the amounts of all rows with the label printed before them (same row or the row above). */
export function labelledAmounts(rows: Row[]): LabelledAmount[] {
  const out: LabelledAmount[] = [];
  rows.forEach((row, i) => {
    const amounts = findAmounts(row.text);
    if (!amounts.length) return;
    let prevEnd = 0;
    let inherited: { text: string; labelRow: Row } | undefined;
    amounts.forEach((a, k) => {
      let labelText = labelBefore(row.text, prevEnd, a.index);
      prevEnd = a.index + a.raw.length;
      let labelRow = row;
      const hasWords = /\p{L}{2,}/u.test(labelText.replace(/\b(RM|MYR|EUR|USD|SR|ZR|S|Z)\b/g, ''));
      if (!hasWords && inherited) {
        labelText = inherited.text;
        labelRow = inherited.labelRow;
      } else if (!hasWords && k === 0 && i > 0) {
        // Label on the row above ("TOTAL :" / "9.00"), when this row starts with an amount.
        const prev = rows[i - 1]!;
        const gap = row.box.top - (prev.box.top + prev.box.height);
        if (prev.page === row.page && gap < row.box.height * 1.2 && !findAmounts(prev.text).length && !COLUMN_HEADER.test(prev.text)) {
          labelText = prev.text.trim();
          labelRow = prev;
        }
      }
      inherited = { text: labelText, labelRow };
      const { kind, strength, rate } = classifyLabel(labelText);
      out.push({
        kind,
        strength,
        amount: a,
        row,
        labelRow,
        labelText,
        ...(rate !== undefined ? { rate } : {}),
        fromRight: amounts.length - 1 - k,
      });
    });
  });
  return out;
}

/** Do two printed amounts differ by one digit (replaced, added or dropped)? */
export function oneDigitApart(a: string, b: string): boolean {
  if (a === b) return false;
  return levenshtein(a, b, 1) === 1;
}

export interface TotalsResult {
  total?: Found;
  subtotal?: Found;
  tax?: Found;
  currency?: string;
  /** Explanation of how the total was chosen (for tests and debugging). */
  reasons: string[];
}

const eq = (a: number, b: number) => Math.abs(a - b) < 0.005;

/**
 * Is `rounded` the cash rounding of `exact`, to the nearest 5 cents (Malaysia's rounding mechanism; 0.05 is the
 * smallest coin in many currencies)? A different amount only: an exact total is its own rounding.
 */
export function isCashRounding(exact: number, rounded: number): boolean {
  return !eq(exact, rounded) && eq(toFiveCents(exact), rounded);
}

/** `sign` −1: the amounts were taken without the minus of a credit note (`printedNegative`), which goes back on. */
function toFound(la: LabelledAmount, factor: number, sign = 1): Found {
  const f = foundInRow(la.row, la.amount.index, la.amount.index + la.amount.raw.length, formatAmount(sign * la.amount.value), factor);
  if (la.labelText) {
    f.label = { text: la.labelText, box: la.labelRow === la.row ? la.row.box : la.labelRow.box, page: la.labelRow.page };
    if (la.labelRow === la.row) {
      const start = la.row.text.indexOf(la.labelText);
      if (start >= 0) f.label.box = foundInRow(la.row, start, start + la.labelText.length, '').box;
    }
  }
  return f;
}

/** The highest standard rate of VAT or GST anywhere (27 %): a tax is at most this share of its base. */
const MAX_TAX_RATE = 0.27;

/** Whether an amount can be the tax on a base (subtotal + tax = total: the tax is no item nor the base). */
const plausibleTax = (tax: number, base: number) => tax <= base * MAX_TAX_RATE + 0.01;

const isTotalKind = (a: LabelledAmount) => a.kind === 'total' || a.kind === 'total_final';

/**
 * Does the document print its amounts negative (a credit note: "Suma be PVM -608,00 / PVM 21 % -127,68 / Iš viso su
 * PVM -735,68")? Every amount under a total or subtotal label is below zero. Such a document's total, base and tax
 * are those negative amounts (the product stores a credit note with negative amounts, docs/decisions.md).
 */
function printedNegative(all: LabelledAmount[]): boolean {
  const totals = all.filter((a) => (isTotalKind(a) || a.kind === 'subtotal') && a.amount.value !== 0);
  return totals.length > 0 && totals.every((a) => a.amount.value < 0);
}

/**
 * Is `c` the net of a total printed below it: a positive tax printed after it, and after that a total-labelled amount
 * that is the two added up ("Net total 3,040.00 / VAT 21% 638.40 / Total 3,678.40")? The larger amount is the
 * total, whatever the first one's label says ("NETT TOTAL" is the amount paid on a till receipt, but "Net total" is
 * an invoice's amount before tax).
 */
function isNetOfLaterTotal(c: LabelledAmount, taxes: LabelledAmount[], candidates: LabelledAmount[], roundings: LabelledAmount[]): boolean {
  const v = c.amount.value;
  return taxes.some(
    (t) =>
      t.amount.value > 0 &&
      t.row.index > c.row.index &&
      plausibleTax(t.amount.value, v) &&
      candidates.some(
        (o) =>
          isTotalKind(o) &&
          o.row.index > t.row.index &&
          (eq(v + t.amount.value, o.amount.value) || roundings.some((r) => eq(v + t.amount.value + r.amount.value, o.amount.value))),
      ),
  );
}

/**
 * Is `c` what is left to pay after a payment: a total-labelled amount above it less an amount paid printed between
 * them ("Total 1,210.00 / Amount paid 500.00 / Balance due 710.00")? The document's total is the larger amount; the
 * balance is a payment's remainder, not what the goods cost.
 */
function isBalanceAfterPayment(c: LabelledAmount, paid: LabelledAmount[], candidates: LabelledAmount[]): boolean {
  const v = c.amount.value;
  return candidates.some(
    (o) =>
      isTotalKind(o) &&
      o.row.index < c.row.index &&
      paid.some((p) => p.amount.value > 0 && p.row.index > o.row.index && p.row.index <= c.row.index && p.row !== c.row && eq(o.amount.value - p.amount.value, v)),
  );
}

/** Picks total, subtotal and tax among the labelled amounts. */
export function extractTotals(rows: Row[], opts: { itemsSum?: number } = {}): TotalsResult {
  const labelled = labelledAmounts(rows);
  // A credit note's amounts are read without their minus, and the picks get it back: what holds for an invoice's
  // positive total, base and tax holds for the credit's amounts the other way round.
  const sign = printedNegative(labelled) ? -1 : 1;
  const all = sign > 0 ? labelled : labelled.map((a) => ({ ...a, amount: { ...a.amount, value: -a.amount.value } }));
  if (sign < 0 && opts.itemsSum !== undefined) opts = { ...opts, itemsSum: -opts.itemsSum };
  const reasons: string[] = [];
  // "(TOTAL INCLUDED GST @ 6% : 0.42)": an amount under a total label with a rate that is exactly the tax included
  // at that rate in a larger amount printed on the document (7.50 × 6 / 106 = 0.42) states the tax, not the total.
  for (const a of all) {
    if ((a.kind !== 'total' && a.kind !== 'total_final') || !a.rate || a.amount.value <= 0) continue;
    const rate = a.rate;
    if (all.some((o) => o.amount.value > a.amount.value && eq(roundMoney((o.amount.value * rate) / (100 + rate)), a.amount.value))) {
      a.kind = 'tax';
      a.strength = 3;
    }
  }

  const of = (k: AmountKind) => all.filter((a) => a.kind === k);
  // Money paid and change given back, whatever sign the till prints them with ("CHANGE RETURNED  20.00-").
  const unsigned = (a: LabelledAmount) => (a.amount.value < 0 ? { ...a, amount: { ...a.amount, value: -a.amount.value } } : a);
  const paid = of('paid')
    .filter((a) => a.amount.value !== 0)
    .map(unsigned);
  const change = of('change').map(unsigned);
  const subs = of('subtotal').filter((a) => a.amount.value > 0);
  const taxes = of('tax').filter((a) => a.amount.value >= 0);
  const roundings = of('rounding').filter((a) => Math.abs(a.amount.value) < 0.1);
  // "ROUNDING 177.20": a big amount under a rounding label is the rounded total.
  for (const a of of('rounding')) {
    if (Math.abs(a.amount.value) >= 0.1) {
      a.kind = 'total_final';
      a.strength = 3;
    }
  }

  // Candidates: amounts under a total label; amounts paid, subtotals and unlabelled amounts too, with
  // little weight of their own, so that arithmetic can still find the total when its label is misread.
  const candidates: LabelledAmount[] = all.filter((a) => (a.kind === 'total_final' || a.kind === 'total') && a.amount.value > 0);
  const hasLabelledTotal = candidates.length > 0;
  candidates.push(...paid.map((p) => ({ ...p, strength: 0.25 })));
  candidates.push(...subs.map((x) => ({ ...x, strength: hasLabelledTotal ? 0.25 : 0.5 })));
  const firstLabelled = all.find((a) => a.kind !== 'none' && a.kind !== 'ignore');
  candidates.push(
    ...all
      .filter((a) => a.kind === 'none' && a.amount.value > 0 && (!firstLabelled || a.row.index >= firstLabelled.row.index - 1))
      .map((u) => ({ ...u, strength: 0 })),
  );
  const bases = [...subs, ...candidates.filter((x) => x.kind === 'total' || x.kind === 'total_final')];

  // A rounding line is printed, whether or not its amount was read ("Rounding Adjustment RM" with its -0.02 lost).
  const roundingPrinted = rows.some((r) => ROUNDING.test(repairLabel(r.text)));
  const maxLabelled = Math.max(0, ...all.filter((a) => a.kind !== 'ignore' && a.kind !== 'paid' && a.kind !== 'change').map((a) => a.amount.value));
  let best: { c: LabelledAmount; score: number } | undefined;
  for (const c of candidates) {
    const v = c.amount.value;
    let score = c.strength * 2;
    const why: string[] = [`label ${c.kind}:${c.strength}`];
    if (c.kind === 'total_final') score += 2;
    if (c.fromRight === 0) score += 0.5;
    else score -= 1;
    // Tendered − change = total; the tendered amount may carry any label ("CASH", "ACCEPTED TOTAL").
    const tendered = [...paid, ...candidates.filter((o) => o !== c && o.amount.value > v)];
    if (tendered.some((p) => change.some((ch) => ch.amount.value > 0 && eq(p.amount.value - ch.amount.value, v)))) {
      score += 5;
      why.push('paid-change');
    } else if (paid.some((p) => eq(p.amount.value, v) && p.row !== c.row)) {
      score += 2.5;
      why.push('paid');
    }
    if (
      bases.some(
        (s) =>
          s.row !== c.row &&
          taxes.some(
            (t) =>
              t.amount.value > 0 &&
              t.row !== c.row &&
              plausibleTax(t.amount.value, s.amount.value) &&
              (eq(s.amount.value + t.amount.value, v) || roundings.some((r) => eq(s.amount.value + t.amount.value + r.amount.value, v))),
          ),
      )
    ) {
      score += 3;
      why.push('sub+tax');
    }
    if (subs.some((s) => s.row !== c.row && roundings.some((r) => r.amount.value !== 0 && eq(s.amount.value + r.amount.value, v)))) {
      score += 3;
      why.push('sub+rounding');
    }
    // Rounded total: an amount above the rounding line plus the rounding, printed below it.
    if (candidates.some((o) => o !== c && roundings.some((r) => r.amount.value !== 0 && o.row.index <= r.row.index && c.row.index >= r.row.index && eq(o.amount.value + r.amount.value, v)))) {
      score += 5;
      why.push('rounded');
    } else if (roundingPrinted && c.kind === 'total_final' && candidates.some((o) => o.row.index < c.row.index && (o.kind === 'total' || o.kind === 'total_final') && isCashRounding(o.amount.value, v))) {
      // The same with the adjustment's own amount not read: a total above, rounded to 5 cents, is this one.
      score += 3;
      why.push('rounded');
    }
    if (isNetOfLaterTotal(c, taxes, candidates, roundings)) {
      score -= 6;
      why.push('net of a later total');
    }
    if (isBalanceAfterPayment(c, paid, candidates)) {
      score -= 6;
      why.push('balance after payment');
    }
    // The items printed above add up to it.
    if (opts.itemsSum !== undefined && eq(opts.itemsSum, v)) {
      score += 2;
      why.push('items');
    }
    if (v >= maxLabelled - 0.001) score += 1;
    // Totals come after the items: prefer lower rows a little.
    score += (c.row.index / Math.max(1, rows.length)) * 0.5;
    if (c.amount.currency) score += 0.3;
    if (!best || score > best.score) {
      best = { c, score };
      reasons.length = 0;
      reasons.push(...why, `score=${score.toFixed(2)}`);
    }
  }
  const result: TotalsResult = { reasons };
  // No arithmetic behind the pick, but tendered − change is printed: that difference is the total.
  const isSupport = (r: string) => /^(paid|paid-change|sub\+tax|sub\+rounding|rounded|items)$/.test(r);
  const supported = reasons.some(isSupport);
  const labelledPick = best && (best.c.kind === 'total' || best.c.kind === 'total_final');
  if (!supported && !labelledPick) {
    for (const p of paid) {
      for (const ch of change) {
        const diff = Math.round((p.amount.value - ch.amount.value) * 100) / 100;
        if (ch.amount.value <= 0 || diff <= 0 || (best && eq(best.c.amount.value, diff))) continue;
        const printed = all.filter((a) => a.amount.value > 0 && eq(a.amount.value, diff)).pop();
        best = { c: printed ?? { ...p, amount: { ...p.amount, value: diff } }, score: 5 };
        reasons.length = 0;
        reasons.push(printed ? 'paid-change (printed)' : 'paid-change (derived)', 'score=5.00');
        break;
      }
      if (reasons[0]?.startsWith('paid-change')) break;
    }
  }
  if (!best) return result;
  // A labelled total that no arithmetic confirms, one misread digit away from what the other amounts
  // add up to (cash − change, subtotal + tax + rounding): the OCR slipped on the total.
  const repeated = all.filter((a) => (a.kind === 'total' || a.kind === 'total_final' || a.kind === 'subtotal') && a.row !== best!.c.row && eq(a.amount.value, best!.c.amount.value)).length > 0;
  if (
    (best.c.kind === 'total' || best.c.kind === 'total_final') &&
    !repeated &&
    !reasons.some(isSupport)
  ) {
    const v = best.c.amount.value;
    const shown = formatAmount(v);
    const derived: { value: number; sameLength: boolean }[] = [];
    for (const p of paid) for (const ch of change) if (ch.amount.value > 0 && p.amount.value > ch.amount.value) derived.push({ value: p.amount.value - ch.amount.value, sameLength: true });
    // Paid exactly (no change): the amount paid, when the total has a digit too many or too few.
    for (const p of paid) if (change.some((ch) => ch.amount.value === 0)) derived.push({ value: p.amount.value, sameLength: false });
    for (const b of subs) {
      // A subtotal alone only explains a total with an extra or a lost digit ("385.20" for "85.20").
      derived.push({ value: b.amount.value, sameLength: false });
      for (const t of taxes) {
        if (t.amount.value <= 0 || !plausibleTax(t.amount.value, b.amount.value)) continue;
        derived.push({ value: b.amount.value + t.amount.value, sameLength: true });
        for (const r of roundings) derived.push({ value: b.amount.value + t.amount.value + r.amount.value, sameLength: true });
      }
      for (const r of roundings) derived.push({ value: b.amount.value + r.amount.value, sameLength: true });
    }
    const fix = derived
      .map((d) => ({ ...d, value: Math.round(d.value * 100) / 100 }))
      .find((d) => {
        if (d.value <= 0 || eq(d.value, v)) return false;
        const f = formatAmount(d.value);
        return oneDigitApart(f, shown) && (d.sameLength || f.length !== shown.length);
      });
    if (fix) {
      const printed = all.filter((a) => eq(a.amount.value, fix.value) && a.row.index >= best!.c.row.index - 3).pop();
      best = { c: printed ?? { ...best.c, amount: { ...best.c.amount, value: fix.value } }, score: best.score };
      reasons.push(`corrected ${shown} → ${formatAmount(fix.value)}`);
    }
  }
  const total = best.c;
  const v = total.amount.value;
  // Amounts that say what the total is, printed apart from it: what the customer settled (tendered − change, the
  // change printed, 0 included), and a rounded total ("ROUNDING RM 177.20", a rounding label on a big amount).
  // A payment split over several tenders (cash and card) settles their sum.
  const tenders = paid.length > 1 ? [...paid.map((p) => p.amount.value), paid.reduce((sum, p) => sum + p.amount.value, 0)] : paid.map((p) => p.amount.value);
  const settled = tenders.flatMap((p) => change.filter((ch) => p > ch.amount.value).map((ch) => roundMoney(p - ch.amount.value)));
  const fitsSettled = (x: number) => eq(x, v) || (roundingPrinted && isCashRounding(v, x));
  // The total's own printed amount is none of them, also where a misread digit of it was put right (a copy).
  const isTotal = (a: LabelledAmount) => a.row === total.row && a.amount.index === total.amount.index;
  const roundedTotals = all.filter((a) => a.kind === 'total_final' && a.labelText && ROUNDING.test(repairLabel(a.labelText)) && !isTotal(a));
  // One of them disagreeing with the total means one of the two is misread: the total is not sure (never `ready`
  // by itself), unless other arithmetic or a second printed copy backs it.
  const backed = reasons.some(isSupport) || repeated;
  // A total labelled as rounded ("TOTAL ROUNDED", "ROUNDED TOTAL") is a 5-cent amount: one that is not was misread.
  const offRounding = !!total.labelText && ROUNDING.test(repairLabel(total.labelText)) && !eq(toFiveCents(v), v);
  const contradicted =
    offRounding || roundedTotals.some((a) => !eq(a.amount.value, v)) || (settled.length > 0 && !settled.some(fitsSettled) && !backed);
  if (contradicted) reasons.push('contradicted');
  const support = Math.min(1, 0.6 + best.score / 20);
  result.total = toFound(total, contradicted ? Math.min(0.85, support) : support, sign);
  // The total printed again (a second total line, the cash paid) is a second reading of the same amount: the
  // amount is as sure as its surest copy ("Nett Total: $8.20" read at 80, "Total Amount: $8.20" at 100).
  const copies = all.filter((a) => (a.kind === 'total' || a.kind === 'total_final' || a.kind === 'paid') && eq(a.amount.value, v) && !isTotal(a));
  if (!contradicted && copies.length) {
    const surest = Math.max(...copies.map((a) => spanConfidence(a.row, a.amount.index, a.amount.index + a.amount.raw.length)));
    result.total.confidence = Math.max(result.total.confidence, Math.round(surest * support * 10) / 10);
  }
  const currency = all.find((a) => a.amount.currency)?.amount.currency;
  if (currency) result.currency = currency;

  // Tax: an amount labelled as tax that, with a subtotal, makes the total; else the explicit total tax.
  const T = total.amount.value;
  let taxPick: LabelledAmount | undefined;
  let subPick: LabelledAmount | undefined;
  // A tax of 0 adds up with any copy of the total, which proves nothing where the document prints a positive tax
  // ("GST @6%  4.02" over a zero-rated line "Z=GST @ 0% :  0.00  0.00"): there it is no pair.
  const positiveTax = taxes.some((t) => t.amount.value > 0 && t.rate !== 0);
  for (const t of taxes) {
    if (t.amount.value === 0 && positiveTax) continue;
    for (const s of [...subs, ...candidates.filter((c) => c !== total)]) {
      if (!plausibleTax(t.amount.value, s.amount.value)) continue;
      if (eq(s.amount.value + t.amount.value, T) || roundings.some((r) => eq(s.amount.value + t.amount.value + r.amount.value, T))) {
        if (!taxPick || t.strength > taxPick.strength) {
          taxPick = t;
          subPick = s;
        }
      }
    }
  }
  // A tax printed one line per rate with no line for their sum ("PVM 21 %: 45,99 / PVM 9 %: 18,50 / PVM 5 %: 1,24"):
  // the base and the rates' taxes together make the total, and the document's tax is their sum.
  if (!taxPick) {
    const perRate = taxOfRates(taxes);
    const base = perRate && [...subs, ...candidates.filter((c) => c !== total)].find((s) => plausibleTax(perRate.value, s.amount.value) && eq(s.amount.value + perRate.value, T));
    if (perRate && base) {
      taxPick = { ...perRate.first, amount: { ...perRate.first.amount, value: perRate.value } };
      subPick = base;
    }
  }
  if (!taxPick) {
    const explicit = taxes.filter((t) => t.strength >= 3 && plausibleTax(t.amount.value, T - t.amount.value));
    taxPick = explicit[0] ?? taxes.find((t) => t.amount.value < T && t.amount.value > 0 && t.rate !== undefined && eq(roundMoney((T / (100 + t.rate)) * t.rate), t.amount.value));
  }
  if (!subPick) subPick = subs.find((s) => taxPick && eq(s.amount.value + taxPick.amount.value, T));
  // Supplies printed per tax rate: the rates' bases add up to the base, which with a printed tax makes the total.
  if (!subPick) {
    const rated = baseOfRates(all);
    const unrated = of('tax').filter((t) => t.rate === undefined);
    const signed = rated && unrated.find((t) => eq(rated.value + t.amount.value, T));
    // A minus read before the tax where the sum needs it positive is a speck the reading took for one ("GST: -0.80"
    // between 13.30 excluding and 14.10 including it): the rates' bases and its value without the minus make the total.
    const speck = rated && !signed && unrated.find((t) => t.amount.value < 0 && eq(rated.value - t.amount.value, T));
    const tax = signed || (speck ? { ...speck, amount: { ...speck.amount, value: -speck.amount.value } } : undefined);
    if (rated && tax) {
      subPick = { ...rated.first, amount: { ...rated.first.amount, value: rated.value } };
      taxPick = tax;
    }
  }
  if (taxPick) result.tax = toFound(taxPick, 0.9, sign);
  if (subPick) result.subtotal = toFound(subPick, 0.9, sign);
  if (sign < 0) reasons.push('credit');
  return result;
}

/**
 * The tax of a document that prints it per rate, one line each ("PVM 21 %: 45,99", "PVM 9 %: 18,50"): the sum of each
 * rate's tax (the first of its rate: a summary may repeat it). Only where two rates or more are printed.
 */
function taxOfRates(taxes: LabelledAmount[]): { value: number; first: LabelledAmount } | undefined {
  const rated = taxes.filter((t) => t.rate !== undefined && t.amount.value >= 0);
  const firsts = [...new Set(rated.map((t) => t.rate!))].map((r) => rated.find((t) => t.rate === r)!);
  if (firsts.length < 2) return undefined;
  return { value: roundMoney(firsts.reduce((sum, t) => sum + t.amount.value, 0)), first: firsts[0]! };
}

/**
 * The base of a document that prints its supplies per tax rate ("Total 0% supplies: 39.01", "Total 6% supplies
 * (excl. GST): -17.73"): the sum of each rate's amount before tax, a zero rate's total being its own base. Only
 * where two rates or more are printed, each with such an amount (the first of its rate: totals are printed twice).
 */
function baseOfRates(all: LabelledAmount[]): { value: number; first: LabelledAmount } | undefined {
  const rated = all.filter((a) => a.rate !== undefined && (a.kind === 'subtotal' || a.kind === 'total'));
  const rates = [...new Set(rated.map((a) => a.rate!))];
  if (rates.length < 2) return undefined;
  const bases = rates.map((r) => rated.find((a) => a.rate === r && (a.kind === 'subtotal' || r === 0)));
  if (bases.some((b) => !b)) return undefined;
  return { value: roundMoney(bases.reduce((sum, b) => sum + b!.amount.value, 0)), first: bases[0]! };
}
