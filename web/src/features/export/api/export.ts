import type { ExportFile } from '../../../../../shared/schemas/content';
import { MSG } from '../../../../../shared/schemas/messages';
import { DETAILS_MAX, XML_EXPORT_MAX, type DetailsResponse } from '../../../../../shared/schemas/receipts';
import type { ApiClient } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { companyOf } from '../../receipts/api/receipts';
import type { Receipt, ReceiptDetail } from '../../receipts/api/types';
import { mapLimited } from '../../receipts/lib/concurrency';
import type { ReceiptLike } from '../../receipts/lib/summary';

/** The calls of an export that may run at once. */
const DETAILS_CALLS_AT_ONCE = 4;

/** What GET /receipts/{id} answers for a document the caller may not see (or that is gone): the export stops with it. */
const notFound = () => new ApiError(404, 'NotFound', 'Document not found');

/** POST /receipts/details for the ids of one company, again for those an answer had no room for. */
async function readDetails(api: ApiClient, companyId: string, receiptIds: string[]): Promise<ReceiptLike[]> {
  const out: ReceiptLike[] = [];
  let ask = receiptIds;
  while (ask.length > 0) {
    const answer = await api.post<DetailsResponse>('/receipts/details', { receipt_ids: ask }, { query: { company_id: companyId } });
    if (answer.not_found.length > 0) throw notFound();
    // The server always gives at least one document when it leaves some for later; anything else would never end.
    if (answer.items.length === 0) throw new Error(MSG.somethingWrong);
    out.push(...(answer.items as ReceiptLike[]));
    ask = answer.remaining;
  }
  return out;
}

/**
 * Documents that already carry their content (the edit screen's) are used as they are; list rows are read in full
 * with POST /receipts/details, per company and per 100 (DETAILS_MAX), a few calls at a time. The answer is in the
 * order of `receipts`; a document not found (or any failed call) stops the export with its error.
 */
export async function loadForExport(api: ApiClient, receipts: ReadonlyArray<Receipt | ReceiptDetail>): Promise<ReceiptLike[]> {
  const hasContent = (r: Receipt | ReceiptDetail): r is ReceiptDetail => 'content' in r && Array.isArray(r.content);
  const toRead = receipts.filter((r) => !hasContent(r));
  const calls = [...byCompany(toRead)].flatMap(([companyId, group]) => {
    const ids = [...new Set(group.map((r) => r.receipt_id))];
    return Array.from({ length: Math.ceil(ids.length / DETAILS_MAX) }, (_, i) => ({ companyId, ids: ids.slice(i * DETAILS_MAX, (i + 1) * DETAILS_MAX) }));
  });
  const results = await mapLimited(calls, DETAILS_CALLS_AT_ONCE, (call) => readDetails(api, call.companyId, call.ids));
  const failed = results.find((x) => !x.ok);
  if (failed && !failed.ok) throw failed.error;
  const read = new Map<string, ReceiptLike>();
  for (const [i, result] of results.entries()) {
    if (!result.ok) continue;
    for (const doc of result.value) read.set(`${calls[i]!.companyId}/${doc.receipt_id}`, doc);
  }
  return receipts.map((r) => {
    if (hasContent(r)) return r as ReceiptLike;
    const doc = read.get(`${companyOf(r)}/${r.receipt_id}`);
    if (!doc) throw notFound();
    return doc;
  });
}

/**
 * The version of each document the export's file holds, for "Move items to archive after export" to name (a document
 * changed since is then refused instead of archived in a version the file does not hold): the version read for the
 * file (CSV, PDF: `exported`, in the order of `receipts`), else the one the selection shows (XML, Rivile EIP, i.SAF:
 * the server reads the documents as they are, so one changed since the selection is refused too, which is safe).
 */
export function exportedVersions(
  receipts: ReadonlyArray<Pick<Receipt, 'receipt_id' | 'version'>>,
  exported?: ReadonlyArray<Pick<Receipt, 'receipt_id' | 'version'>>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of receipts) out.set(r.receipt_id, r.version);
  for (const d of exported ?? []) out.set(d.receipt_id, d.version);
  return out;
}

/** Documents grouped by company (an export-xml call names one company). */
export function byCompany<T extends Pick<Receipt, 'company_id'>>(receipts: ReadonlyArray<T>): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of receipts) {
    const key = companyOf(r);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return groups;
}

/**
 * The server calls of a file the server builds (XML, Rivile EIP, i.SAF) and the file each answer goes to: one per
 * company and per `max` documents (100 for XML, the export-xml call's limit); the file name's suffix names the
 * company (by its code in `companies`, the list as it is now) when there are several and the part when a company has
 * more than `max`.
 */
export function serverExportCalls<T extends Pick<Receipt, 'company_id' | 'receipt_id'> & { company_code?: string | null }>(
  receipts: ReadonlyArray<T>,
  max = XML_EXPORT_MAX,
  companies: ReadonlyArray<{ company_id: string; code: string }> = [],
): { companyId: string; receiptIds: string[]; suffix: string }[] {
  const groups = [...byCompany(receipts)];
  return groups.flatMap(([companyId, group]) => {
    // The company's code as it is now (documents keep the code of their upload)
    const code = companies.find((c) => c.company_id === companyId)?.code || group[0]!.company_code || companyId;
    const company = groups.length > 1 ? `-${code}` : '';
    const parts = Math.ceil(group.length / max);
    return Array.from({ length: parts }, (_, i) => ({
      companyId,
      receiptIds: group.slice(i * max, (i + 1) * max).map((r) => r.receipt_id),
      suffix: `${company}${parts > 1 ? `-${i + 1}` : ''}`,
    }));
  });
}

/** The XML files the server makes: the product's XML, and Rivile GAMA's EIP import file (for users without its API). */
export const XML_EXPORTS = { xml: '/receipts/export-xml', rivile: '/receipts/export-rivile' } as const;

/** POST /receipts/export-xml (or export-rivile) with the documents' ids; the answer is the XML text. */
export async function exportXml(api: ApiClient, companyId: string, receiptIds: string[], kind: keyof typeof XML_EXPORTS = 'xml'): Promise<string> {
  const answer = await api.post<unknown>(XML_EXPORTS[kind], { receipt_ids: receiptIds }, { query: { company_id: companyId } });
  if (typeof answer === 'string') return answer;
  if (answer && typeof answer === 'object') {
    const { xml, base64 } = answer as { xml?: unknown; base64?: unknown };
    if (typeof xml === 'string') return xml;
    if (typeof base64 === 'string') return new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  }
  throw new Error('Something went wrong');
}

/**
 * POST /receipts/export-isaf with the documents' ids in the body (a selection of up to ISAF_EXPORT_MAX, more than a
 * query string holds): VMI's i.SAF register of the documents. The reporting company's registration number is its
 * code as it is now (the documents keep the code of their upload, which a rename in Settings leaves behind).
 */
export async function exportIsaf(api: ApiClient, companyId: string, receiptIds: string[], companyCode?: string): Promise<Blob> {
  const registration = (companyCode ?? '').replace(/\D/g, '').slice(0, 11);
  const file = await api.post<ExportFile>('/receipts/export-isaf', { receipt_ids: receiptIds }, { query: { company_id: companyId, ...(registration ? { registration_number: registration } : {}) } });
  return new Blob([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], { type: file.mime });
}
