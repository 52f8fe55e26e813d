/**
 * A file that a whole selection goes into is refused (422) when some of its documents lack what the file needs,
 * naming those documents, instead of writing them wrongly (i.SAF, Rivile EIP).
 */
import { vatLinesMismatch } from '../../../shared/document-arithmetic';
import { AppError } from '../../../shared/errors';
import { rowsOf, valueOf } from '../content/tree';
import type { ExportDocument } from './fields';

/** How the user knows the document: its file name, else its number. */
export function documentName(doc: ExportDocument): string {
  return doc.original_file_name?.trim() || valueOf(doc.content, 'document_id').trim() || doc.receipt_id;
}

/** The names of documents as a message lists them: the first five, "and N more". */
export function listedDocuments(docs: ReadonlyArray<ExportDocument>): string {
  const names = docs.map(documentName);
  return names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
}

export interface Refusal {
  /** True when the document lacks what the file needs. */
  lacks: (doc: ExportDocument) => boolean;
  /** The message, from the listed names and how many documents lack it. */
  message: (names: string, count: number) => string;
  /** The field a document lacks, and what its detail says. */
  field: (doc: ExportDocument) => string;
  detail: (doc: ExportDocument) => string;
}

/** Throws 422 naming the documents that lack what `refusal` checks; nothing when none does. */
export function refuseDocuments(docs: ReadonlyArray<ExportDocument>, refusal: Refusal): void {
  const lacking = docs.filter(refusal.lacks);
  if (!lacking.length) return;
  const details = lacking.map((d) => ({ path: [d.receipt_id, refusal.field(d)], message: refusal.detail(d) }));
  throw new AppError('ValidationFailed', refusal.message(listedDocuments(lacking), lacking.length), details);
}

/** 'has' / 'have', 'is' / 'are' by how many documents a message names. */
export const verb = (count: number, one: string, many: string) => (count === 1 ? one : many);

const amountOf = (v: string | undefined) => {
  const n = Number(v ?? '');
  return v !== undefined && v.trim() !== '' && Number.isFinite(n) ? n : undefined;
};

/**
 * Where a document's VAT lines do not add up (shared/document-arithmetic.ts `vatLinesMismatch`, the edit screen's
 * hint under VAT lines): i.SAF, Rivile and NSOFT take the VAT by rate from the lines, so such a document would be
 * booked with amounts its own totals contradict. null when they add up or cannot be checked.
 */
export function vatLinesOff(doc: ExportDocument): string | null {
  const lines = rowsOf(doc.content, 'vat_lines').map((l) => ({ base: amountOf(l.vat_line_base), vat: amountOf(l.vat_line_tax), gross: amountOf(l.vat_line_total) }));
  return vatLinesMismatch(lines, amountOf(valueOf(doc.content, 'amount_tax')), amountOf(valueOf(doc.content, 'amount_total')))?.text ?? null;
}

/** Refuses (422) a file of `format` that takes its VAT from the VAT lines, naming the documents whose lines do not add up. */
export function refuseVatLinesOff(docs: ReadonlyArray<ExportDocument>, format: string): void {
  refuseDocuments(docs, {
    lacks: (d) => vatLinesOff(d) !== null,
    message: (names, count) => `${format} takes the VAT from the VAT lines: those of ${names} do not add up to ${verb(count, 'its', 'their')} totals`,
    field: () => 'vat_lines',
    detail: (d) => vatLinesOff(d)!,
  });
}

