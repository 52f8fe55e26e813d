/**
 * The content service's ports, wired to the documents domain: records and their access check
 * (loadVisible), versioned commits with history and live events (documents store, publishDoc), content and
 * box JSON in the documents bucket (documentKeys), plus the content settings table items.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { contentSummary } from '../../core/content/service';
import type { ContentPorts, DocumentsAccess } from '../../core/content/ports';
import { documentKeyText } from '../../core/documents/content';
import { digest, documentKeys } from '../../core/documents/files';
import { searchTextOf } from '../../core/documents/list';
import { CommitConflict } from '../../core/documents/ports';
import { BACK_TO_REVIEW, countMove } from '../../core/documents/status-machine';
import { emptyChange, type DocumentRecord } from '../../core/documents/types';
import { actorOf, canSee, historyRecord, loadVisible, moveKeyMarker, PAGE_URL_SECONDS, publishDoc, sameDocumentAfter, staleVersion } from '../../core/documents/workflow';
import type { PageBoxes } from '../../core/content/build';
import { ddbContentSettings } from '../../adapters/ddb/content-store';
import type { Deps } from '../../runtime/deps';

let fontCache: Promise<{ regular?: Uint8Array; bold?: Uint8Array }> | undefined;

/** Liberation Sans (shipped with pdfjs-dist) for PDF exports; without it the export falls back to Helvetica. */
function exportFonts() {
  fontCache ??= (async () => {
    try {
      const require = createRequire(import.meta.url);
      const [regular, bold] = await Promise.all([
        readFile(require.resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf')),
        readFile(require.resolve('pdfjs-dist/standard_fonts/LiberationSans-Bold.ttf')),
      ]);
      return { regular: new Uint8Array(regular), bold: new Uint8Array(bold) };
    } catch {
      return {};
    }
  })();
  return fontCache;
}

function documentsAccess(d: Deps): DocumentsAccess {
  const { documents, files } = d;
  return {
    load: (caller, receiptId) => loadVisible(documents, caller, receiptId),

    async saveContent({ caller, before, contentKey, content, historyName, backToReview }) {
      const actor = await actorOf(d.store, caller.userId);
      const summary = contentSummary(content, before.receipt_type);
      const keyText = documentKeyText(summary);
      const now = d.clock.now().toISOString();
      const after: DocumentRecord = {
        ...before,
        status: backToReview ? 'review' : before.status,
        content_key: contentKey,
        counterparty_name: summary.counterparty_name,
        counterparty_code: summary.counterparty_code,
        counterparty_vat_id: summary.counterparty_vat_id,
        document_number: summary.document_number,
        issue_date: summary.issue_date,
        total: summary.total,
        currency: summary.currency,
        key_digest: keyText ? digest(keyText) : null,
        version: before.version + 1,
        updated_at: now,
      };
      after.search_text = searchTextOf(after);
      after.same_document = await sameDocumentAfter(documents, before, after);
      const change = emptyChange();
      change.updates.push({ before, after });
      moveKeyMarker(change, before, after);
      change.history.push(historyRecord(d.ids, before.receipt_id, now, historyName, actor));
      if (backToReview) {
        change.counts.push(...countMove(before, after));
        change.history.push(historyRecord(d.ids, before.receipt_id, now, BACK_TO_REVIEW, actor));
      }
      try {
        await documents.commit(change);
      } catch (error) {
        // The losing write's content object is not referenced by anything.
        await files.delete([contentKey]).catch(() => undefined);
        if (error instanceof CommitConflict && error.reason === 'version') {
          const current = await documents.get(before.receipt_id);
          throw staleVersion(current?.version ?? before.version);
        }
        throw error;
      }
      if (before.content_key && before.content_key !== contentKey) await files.delete([before.content_key]).catch(() => undefined);
      await publishDoc(d.live, 'receipt-update', after);
      return after;
    },

    async loadMany(caller, receiptIds) {
      // Consistent, as `load`: an export right after a save has the saved content.
      const docs = await documents.getMany(receiptIds, { consistent: true });
      return docs.filter((doc) => canSee(doc, caller));
    },

    async pageUrl(record, page) {
      const key = record.pages.find((p) => p.page === page)?.image_key;
      return key ? files.presignGet(key, PAGE_URL_SECONDS) : null;
    },
  };
}

export function contentPorts(d: Deps): ContentPorts {
  const { files } = d;
  return {
    documents: documentsAccess(d),
    blobs: {
      readContent: (key) => files.getJson<unknown>(key),
      async writeContent(record, content) {
        const key = documentKeys.content(record.receipt_id, d.ids.newId());
        await files.putJson(key, content);
        return key;
      },
      readBoxes: (record) => (record.boxes_key ? files.getJson<PageBoxes[]>(record.boxes_key) : Promise.resolve(undefined)),
      writeBoxes: (record, boxes) => files.putJson(record.boxes_key ?? documentKeys.boxes(record.receipt_id, record.processing_run), boxes),
    },
    settings: ddbContentSettings,
    clock: d.clock,
    fonts: exportFonts,
  };
}

/** The caller as the content service sees it. */
export function contentCaller(caller: { userId: string; companyId?: string } | undefined) {
  if (!caller) throw new Error('caller required');
  return { userId: caller.userId, companyId: caller.companyId };
}
