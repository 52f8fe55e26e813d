/**
 * Several documents in full in one call (POST /receipts/details): the CSV and PDF exports are built in the browser
 * and need each document's content. One BatchGetItem of the documents (data-model D1b), then their contents from
 * storage, a few at a time; a document the caller may not see is answered as not found, per id.
 */
import { DETAILS_BYTES_MAX, type DetailsResponse, type ReceiptDetailItem } from '../../../shared/schemas/receipts';
import { parseStoredContent } from '../content/service';
import type { DocumentsStore, FileStore } from './ports';
import { toDetail } from './views';
import { canSee, type DocCaller } from './workflow';

/** Contents read from storage at once (each a GetObject of a few KB to about 1 MB). */
export const CONTENT_READS_AT_ONCE = 10;

export interface DetailsDeps {
  documents: Pick<DocumentsStore, 'getMany'>;
  files: Pick<FileStore, 'getJson'>;
}

/** The size Lambda counts for a part of a JSON body: its text as a JSON string (quotes and backslashes escaped). */
function countedBytes(json: string): number {
  return Buffer.byteLength(JSON.stringify(json)) - 2;
}

/**
 * The documents of `receiptIds` (in that order, each once) the caller may see, with their content: as GET
 * /receipts/{id} gives them, without history and page links. Ids of documents the caller may not see (another
 * company's, another user's unassigned one, a missing one) are listed in `not_found`, all alike. Once the documents
 * read reach `maxBytes`, the ids after them are listed in `remaining` (the first document always comes).
 */
export async function getDocumentDetails(
  deps: DetailsDeps,
  caller: DocCaller,
  receiptIds: readonly string[],
  opts: { maxBytes?: number; readsAtOnce?: number } = {},
): Promise<DetailsResponse> {
  const maxBytes = opts.maxBytes ?? DETAILS_BYTES_MAX;
  const readsAtOnce = Math.max(1, opts.readsAtOnce ?? CONTENT_READS_AT_ONCE);
  const ids = [...new Set(receiptIds)];
  // Consistent, as GET /receipts/{id} (D1): an export right after an edit has the edit.
  const records = await deps.documents.getMany(ids, { consistent: true });
  const byId = new Map(records.filter((d) => canSee(d, caller)).map((d) => [d.receipt_id, d]));
  const visible = ids.filter((id) => byId.has(id));
  const items: ReceiptDetailItem[] = [];
  let bytes = 0;
  let read = 0;
  // In windows of `readsAtOnce`, in order, so that at most the answer and one window are held in memory.
  while (read < visible.length) {
    const window = visible.slice(read, read + readsAtOnce);
    const details = await Promise.all(
      window.map(async (id) => {
        const doc = byId.get(id)!;
        const raw = doc.content_key ? await deps.files.getJson<unknown>(doc.content_key) : undefined;
        const { history: _history, ...detail } = toDetail(doc, parseStoredContent(raw)?.items, doc.pages.map(() => null), []);
        return detail;
      }),
    );
    for (const detail of details) {
      const size = countedBytes(JSON.stringify(detail)) + 1;
      if (items.length > 0 && bytes + size > maxBytes) {
        return { items, not_found: ids.filter((id) => !byId.has(id)), remaining: visible.slice(items.length) };
      }
      items.push(detail);
      bytes += size;
      read += 1;
    }
  }
  return { items, not_found: ids.filter((id) => !byId.has(id)), remaining: [] };
}
