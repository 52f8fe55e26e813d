/**
 * Rivile GAMA's EIP import file, for users without API access (docs/integrations.md): XML fragments without a
 * root element, one <N08> per client, one <N17> per item, then one <I06> per document with its <I07> lines,
 * dates as YYYY.MM.DD. The records are the very ones the API export sends (rivile.ts), its dates written as EIP's. Characters that XML 1.0
 * forbids (control characters, lone surrogates) are left out (shared/text.ts).
 */
import { XMLBuilder } from 'fast-xml-parser';
import { notFound } from '../../../shared/errors';
import { stripForbiddenChars } from '../../../shared/text';
import type { FileStore } from '../documents/ports';
import type { DocumentRecord } from '../documents/types';
import { canSee, type DocCaller } from '../documents/workflow';
import { stakeholderKind } from '../content/schema';
import { valueOf } from '../content/tree';
import type { ExportDocument } from '../export/fields';
import { namesParty, partiesByCode } from '../export/parties';
import { refuseDocuments, refuseVatLinesOff, verb } from '../export/refusals';
import { exportDocumentOf } from './export';
import { eipDate, I06_DATE_FIELDS, rivileRecords } from './rivile';

/**
 * Rivile books each document on its issue date and against its client: a document without an issue date would land in
 * the month of its upload, one without a supplier or customer under a nameless client. The file is refused (422)
 * naming those documents. The API export sends only confirmed documents, which have their party, and refuses an
 * undated one (integrations/export.ts).
 */
function refuseUnbookable(docs: ExportDocument[]): void {
  refuseDocuments(docs, {
    lacks: (d) => !valueOf(d.content, 'issue_date').trim(),
    message: (names, count) => `Rivile EIP needs an issue date: ${names} ${verb(count, 'has', 'have')} no issue date`,
    field: () => 'issue_date',
    detail: () => 'The document has no issue date',
  });
  refuseDocuments(docs, {
    lacks: (d) => !namesParty(d),
    message: (names, count) => `Rivile EIP needs a supplier or customer: ${names} ${verb(count, 'has', 'have')} none`,
    field: (d) => `${stakeholderKind(d.receipt_type)}_name`,
    detail: (d) => `The document has no ${stakeholderKind(d.receipt_type)}`,
  });
  // its lines (I07) carry the VAT by rate of the VAT lines
  refuseVatLinesOff(docs, 'Rivile EIP');
}

export function buildRivileEip(docs: ExportDocument[]): string {
  refuseUnbookable(docs);
  const builder = new XMLBuilder({ format: true, suppressEmptyNode: false });
  const records = new Map(docs.map((doc) => [doc, rivileRecords(doc)] as const));
  // one N08 per client code, each field the newest document's that gives it (docs/decisions.md, "Rivile EIP file")
  const clients = partiesByCode(docs, (doc) => {
    const { n08 } = records.get(doc)!;
    return { code: n08.N08_KODAS_KS!, record: n08 };
  }, (v) => v !== '' && v !== undefined);
  const items = new Map<string, Record<string, string>>();
  const headers: Record<string, unknown>[] = [];
  for (const doc of docs) {
    const r = records.get(doc)!;
    for (const i of r.n17) items.set(i.N17_KODAS_PS!, i);
    headers.push({ ...r.i06, ...Object.fromEntries(I06_DATE_FIELDS.map((f) => [f, eipDate(String(r.i06[f]))])) });
  }
  const parts = [
    ...[...clients.values()].map((n08) => builder.build({ N08: n08 }) as string),
    ...[...items.values()].map((n17) => builder.build({ N17: n17 }) as string),
    ...headers.map((i06) => builder.build({ I06: i06 }) as string),
  ];
  return stripForbiddenChars(parts.map((p) => p.trim()).join('\n') + '\n');
}

/** The EIP file of the selected documents the caller may see (same 404 for another company's). */
export async function rivileEipOf(
  deps: { documents: { getMany(ids: string[]): Promise<DocumentRecord[]> }; files: FileStore },
  caller: DocCaller,
  receiptIds: string[],
): Promise<string> {
  const ids = [...new Set(receiptIds)];
  const docs = (await deps.documents.getMany(ids)).filter((d) => canSee(d, caller));
  if (docs.length !== ids.length) throw notFound('Document not found');
  const byId = new Map(docs.map((d) => [d.receipt_id, d]));
  return buildRivileEip(await Promise.all(ids.map((id) => exportDocumentOf(deps.files, byId.get(id)!))));
}
