/**
 * Rivile GAMA (REST API v2, docs/integrations.md): a confirmed document becomes
 *   N08  the supplier (purchase) or customer (sales),
 *   N17  the goods/services its lines use (a line item's product code, else one service per VAT code),
 *   I06  the document header (I06_OP_TIP 1 purchase, 2 purchase return, 51 sales, 52 sales credit note) with its
 *        I07 lines. A credit note (i.SAF invoice type KS, or a negative total) is a return or a credit note; its
 *        amounts go as on the document (negative when it shows them so): the facts name the operation types but not
 *        the sign GAMA expects on them (docs/integrations.md).
 * One record per EDIT call, in that order (a line needs its item, a document its client). An "already exists"
 * answer to a create counts as success, so a re-send after a crash half-way creates nothing twice.
 * VAT codes by rate and document date as in the i.SAF export (PVM1 21 %, PVM2 9 % before 2026, PVM58 12 % …).
 */
import { valueOf } from '../content/tree';
import { stakeholderKind } from '../content/schema';
import type { ExportDocument } from '../export/fields';
import { partyAddress } from '../export/parties';
import { currencyCode } from '../../../shared/currency';
import { accountingLines, money, num, type AccountingLine } from './lines';
import { TargetError, type RivileApi } from './ports';

export const RIVILE_OP_PURCHASE = 1;
export const RIVILE_OP_PURCHASE_RETURN = 2;
export const RIVILE_OP_SALES = 51;
export const RIVILE_OP_SALES_CREDIT = 52;
/** The code length GAMA allows for N08_KODAS_KS and N17_KODAS_PS. */
const CODE_MAX = 12;

export interface RivileRecords {
  n08: Record<string, string>;
  n17: Record<string, string>[];
  i06: Record<string, unknown> & { I07: Record<string, string>[] };
}

/**
 * API dates: YYYY-MM-DD, as the REST API guide's own request example writes a date (EDIT_I09 `I09_IS_DATA`
 * `2019-10-29`) and its lists answer them; the EIP file writes them YYYY.MM.DD (`eipDate`, rivile-eip.ts).
 */
const apiDate = (iso: string) => iso.slice(0, 10);
/** EIP file dates: YYYY.MM.DD. */
export const eipDate = (iso: string) => iso.slice(0, 10).replace(/-/g, '.');
/** The I06 fields that hold dates. */
export const I06_DATE_FIELDS = ['I06_OP_DATA', 'I06_DOK_DATA', 'I06_MOK_DATA'] as const;
const clip = (s: string, max: number) => s.trim().slice(0, max);

/** The client's code: company code, else VAT id, else a code from the name (stable for the same name). */
export function clientCode(code: string, vat: string, name: string): string {
  const clean = (s: string) => s.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  if (clean(code)) return clean(code).slice(0, CODE_MAX);
  if (clean(vat)) return clean(vat).slice(0, CODE_MAX);
  let h = 0;
  for (const ch of name.trim().toUpperCase()) h = (Math.imul(h, 31) + ch.codePointAt(0)!) >>> 0;
  return `K${h.toString(36).toUpperCase()}`.slice(0, CODE_MAX);
}

/** The GAMA operation type: a credit note (invoice type KS, or a negative total) is a return or a credit note. */
function operationType(doc: ExportDocument, lines: AccountingLine[]): number {
  const total = num(valueOf(doc.content, 'amount_total')) ?? lines.reduce((s, l) => s + l.net + l.tax, 0);
  const credit = valueOf(doc.content, 'document_category').trim().toUpperCase() === 'KS' || total < 0;
  if (doc.receipt_type === 'receipt') return credit ? RIVILE_OP_PURCHASE_RETURN : RIVILE_OP_PURCHASE;
  return credit ? RIVILE_OP_SALES_CREDIT : RIVILE_OP_SALES;
}

