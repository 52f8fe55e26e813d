/**
 * Any AnalyzeExpense-shaped result (AWS Textract or the local recogniser) → the product's field map.
 * Values are normalised here, so Textract's as-printed values ("Dec 25, 2018", "$1,234.50") and the
 * local recogniser's already-normalised ones end up the same.
 */
import type { ExpenseField } from '@aws-sdk/client-textract';
import { findAmounts, findRates, formatAmount } from './extract/amounts';
import { findDates } from './extract/dates';
import { compactId, findBics, findIbans, isValidBic, isValidIban, isValidVatId } from './extract/identifiers';
import { collapseSpaces, foldDiacritics } from './extract/text';
import { HEADER_TYPE, LINE_ITEM_TYPE, VAT_LINE_GROUP, VAT_LINE_TYPE } from './expense';
import type {
  AnalyzeExpenseResult,
  Box,
  DateFormat,
  ExtractedFields,
  FieldValue,
  HeaderFieldId,
  LineItemFieldId,
  LineItemFieldsMap,
  VatLineFieldId,
  VatLineFieldsMap,
} from './types';

export interface MapOptions {
  /** The supplier's date format, to read ambiguous dates such as 03/04/2024. */
  dateFormat?: DateFormat;
}

type Kind = 'text' | 'date' | 'amount' | 'id' | 'iban' | 'bic' | 'currency' | 'rate' | 'quantity';

const HEADER_KIND: Record<HeaderFieldId, Kind> = {
  supplier_name: 'text',
  supplier_code: 'id',
  supplier_vat_id: 'id',
  supplier_address: 'text',
  customer_name: 'text',
  customer_code: 'id',
  customer_vat_id: 'id',
  document_id: 'id',
  issue_date: 'date',
  due_date: 'date',
  currency: 'currency',
  amount_total: 'amount',
  amount_total_base: 'amount',
  amount_tax: 'amount',
  iban: 'iban',
  bic_swift: 'bic',
};

const LINE_KIND: Record<LineItemFieldId, Kind> = {
  item_number: 'id',
  product_code: 'id',
  description: 'text',
  quantity: 'quantity',
  unit_of_measurement: 'text',
  unit_price_without_vat: 'amount',
  vat_rate: 'rate',
  vat: 'amount',
  price_per_unit: 'amount',
  total_price: 'amount',
};

/** Textract's own type names (and their synonyms) that map to our header fields. */
const TEXTRACT_ALIASES: Record<string, HeaderFieldId> = {
  VENDOR_GST_NUMBER: 'supplier_vat_id',
  VENDOR_ABN_NUMBER: 'supplier_code',
  VENDOR_PAN_NUMBER: 'supplier_code',
  TAX_PAYER_ID: 'supplier_vat_id',
  RECEIVER_GST_NUMBER: 'customer_vat_id',
  RECEIVER_ABN_NUMBER: 'customer_code',
  RECEIVER_PAN_NUMBER: 'customer_code',
};
/** Used only when the main type is missing. */
const FALLBACK_TYPES: [string, HeaderFieldId][] = [
  ['AMOUNT_DUE', 'amount_total'],
  ['AMOUNT_PAID', 'amount_total'],
];

const LINE_ALIASES: Record<string, LineItemFieldId> = { UNIT_PRICE_WITH_TAX: 'price_per_unit' };

