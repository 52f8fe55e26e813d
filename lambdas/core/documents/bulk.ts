/**
 * Actions on selected rows: POST /receipts/bulk (status, flag, type, delete by receipt_ids) and
 * POST /receipts/export-xml. A bulk action is applied document by document (each its own
 * transaction with its own counts), and the answer says per document how it went.
 */
import { AppError, notFound } from '../../../shared/errors';
import type { BulkBody, StatusAction } from '../../../shared/schemas/receipts';
import { companySchema } from '../content/schema';
import { parseStoredContent } from '../content/service';
import { emptyContent } from '../content/tree';
import { buildDocumentsXml } from '../export/xml';
import { toSummary } from './views';
import { canSee, convertType, deleteDocument, setFlag, type DocCaller, type DocumentDeps } from './workflow';

export interface BulkResult {
  receipt_id: string;
  ok: boolean;
  status: number;
  message?: string;
  receipt?: ReturnType<typeof toSummary>;
}

/**
 * `changeStatus` is the status change the caller wires in: the edit screen's rules (a document is marked ready only
 * with content a confirm would take, core/content/edit.ts `changeDocumentStatus`).
 */
export async function bulkAction(
  deps: DocumentDeps,
  caller: DocCaller,
  body: BulkBody,
  changeStatus: (caller: DocCaller, receiptId: string, status: StatusAction) => Promise<ReturnType<typeof toSummary>>,
): Promise<{ results: BulkResult[] }> {
  const results: BulkResult[] = [];
  for (const id of [...new Set(body.receipt_ids)]) {
    try {
      switch (body.action) {
        case 'status':
          results.push({ receipt_id: id, ok: true, status: 200, receipt: await changeStatus(caller, id, body.status) });
          break;
        case 'flag':
          results.push({ receipt_id: id, ok: true, status: 200, receipt: await setFlag(deps, caller, id, body.flag) });
          break;
        case 'type':
          results.push({ receipt_id: id, ok: true, status: 200, receipt: await convertType(deps, caller, id, body.receipt_type) });
          break;
        case 'delete':
          await deleteDocument(deps, caller, id);
          results.push({ receipt_id: id, ok: true, status: 200 });
          break;
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ receipt_id: id, ok: false, status: error.statusCode, message: error.message });
    }
  }
  return { results };
}

/** The product's XML of the selected documents (format: core/export/xml.ts, docs/decisions.md "Exports"). */
export async function exportXml(deps: Pick<DocumentDeps, 'documents' | 'files' | 'clock'>, caller: DocCaller, receiptIds: string[]): Promise<string> {
  const ids = [...new Set(receiptIds)];
  const docs = await deps.documents.getMany(ids);
  const visible = docs.filter((d) => canSee(d, caller));
  // Same answer for another company's document and for one that does not exist.
  if (visible.length !== ids.length) throw notFound('Document not found');
  const byId = new Map(visible.map((d) => [d.receipt_id, d]));
  const schema = companySchema();
  const exportDocs = await Promise.all(
    ids.map(async (id) => {
      const d = byId.get(id)!;
      const raw = d.content_key ? await deps.files.getJson<unknown>(d.content_key) : undefined;
      return {
        receipt_id: d.receipt_id,
        receipt_type: d.receipt_type,
        status: d.status,
        created_at: d.created_at,
        original_file_name: d.original_file_name,
        user: d.user,
        category: d.category,
        notes: d.notes,
        content: parseStoredContent(raw) ?? emptyContent(schema),
      };
    }),
  );
  return buildDocumentsXml(exportDocs, schema, deps.clock.now());
}
