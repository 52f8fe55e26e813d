import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { companyOf, useReceiptDetail } from '../api/receipts';
import type { Receipt } from '../api/types';
import { SidePanel } from './SidePanel';

/** The full-picture preview: every page image of a document. */
export function PreviewPanel({ receipt, onClose }: { receipt: Receipt; onClose(): void }) {
  const detail = useReceiptDetail(receipt.receipt_id, companyOf(receipt));
  const pages = detail.data?.pages ?? [];
  return (
    <SidePanel title={receipt.original_file_name || 'Preview'} onClose={onClose} wide testId="preview-panel">
      {detail.isPending ? (
        <LoadingBlock label="Loading pages" />
      ) : detail.isError ? (
        <p className="notice notice-error">{messageOf(detail.error)}</p>
      ) : pages.length === 0 ? (
        <p className="muted">No pages yet</p>
      ) : (
        <ol className="preview-pages">
          {pages.map((page, i) => (
            <li key={`${page.document}-${page.page ?? i}`} className="preview-page">
              {page.url ? (
                <img src={page.url} alt={`Page ${i + 1} of ${pages.length}`} loading="lazy" />
              ) : (
                <div className="preview-missing">The page was not processed</div>
              )}
              <span className="preview-page-no">
                {i + 1} / {pages.length}
              </span>
            </li>
          ))}
        </ol>
      )}
    </SidePanel>
  );
}
