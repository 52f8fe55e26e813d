import { memo, type KeyboardEvent, type MouseEvent } from 'react';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { formatDate } from '../../../lib/format';
import type { Receipt } from '../api/types';
import { formatDay } from '../lib/dates';
import { rowRules } from '../lib/row-rules';
import { statusLabel } from '../lib/status';
import { documentName, formatTotal, receiptSummary } from '../lib/summary';
import { DocIcon } from './DocIcon';

/** What a row's clicks do: one object for every row, the same from render to render (the rows are memoized). */
export interface RowHandlers {
  onOpen(receipt: Receipt): void;
  /** `range`: shift held, the rows from the one last clicked to this one change with it. */
  onToggleSelect(receiptId: string, on: boolean, range: boolean): void;
  onToggleFlag(receipt: Receipt): void;
  onPreview(receipt: Receipt): void;
  onEmail(receipt: Receipt): void;
  onRestart(receipt: Receipt): void;
  onDelete(receipt: Receipt): void;
}

export interface ReceiptRowProps {
  receipt: Receipt;
  selected: boolean;
  /** The company named under the row (the all-companies view), null when the row names none. */
  companyName: string | null;
  busyAction: boolean;
  handlers: RowHandlers;
}

const stop = (e: MouseEvent | KeyboardEvent) => e.stopPropagation();

/**
 * One document of the list: status, supplier/customer, number, date, total, file, owner, flag and row actions.
 * Memoized: it renders again only when its document (a new object once changed), selection or busy state does; a
 * change of the selection alone renders the row and its checkbox, not its cells (RowCells).
 */
export const ReceiptRow = memo(function ReceiptRow({ receipt, selected, companyName, busyAction, handlers }: ReceiptRowProps) {
  const rules = rowRules(receipt);
  const classes = ['doc-row', rules.canOpen ? 'is-clickable' : '', rules.greyed ? 'is-greyed' : '', selected ? 'is-selected' : '']
    .filter(Boolean)
    .join(' ');
  const named = documentName(receipt);

  return (
    <tr
      className={classes}
      // the focusable row says what Enter on it does (a row is not named by its cells)
      aria-label={rules.canOpen ? `Open ${named}` : undefined}
      data-testid="receipt-row"
      data-receipt-id={receipt.receipt_id}
      data-status={receipt.status}
      aria-disabled={!rules.canOpen || undefined}
      tabIndex={rules.canOpen ? 0 : -1}
      onClick={rules.canOpen ? () => handlers.onOpen(receipt) : undefined}
      onKeyDown={
        rules.canOpen
          ? (e) => {
              if (e.key === 'Enter' && e.target === e.currentTarget) handlers.onOpen(receipt);
            }
          : undefined
      }
    >
      <td className="col-select" onClick={stop}>
        <label className="row-check">
          <input
            type="checkbox"
            aria-label={`Select ${named}`}
            checked={selected}
            disabled={!rules.canSelect}
            onChange={(e) => handlers.onToggleSelect(receipt.receipt_id, e.target.checked, (e.nativeEvent as globalThis.MouseEvent).shiftKey === true)}
          />
          <span className="checkbox-box" aria-hidden="true" />
        </label>
      </td>
      <RowCells receipt={receipt} companyName={companyName} busyAction={busyAction} handlers={handlers} />
    </tr>
  );
});

/** The row's cells after its checkbox. */
const RowCells = memo(function RowCells({ receipt, companyName, busyAction, handlers }: Omit<ReceiptRowProps, 'selected'>) {
  const rules = rowRules(receipt);
  const s = receiptSummary(receipt);
  const label = statusLabel(receipt.status);
  const processing = receipt.status === 'processing' || receipt.status === 'converting';
  const named = documentName(receipt);
  const flagLabel = receipt.flag ? 'Unflag' : 'Flag';

  return (
    <>
      <td className="col-status">
        <span className={`status-pill status-${label.tone}`} data-testid="row-status">
          {processing && <Spinner size="sm" label={label.text} />}
          {label.text}
        </span>
      </td>
      <td className="col-party">
        <span className="cell-main">{s.counterparty || <span className="muted">—</span>}</span>
        {(receipt.duplicate_id || receipt.same_document) && (
          // a copy of the same file or of the same document (counterparty, number and total): booked once only
          <span className="cell-duplicate" data-testid="row-duplicate" title="The same file or the same supplier or customer, number and total as an earlier document: its Duplicates shows which">
            Duplicate
          </span>
        )}
        {companyName !== null && <span className="cell-sub">{companyName}</span>}
        {receipt.error?.message && (
          <span className="cell-error" title={receipt.error.message}>
            {receipt.error.message}
          </span>
        )}
      </td>
      <td className="col-number" title={s.documentNumber || undefined}>
        {s.documentNumber}
      </td>
      <td className="col-date">{s.date ? formatDay(s.date) : <span className="muted">{formatDate(receipt.created_at)}</span>}</td>
      <td className="col-total">{formatTotal(s.total, s.currency)}</td>
      <td className="col-file">
        <span className="cell-file" title={s.fileName}>
          <span className="cell-file-name">{s.fileName}</span>
          <span className="cell-type">{receipt.receipt_type === 'invoice' ? 'Sales' : 'Cost'}</span>
        </span>
      </td>
      <td className="col-owner">{s.owner}</td>
      <td className="col-actions" onClick={stop}>
        <span className="row-actions">
          {rules.canRestart && (
            <span className="row-restart">
              <button
                type="button"
                className="btn btn-link btn-xs"
                aria-label={`Try Again ${named}`}
                aria-disabled={busyAction || undefined}
                onClick={() => !busyAction && handlers.onRestart(receipt)}
              >
                <DocIcon name="retry" size={15} />
                Try Again
              </button>
              <button
                type="button"
                className="btn btn-link btn-xs text-danger-btn"
                aria-label={`Delete ${named}`}
                aria-disabled={busyAction || undefined}
                onClick={() => !busyAction && handlers.onDelete(receipt)}
              >
                Delete
              </button>
            </span>
          )}
          {receipt.email_id && (
            <button type="button" className="icon-btn icon-btn-sm" aria-label={`Email details of ${named}`} title="Email details" onClick={() => handlers.onEmail(receipt)}>
              <Icon name="mail" size={17} />
            </button>
          )}
          <button
            type="button"
            className="icon-btn icon-btn-sm"
            aria-label={`Preview ${named}`}
            title="Preview"
            disabled={!rules.canPreview}
            onClick={() => handlers.onPreview(receipt)}
          >
            <Icon name="eye" size={17} />
          </button>
          <button
            type="button"
            className={`icon-btn icon-btn-sm flag-btn ${receipt.flag ? 'is-flagged' : ''}`}
            // a toggle: its name stays, aria-pressed says whether it is flagged (the tooltip says what a click does)
            aria-label={`Flag ${named}`}
            aria-pressed={Boolean(receipt.flag)}
            title={flagLabel}
            disabled={!rules.canFlag}
            // busy with another action: kept focusable (a disabled button would drop the focus to the page)
            aria-disabled={busyAction || undefined}
            data-testid="row-flag"
            onClick={() => !busyAction && handlers.onToggleFlag(receipt)}
          >
            <DocIcon name="flag" size={17} fill={receipt.flag ? 'currentColor' : 'none'} />
          </button>
        </span>
      </td>
    </>
  );
});
