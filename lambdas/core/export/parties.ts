import { stakeholderKind } from '../content/schema';
import { valueOf } from '../content/tree';
import type { ExportDocument } from './fields';

/**
 * Whether the document names its party at all (a name, code or VAT ID). An accounting system books a document
 * against a client: one without any would become a nameless client, so the Rivile EIP file refuses it (a confirm,
 * and so a send to NSOFT or Rivile, needs the supplier's or customer's name already).
 */
export function namesParty(doc: ExportDocument): boolean {
  const kind = stakeholderKind(doc.receipt_type);
  return [`${kind}_name`, `${kind}_code`, `${kind}_vat_id`].some((id) => valueOf(doc.content, id).trim() !== '');
}

/**
 * The master records of an export file that lists each supplier or customer once (i.SAF's MasterFiles, Rivile EIP's
 * N08), by their code, from the documents that name them. Documents of one code may say more or less of it (one
 * gives the VAT ID, a later one leaves it out): each field is the newest document's that gives it (by issue date,
 * then upload time), so a document without a value never blanks one another gave, and the file is the same
 * whatever the order of the selection.
 */
export function partiesByCode<D extends ExportDocument, R extends Record<string, unknown>>(
  docs: ReadonlyArray<D>,
  recordOf: (doc: D) => { code: string; record: R } | null,
  given: (value: unknown) => boolean,
): Map<string, R> {
  const newestLast = [...docs].sort((a, b) => documentOrder(a).localeCompare(documentOrder(b)));
  const parties = new Map<string, R>();
  for (const doc of newestLast) {
    const found = recordOf(doc);
    if (!found) continue;
    const before = parties.get(found.code);
    if (!before) {
      parties.set(found.code, found.record);
      continue;
    }
    const merged: Record<string, unknown> = { ...before };
    for (const [field, value] of Object.entries(found.record)) if (given(value) || !given(before[field])) merged[field] = value;
    parties.set(found.code, merged as R);
  }
  return parties;
}

function documentOrder(doc: ExportDocument): string {
  return `${valueOf(doc.content, 'issue_date').trim()}|${doc.created_at}|${doc.receipt_id}`;
}
