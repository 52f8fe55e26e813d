import { valueOf } from '../content/tree';
import type { ExportDocument } from './fields';

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
