import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { companyOf, useReceiptPreview } from '../api/receipts';
import type { Receipt } from '../api/types';
import { SidePanel } from './SidePanel';

/** The full-picture preview: every page image of a document, with its main values. */
export function PreviewPanel({ receipt, onClose }: { receipt: Receipt; onClose(): void }) {
  const preview = useReceiptPreview(receipt.receipt_id, companyOf(receipt));
  const pages = preview.data?.pages ?? [];
  const fields = (preview.data?.fields ?? []).filter((f) => f.value);
  return (
    <SidePanel title={receipt.original_file_name || 'Preview'} onClose={onClose} wide testId="preview-panel">
      {preview.isPending ? (
        <LoadingBlock label="Loading pages" />
      ) : preview.isError ? (
        <p className="notice notice-error">{messageOf(preview.error)}</p>
      ) : (
        <div className="preview">
          {fields.length > 0 && (
            <dl className="facts preview-facts">
              {fields.map((f) => (
                <div key={f.id} className="preview-fact">
                  <dt>{f.label}</dt>
                  <dd>{f.value}</dd>
                </div>
              ))}
            </dl>
          )}
          {pages.length === 0 ? (
            <p className="muted">No pages yet</p>
          ) : (
            <ol className="preview-pages">
              {pages.map((page, i) => (
                <li key={`${page.document}-${page.page}`} className="preview-page">
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
        </div>
      )}
    </SidePanel>
  );
}