export function normaliseValue(kind: Kind, text: string, opts: MapOptions = {}): string | undefined {
  const t = collapseSpaces(text ?? '');
  if (!t) return undefined;
  switch (kind) {
    case 'date':
      return findDates(t, opts.dateFormat ? { format: opts.dateFormat } : {})[0]?.iso;
    case 'amount': {
      const a = findAmounts(t, { requireDecimals: false });
      return a.length ? formatAmount(a[a.length - 1]!.value) : undefined;
    }
    case 'quantity': {
      const a = findAmounts(t, { requireDecimals: false });
      if (!a.length) return undefined;
      const v = a[0]!.value;
      return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
    }
    case 'rate': {
      const r = findRates(t);
      if (r.length) return String(r[0]!.value);
      const n = t.match(/^(\d{1,2}(?:[.,]\d+)?)$/);
      return n ? String(Number(n[1]!.replace(',', '.'))) : undefined;
    }
    case 'iban': {
      const ib = findIbans(t);
      if (ib.length) return ib[0]!.value;
      const c = t.toUpperCase().replace(/[\s-]/g, '');
      return isValidIban(c) ? c : undefined;
    }
    case 'bic': {
      const c = t.toUpperCase().replace(/\s/g, '');
      if (isValidBic(c)) return c;
      return findBics(t.toUpperCase(), true)[0]?.value;
    }
    case 'currency': {
      const c = t.toUpperCase();
      if (/^[A-Z]{3}$/.test(c)) return c;
      if (c === '€' || /^EUR/.test(c)) return 'EUR';
      if (c === '$') return 'USD';
      if (c === '£') return 'GBP';
      if (c === 'RM') return 'MYR';
      return undefined;
    }
    case 'id':
      return t.replace(/\s+/g, '').replace(/^[:#]+/, '');
    default:
      return t;
  }
}

function boxOf(f: ExpenseField): Box {
  const b = f.ValueDetection?.Geometry?.BoundingBox;
  return { left: b?.Left ?? 0, top: b?.Top ?? 0, width: b?.Width ?? 0, height: b?.Height ?? 0 };
}

function toValue(f: ExpenseField, kind: Kind, opts: MapOptions): FieldValue | undefined {
  const value = normaliseValue(kind, f.ValueDetection?.Text ?? '', opts);
  if (value === undefined) return undefined;
  const out: FieldValue = {
    value,
    page: f.PageNumber ?? 1,
    box: boxOf(f),
    confidence: Math.round((f.ValueDetection?.Confidence ?? f.Type?.Confidence ?? 0) * 10) / 10,
  };
  const label = f.LabelDetection;
  const labelBox = label?.Geometry?.BoundingBox;
  if (label?.Text?.trim() && labelBox) {
    out.label = { text: label.Text.trim(), box: { left: labelBox.Left ?? 0, top: labelBox.Top ?? 0, width: labelBox.Width ?? 0, height: labelBox.Height ?? 0 } };
  }
  return out;
}

function groupTypes(f: ExpenseField): string[] {
  return (f.GroupProperties ?? []).flatMap((g) => g.Types ?? []);
}

function labelOf(f: ExpenseField): string {
  return foldDiacritics(f.LabelDetection?.Text ?? '').toLowerCase();
}

/** The header field an ExpenseField stands for, if any. */
function headerFieldOf(f: ExpenseField): HeaderFieldId | undefined {
  const type = f.Type?.Text ?? '';
  const groups = groupTypes(f);
  const own = (Object.entries(HEADER_TYPE) as [HeaderFieldId, string][]).find(([, t]) => t === type)?.[0];
  if (own) return own;
  if (TEXTRACT_ALIASES[type]) return TEXTRACT_ALIASES[type];
  const vendor = groups.some((g) => g.startsWith('VENDOR'));
  const receiver = groups.some((g) => g.startsWith('RECEIVER'));
  if (type === 'NAME') return vendor ? 'supplier_name' : receiver ? 'customer_name' : undefined;
  if (type === 'ADDRESS' || type === 'ADDRESS_BLOCK') return vendor ? 'supplier_address' : undefined;
  if (type === 'ACCOUNT_NUMBER' && isValidIban((f.ValueDetection?.Text ?? '').replace(/\s/g, ''))) return 'iban';
  if (type === 'OTHER') {
    const label = labelOf(f);
    const value = f.ValueDetection?.Text ?? '';
    if (/iban|a\/s|account/.test(label) && findIbans(value).length) return 'iban';
    if (/swift|bic/.test(label)) return 'bic_swift';
    if (/(imones|im\.)\s*k(odas|\.)|company\s*(code|reg)|reg(istration)?\.?\s*(code|no)/.test(label)) return receiver ? 'customer_code' : 'supplier_code';
    if (/pvm|vat|tax\s*id|gst/.test(label) && isValidVatId(compactId(value))) return receiver ? 'customer_vat_id' : 'supplier_vat_id';
    if (findIbans(value).length) return 'iban';
  }
  return undefined;
}

function better(a: FieldValue | undefined, b: FieldValue): boolean {
  return !a || b.confidence > a.confidence;
}

/** The product's field map from an AnalyzeExpense-shaped result. */
export function mapExpenseToFields(result: AnalyzeExpenseResult, opts: MapOptions = {}): ExtractedFields {
  const out: ExtractedFields = { vat_lines: [], line_items: [] };
  const docs = result.ExpenseDocuments ?? [];
  const fallbacks: Partial<Record<HeaderFieldId, FieldValue>> = {};
  const vatGroups = new Map<string, VatLineFieldsMap>();
  const ungroupedTaxes: ExpenseField[] = [];
  let currencyFromAmounts: { code: string; f: ExpenseField } | undefined;

  for (const doc of docs) {
    for (const f of doc.SummaryFields ?? []) {
      const type = f.Type?.Text ?? '';
      const vatGroup = (f.GroupProperties ?? []).find((g) => g.Types?.includes(VAT_LINE_GROUP));
      if (vatGroup) {
        const id = (Object.entries(VAT_LINE_TYPE) as [VatLineFieldId, string][]).find(([, t]) => t === type)?.[0];
        if (!id) continue;
        const v = toValue(f, id === 'vat_rate' ? 'rate' : 'amount', opts);
        if (!v) continue;
        const key = vatGroup.Id ?? String(vatGroups.size);
        if (!vatGroups.has(key)) vatGroups.set(key, {});
        vatGroups.get(key)![id] = v;
        continue;
      }
      if (f.Currency?.Code && !currencyFromAmounts) currencyFromAmounts = { code: f.Currency.Code, f };
      if (type === 'TAX') ungroupedTaxes.push(f);
      const fb = FALLBACK_TYPES.find(([t]) => t === type);
      if (fb) {
        const v = toValue(f, HEADER_KIND[fb[1]], opts);
        if (v && better(fallbacks[fb[1]], v)) fallbacks[fb[1]] = v;
        continue;
      }
      const id = headerFieldOf(f);
      if (!id) continue;
      const v = toValue(f, HEADER_KIND[id], opts);
      if (!v) continue;
      // Several TAX fields: the tax total is handled below.
      if (id === 'amount_tax') continue;
      if (better(out[id], v)) out[id] = v;
    }
    for (const group of doc.LineItemGroups ?? []) {
      for (const item of group.LineItems ?? []) {
        const li: LineItemFieldsMap = {};
        for (const f of item.LineItemExpenseFields ?? []) {
          const type = f.Type?.Text ?? '';
          const id = (Object.entries(LINE_ITEM_TYPE) as [LineItemFieldId, string][]).find(([, t]) => t === type)?.[0] ?? LINE_ALIASES[type];
          if (!id || li[id]) continue;
          const v = toValue(f, LINE_KIND[id], opts);
          if (v) li[id] = v;
        }
        if (Object.keys(li).length) out.line_items.push(li);
      }
    }
  }
  for (const [id, v] of Object.entries(fallbacks) as [HeaderFieldId, FieldValue][]) if (!out[id]) out[id] = v;

  // Tax: one TAX field is the tax; several (one per rate, as Textract returns them) add up, and
  // those with a rate in their label are VAT lines too.
  const taxValues = ungroupedTaxes.map((f) => ({ f, v: toValue(f, 'amount', opts) })).filter((x): x is { f: ExpenseField; v: FieldValue } => !!x.v);
  if (taxValues.length === 1) out.amount_tax = taxValues[0]!.v;
  else if (taxValues.length > 1) {
    const explicitTotal = taxValues.find((x) => /total|viso|suma/.test(labelOf(x.f)));
    if (explicitTotal) out.amount_tax = explicitTotal.v;
    else {
      const sum = taxValues.reduce((s, x) => s + Number(x.v.value), 0);
      out.amount_tax = { ...taxValues[0]!.v, value: formatAmount(sum) };
    }
  }
  if (!vatGroups.size) {
    for (const x of taxValues) {
      const rate = findRates(x.f.LabelDetection?.Text ?? '')[0];
      if (rate) out.vat_lines.push({ vat_rate: { ...x.v, value: String(rate.value) }, amount_vat: x.v });
    }
  }
  out.vat_lines.push(...vatGroups.values());
  if (!out.currency && currencyFromAmounts) {
    const v = normaliseValue('currency', currencyFromAmounts.code);
    if (v) out.currency = { value: v, page: currencyFromAmounts.f.PageNumber ?? 1, box: boxOf(currencyFromAmounts.f), confidence: currencyFromAmounts.f.Currency?.Confidence ?? 50 };
  }
  return out;
}
