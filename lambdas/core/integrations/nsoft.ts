/**
 * NSOFT import file. No public description of NSOFT's import format or API exists (docs/integrations.md), so
 * this is the product's documented "NSOFT CSV import profile" v1, delivered to the NSOFT server's FTP folder
 * next to the original file; a real format drops in behind the same target (build a different file here).
 *
 * UTF-8 with BOM, ';' separated, '"' quoted, CRLF, a header row, one row per line item (or per VAT rate when
 * the document has no line items, or they do not give its VAT per rate to the cent: lines.ts). Amounts with '.' and
 * two decimals; dates YYYY-MM-DD.
 */
import { isFormulaCell } from '../../../shared/csv-safety';
import { stripForbiddenChars } from '../../../shared/text';
import { valueOf } from '../content/tree';
import { stakeholderKind } from '../content/schema';
import type { ExportDocument } from '../export/fields';
import { partyAddress } from '../export/parties';
import { currencyCode } from '../../../shared/currency';
import { accountingLines, money, num } from './lines';

export const NSOFT_COLUMNS = [
  'DOC_KIND',
  'DOC_NO',
  'DOC_DATE',
  'DUE_DATE',
  'PARTNER_CODE',
  'PARTNER_VAT',
  'PARTNER_NAME',
  'PARTNER_COUNTRY',
  'CURRENCY',
  'LINE_NO',
  'ITEM_CODE',
  'ITEM_NAME',
  'QUANTITY',
  'UNIT',
  'NET_AMOUNT',
  'VAT_RATE',
  'VAT_CODE',
  'VAT_AMOUNT',
  'GROSS_AMOUNT',
  'DOC_TOTAL',
  'EXTERNAL_ID',
] as const;


/** Control characters other than tab, CR and LF and lone surrogates are left out (shared/text.ts). */
function csvCell(raw: string): string {
  const value = stripForbiddenChars(raw);
  // Cells starting with = + - @ (but plain numbers) are prefixed with ' so spreadsheets do not run them as
  // formulas, by the rule of every CSV the product writes (shared/csv-safety.ts).
  const safe = isFormulaCell(value) ? `'${value}` : value;
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function nsoftRows(doc: ExportDocument): Record<(typeof NSOFT_COLUMNS)[number], string>[] {
  const kind = stakeholderKind(doc.receipt_type);
  const v = (id: string) => valueOf(doc.content, id);
  const date = v('issue_date') || doc.created_at.slice(0, 10);
  const head = {
    // PIRK: purchase (a receipt: the supplier's document); PARD: sales (an invoice to a customer).
    DOC_KIND: doc.receipt_type === 'receipt' ? 'PIRK' : 'PARD',
    DOC_NO: v('document_id'),
    DOC_DATE: date,
    DUE_DATE: v('due_date'),
    PARTNER_CODE: v(`${kind}_code`),
    PARTNER_VAT: v(`${kind}_vat_id`).replace(/\s+/g, ''),
    PARTNER_NAME: v(`${kind}_name`),
    // The Country field, else the VAT ID's prefix or the post code's letters, as Rivile and i.SAF give it
    PARTNER_COUNTRY: partyAddress(v, kind).country ?? '',
    CURRENCY: currencyCode(v('currency')),
    DOC_TOTAL: num(v('amount_total')) !== undefined ? money(num(v('amount_total'))!) : '',
    EXTERNAL_ID: doc.receipt_id,
  };
  return accountingLines(doc, date).map((l, i) => ({
    ...head,
    LINE_NO: String(i + 1),
    ITEM_CODE: l.code,
    // Lines of the VAT totals by the document's category (document_category is the i.SAF invoice type: SF, KS).
    ITEM_NAME: l.description || (l.fromTotals ? doc.category?.trim() || '' : ''),
    QUANTITY: String(l.quantity),
    UNIT: l.unit,
    NET_AMOUNT: money(l.net),
    VAT_RATE: l.rate === null ? '' : String(l.rate),
    VAT_CODE: l.taxCode ?? '',
    VAT_AMOUNT: money(l.tax),
    GROSS_AMOUNT: money(l.net + l.tax),
  }));
}

export function buildNsoftCsv(doc: ExportDocument): string {
  const rows = nsoftRows(doc);
  const lines = [NSOFT_COLUMNS.join(';'), ...rows.map((r) => NSOFT_COLUMNS.map((c) => csvCell(r[c])).join(';'))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