/** The records of one document, in the order they are sent. */
export function rivileRecords(doc: ExportDocument): RivileRecords {
  const kind = stakeholderKind(doc.receipt_type);
  const v = (id: string) => valueOf(doc.content, id);
  const date = v('issue_date') || doc.created_at.slice(0, 10);
  const name = v(`${kind}_name`);
  const code = clientCode(v(`${kind}_code`), v(`${kind}_vat_id`), name);
  // The address in GAMA's own fields (street, city, post code), as the master-data import reads them back. An address
  // read from the document as one line into Street ("Savanorių pr. 178, LT-03154 Vilnius") gives its post code and
  // town when the document has none of its own; the country is i.SAF's (the field, else the VAT ID's prefix).
  const vat = v(`${kind}_vat_id`).replace(/\s+/g, '');
  const address = partyAddress(v, kind);
  const n08: Record<string, string> = {
    N08_KODAS_KS: code,
    N08_PAV: clip(name, 100),
    N08_IM_KODAS: clip(v(`${kind}_code`), 20),
    N08_PVM_KODAS: clip(vat, 20),
    N08_ADR: clip(address.street, 100),
    N08_MIESTAS: clip(address.city, 40),
    N08_POST_KODAS: clip(address.zipcode, 20),
    N08_SALIS_K: address.country ?? '',
    // 1: supplier, 2: buyer.
    N08_RUSIS: doc.receipt_type === 'receipt' ? '1' : '2',
  };

  const items = new Map<string, Record<string, string>>();
  const booked = accountingLines(doc, date);
  const lines: Record<string, string>[] = booked.map((l) => {
    // A rate without a code of VMI's classifier for the date (0 %, an unknown rate) leaves the code to the bookkeeper.
    const taxCode = l.taxCode ?? '';
    const own = clip(l.code.replace(/[^0-9A-Za-z._-]/g, '').toUpperCase(), CODE_MAX);
    const itemCode = own || `RC-${taxCode || (l.rate === null ? 'NA' : `P${String(l.rate).replace('.', '_')}`)}`;
    // Lines of the VAT totals by the document's category (document_category is the i.SAF invoice type: SF, KS).
    const name = l.description || (l.fromTotals ? doc.category?.trim() || 'Services' : itemCode);
    if (!items.has(itemCode)) {
      items.set(itemCode, { N17_KODAS_PS: itemCode, N17_PAV: clip(own ? name : l.rate === null ? 'Services' : `Services ${l.rate}% VAT`, 100), N17_TIPAS: own ? '1' : '2', N17_KODAS_US: clip(l.unit || 'VNT', 10) });
    }
    return {
      I07_KODAS: itemCode,
      I07_PAV: clip(name, 100),
      I07_KIEKIS: String(l.quantity),
      I07_KAINA_BE: money(l.quantity ? l.net / l.quantity : l.net),
      I07_SUMA: money(l.net),
      I07_PVM: money(l.tax),
      I07_PVM_PROC: l.rate === null ? '' : String(l.rate),
      I07_MOKESTIS: taxCode,
    };
  });
  const number = clip(v('document_id') || doc.receipt_id, 40);
  const i06 = {
    I06_OP_TIP: String(operationType(doc, booked)),
    I06_DOK_NR: number,
    I06_OP_DATA: apiDate(date),
    I06_DOK_DATA: apiDate(date),
    I06_MOK_DATA: apiDate(v('due_date') || date),
    I06_KODAS_KS: code,
    I06_VAL_KODAS: clip(currencyCode(v('currency')), 3),
    I06_PAV: clip(name, 100),
    // The product's id travels in the description: the record can be traced back to the document.
    I06_APRASYMAS: clip(`Receipts ${doc.receipt_id}${doc.notes ? ` ${doc.notes}` : ''}`, 200),
    I07: lines,
  };
  return { n08, n17: [...items.values()], i06 };
}

const ALREADY_EXISTS = /already exists|jau egzistuoja/i;

async function create(api: RivileApi, apiKey: string, method: string, table: string, record: Record<string, unknown>): Promise<'created' | 'existed'> {
  try {
    await api.call(apiKey, method, { oper: 'I' }, { [table]: record });
    return 'created';
  } catch (error) {
    if (error instanceof TargetError && ALREADY_EXISTS.test(error.message)) return 'existed';
    throw error;
  }
}

/** The description the export gives an I06 (`I06_APRASYMAS`): it starts with the product's document id. */
const ownDescription = (receiptId: string) => new RegExp(`^Receipts ${receiptId}(\\s|$)`);

/** The I06 rows of a list answer: `{ I06: [...] }` (also accepted: a bare array, or one record). */
function i06Rows(answer: unknown): Record<string, unknown>[] {
  const body = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>).I06 : answer;
  if (Array.isArray(body)) return body.filter((r): r is Record<string, unknown> => Boolean(r) && typeof r === 'object');
  return body && typeof body === 'object' ? [body as Record<string, unknown>] : [];
}

/** The refusal of a document whose I06 key (type, client, number) Rivile holds for another document. */
export const rivileTakenMessage = (number: string, clientCode: string) =>
  `Rivile already has document ${number} of client ${clientCode} from another document; it was not overwritten`;

/**
 * Sends one document: N08, each N17, then I06 with its I07 lines. An I06 Rivile already has under the same type,
 * client and number is updated only when it is this document's (sent before, and corrected since: its description
 * carries this document's id); one of another document is not overwritten, and the send fails for good with a
 * message naming it (two documents of one supplier and number would otherwise both read "Exported to Rivile" while
 * Rivile holds one of them). Returns a reference for the export marker.
 */
export async function exportToRivile(api: RivileApi, apiKey: string, doc: ExportDocument): Promise<string> {
  const records = rivileRecords(doc);
  await create(api, apiKey, 'EDIT_N08', 'N08', records.n08);
  for (const item of records.n17) await create(api, apiKey, 'EDIT_N17', 'N17', item);
  let outcome: 'created' | 'existed' | 'updated' = await create(api, apiKey, 'EDIT_I06', 'I06', records.i06);
  if (outcome === 'existed') {
    const { I06_OP_TIP: type, I06_KODAS_KS: client, I06_DOK_NR: number } = records.i06 as Record<string, string>;
    const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
    const fil = `I06_OP_TIP=${quote(type)} AND I06_KODAS_KS=${quote(client)} AND I06_DOK_NR=${quote(number)}`;
    const held = i06Rows(await api.call(apiKey, 'GET_I06_LIST', { pagenumber: 1, list: 'H', fil }));
    const description = String(held[0]?.I06_APRASYMAS ?? '');
    if (!ownDescription(doc.receipt_id).test(description)) throw new TargetError(rivileTakenMessage(number, client), false);
    await api.call(apiKey, 'EDIT_I06', { oper: 'U' }, { I06: records.i06 });
    outcome = 'updated';
  }
  return `I06 ${records.i06.I06_OP_TIP}/${records.i06.I06_KODAS_KS}/${records.i06.I06_DOK_NR} (${outcome})`;
}

/** The connection test: one list call that any valid key may make. */
export async function testRivile(api: RivileApi, apiKey: string): Promise<void> {
  await api.call(apiKey, 'GET_N08_LIST', { pagenumber: 1, fil: "N08_KODAS_KS='-'" });
}
