/**
 * The supplier keys a learnt layout (SupplierLayoutHint) is stored and found under: the supplier's VAT ID,
 * company code and normalised name. The same functions make the keys when a confirmed document is learnt
 * and when a new document is looked up, so both sides always agree. Plain functions, no I/O.
 */
import { blocksToDocument } from './expense';
import { compactId, findVatIds } from './extract/identifiers';
import { normaliseCompanyName } from './extract/legal';
import type { AnalyzeExpenseResult, ExtractedFields } from './types';

export const SUPPLIER_KEY_KINDS = ['VAT', 'CODE', 'NAME'] as const;
export type SupplierKeyKind = (typeof SUPPLIER_KEY_KINDS)[number];

export interface SupplierKey {
  kind: SupplierKeyKind;
  value: string;
}

export interface SupplierIdentity {
  vat_id?: string | null;
  code?: string | null;
  name?: string | null;
  /** The name as printed, where the confirmed name is another (learn.ts `printedNameAt`): the next document is looked up by it. */
  printed_name?: string | null;
}

/** Longest key value kept (a name is cut there); DynamoDB sort keys allow 1 KB. */
export const MAX_KEY_VALUE_LENGTH = 200;
/** VAT IDs printed on the page that are looked up besides the recognised supplier's. */
export const MAX_PRINTED_VAT_IDS = 10;

const alnum = (s: string) => compactId(s).replace(/[^A-Z0-9]/g, '');

/** A VAT ID as a key: compact, upper case, letters and digits only; undefined when it cannot be one. */
export function vatKeyValue(vat: string | null | undefined): string | undefined {
  const v = alnum(vat ?? '');
  return v.length >= 4 && v.length <= 30 ? v : undefined;
}

/** A company code as a key: compact, letters and digits only, at least 3 characters. */
export function codeKeyValue(code: string | null | undefined): string | undefined {
  const v = alnum(code ?? '');
  return v.length >= 3 && v.length <= 30 ? v : undefined;
}

/** A name as a key: without legal forms, punctuation, case and diacritics (normaliseCompanyName). */
export function nameKeyValue(name: string | null | undefined): string | undefined {
  const v = normaliseCompanyName(name ?? '').slice(0, MAX_KEY_VALUE_LENGTH).trim();
  return v.replace(/[^A-Z0-9]/g, '').length >= 2 ? v : undefined;
}

function unique(keys: SupplierKey[]): SupplierKey[] {
  const seen = new Set<string>();
  return keys.filter((k) => {
    const id = `${k.kind}#${k.value}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * The keys of a supplier identity, most specific first (VAT ID, company code, name, the printed name); empty when it
 * has none. A document linked to a register supplier of another name is confirmed under the register's name, while
 * the supplier's next document is read, and looked up, by the name it prints: the layout is kept under both.
 */
export function supplierKeys(identity: SupplierIdentity): SupplierKey[] {
  const out: SupplierKey[] = [];
  const vat = vatKeyValue(identity.vat_id);
  if (vat) out.push({ kind: 'VAT', value: vat });
  const code = codeKeyValue(identity.code);
  if (code) out.push({ kind: 'CODE', value: code });
  const name = nameKeyValue(identity.name);
  if (name) out.push({ kind: 'NAME', value: name });
  const printed = nameKeyValue(identity.printed_name);
  if (printed) out.push({ kind: 'NAME', value: printed });
  return unique(out);
}

/**
 * The keys to look a newly recognised document up by: the recognised supplier's identity, then every VAT ID
 * printed on the page (the extractor may have missed or mis-assigned the supplier's), bounded.
 */
export function lookupKeys(fields: ExtractedFields, printedText: string): SupplierKey[] {
  const own = supplierKeys({ vat_id: fields.supplier_vat_id?.value, code: fields.supplier_code?.value, name: fields.supplier_name?.value });
  const printed: SupplierKey[] = [];
  for (const v of findVatIds(printedText)) {
    const value = vatKeyValue(v.value);
    if (value && !printed.some((p) => p.value === value)) printed.push({ kind: 'VAT', value });
    if (printed.length >= MAX_PRINTED_VAT_IDS) break;
  }
  return unique([...own, ...printed]);
}

/** The text of every page of a recognition answer, line by line. */
export function printedText(result: AnalyzeExpenseResult): string {
  return blocksToDocument(result)
    .pages.flatMap((p) => p.lines.map((l) => l.text))
    .join('\n');
}
