import { useState } from 'react';
import { Link } from 'react-router-dom';
import { STATUS_TITLES, type ReceiptStatus } from '../../../../../shared/status';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import type { DuplicateItem, HistoryItem } from '../api/content';
import { SHORTCUTS } from '../lib/keyboard';

export const NO_HISTORY = 'No history yet';

function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())} ${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${String(d.getFullYear()).slice(2)}`;
}

export function HistoryPanel({ items, loading, error }: { items: HistoryItem[] | undefined; loading: boolean; error: unknown }) {
  return (
    <aside className="er-side-panel" data-testid="history-panel" aria-label="History">
      <h3>History</h3>
      {loading ? (
        <LoadingBlock label="Loading history" />
      ) : error ? (
        <p className="notice notice-error">{messageOf(error)}</p>
      ) : !items?.length ? (
        <p className="muted" data-testid="history-empty">
          {NO_HISTORY}
        </p>
      ) : (
        <ol className="er-history">
          {[...items]
            .sort((a, b) => b.date.localeCompare(a.date))
            .map((h) => (
              <li key={h.id} data-testid="history-entry">
                <span className="er-history-name">{h.name}</span>
                <span className="muted">
                  {[h.user.name, h.user.surname].filter(Boolean).join(' ') || 'System'} · {when(h.date)}
                </span>
              </li>
            ))}
        </ol>
      )}
    </aside>
  );
}

export function HelpPanel({ onClose }: { onClose(): void }) {
  return (
    <aside className="er-side-panel" data-testid="help-panel" aria-label="Keyboard shortcuts">
      <div className="er-side-panel-head">
        <h3>Keyboard</h3>
        <button type="button" className="btn btn-link btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="muted">Click a field, then click a word or draw an area on the page to fill it.</p>
      <dl className="er-shortcuts">
        {SHORTCUTS.map((s) => (
          <div key={s.action}>
            <dt>
              <kbd>{s.keys}</kbd>
            </dt>
            <dd>{s.description}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}

function shortName(name: string): string {
  return name.length > 21 ? `${name.slice(0, 18)}...` : name;
}

/** Why a document is listed as a duplicate (GET /receipts/{id}/duplicates `reason`), for a document of `party`. */
export function duplicateReason(reason: DuplicateItem['reason'], party: 'supplier' | 'customer'): string {
  return reason === 'same_file' ? 'Same file' : `Same ${party}, number and total`;
}

export function DuplicatesPopup({
  items,
  loading,
  companyId,
  party,
  onClose,
}: {
  items: DuplicateItem[] | undefined;
  loading: boolean;
  companyId: string;
  /** The document's counterparty: a cost document's supplier, a sales invoice's customer. */
  party: 'supplier' | 'customer';
  onClose(): void;
}) {
  return (
    <Modal title="Duplicates" onClose={onClose} testId="duplicates-popup" size="sm">
      {loading ? (
        <LoadingBlock />
      ) : !items?.length ? (
        <p className="muted">No duplicates found</p>
      ) : (
        <ul className="er-duplicates">
          {items.map((d) => (
            <li key={d.receipt_id}>
              <span className="er-duplicate-file">
                {d.disabled_for_editing ? (
                  <span title={d.original_file_name}>{shortName(d.original_file_name)}</span>
                ) : (
                  <Link to={`/edit-receipt/${encodeURIComponent(d.receipt_id)}?company_id=${encodeURIComponent(d.company_id ?? companyId)}`} title={d.original_file_name} onClick={onClose}>
                    {shortName(d.original_file_name)}
                  </Link>
                )}
                {/* two of one file name told apart by when they came */}
                <span className="muted er-duplicate-when">Uploaded {formatDateTime(d.created_at)}</span>
              </span>
              <span className="muted">
                {STATUS_TITLES[d.status as ReceiptStatus] ?? d.status} · {duplicateReason(d.reason, party)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

export interface MergeCandidate {
  receipt_id: string;
  original_file_name: string;
  created_at: string;
  url: string | null;
}

/** Replaces the form while merge is on: choose another document whose pages join this one. */
export function MergePanel({ candidates, loading, busy, onMerge, onClose }: { candidates: MergeCandidate[]; loading: boolean; busy: boolean; onMerge(id: string): Promise<void>; onClose(): void }) {
  // The other document is removed by a merge: it is asked once more, naming it, as a delete is
  const [chosen, setChosen] = useState<MergeCandidate | null>(null);
  const confirm = async (candidate: MergeCandidate) => {
    await onMerge(candidate.receipt_id);
    setChosen(null);
  };
  return (
    <div className="er-merge" data-testid="merge-panel">
      <div className="er-side-panel-head">
        <h3>Merge with another document</h3>
        <button type="button" className="btn btn-link btn-sm" onClick={onClose}>
          Cancel
        </button>
      </div>
      <p className="muted">The pages of the chosen document are added after this document's pages; the other document is removed.</p>
      {loading ? (
        <LoadingBlock />
      ) : candidates.length === 0 ? (
        <p className="muted">No other documents of this kind</p>
      ) : (
        <ul className="er-merge-list">
          {candidates.map((c) => (
            <li key={c.receipt_id} data-testid="merge-candidate">
              {c.url ? <img src={c.url} alt="" /> : <span className="er-merge-thumb" aria-hidden="true" />}
              <span className="er-merge-name" title={c.original_file_name}>
                {c.original_file_name}
              </span>
              <Button variant="secondary" disabled={busy} aria-label={`Merge ${c.original_file_name || c.receipt_id}`} onClick={() => setChosen(c)}>
                Merge
              </Button>
            </li>
          ))}
        </ul>
      )}
      {chosen && (
        <Modal title="Merge" size="sm" onClose={busy ? undefined : () => setChosen(null)} testId="merge-confirm-modal">
          <p className="modal-text">{mergeQuestion(chosen)}</p>
          <div className="modal-actions">
            <Button variant="secondary" onClick={() => setChosen(null)} disabled={busy}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void confirm(chosen)} loading={busy}>
              Merge
            </Button>
          </div>
        </Modal>
      )}
    </div>
  );
}

/** The merge's question: which document's pages move here, and that it is then removed. */
export function mergeQuestion(candidate: Pick<MergeCandidate, 'original_file_name' | 'receipt_id'>): string {
  const name = candidate.original_file_name?.trim() || candidate.receipt_id;
  return `Add the pages of ${name} after this document's pages? ${name} is then removed.`;
}
