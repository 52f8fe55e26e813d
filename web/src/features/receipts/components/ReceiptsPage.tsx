import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/Button';
import { dragCarriesFiles } from '../../../components/ui/file-drop';
import { Icon } from '../../../components/ui/Icon';
import { focusElement } from '../../../components/ui/focus';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { ListMore } from '../../../components/ui/ListMore';
import { LoadingBlock, Spinner } from '../../../components/ui/Spinner';
import { useActiveCompanyStore } from '../../../app/active-company';
import { messageOf } from '../../../lib/api-error';
import { failsWholeList } from '../../../lib/next-page';
import { useActiveCompany } from '../../companies/api/companies';
import { ExportModal } from '../../export/components/ExportModal';
import { UploadModal } from '../../upload/components/UploadModal';
import { companyOf, hasNoCompany, useReceiptActions, useReceiptList, type ActionOutcome } from '../api/receipts';
import type { Receipt } from '../api/types';
import { bulkReport, type BulkTexts } from '../lib/bulk-report';
import { filtersFromSearch, filtersToSearch, hasActiveFilters, type ListFilters } from '../lib/list-params';
import { SELECT_ALL_MAX, selectRange, wholeListSelection } from '../lib/select-all';
import { archiveAction, companyName, companyToActivate, convertActions, flagActions, possibleCopies, rowRules, rowTarget, sendsToIntegrations } from '../lib/row-rules';
import { useListScroll } from '../lib/list-scroll';
import { isListStatus, listTitle } from '../lib/status';
import type { ListStatus } from '../../../../../shared/status';
import { ConfirmDeleteModal } from './ConfirmDeleteModal';
import { ConfirmSendCopiesModal } from './ConfirmSendCopiesModal';
import { EmailPanel } from './EmailPanel';
import { NoCompany } from './NoCompany';
import { FilterBar } from './FilterBar';
import { PreviewPanel } from './PreviewPanel';
import { ReceiptRow, type RowHandlers } from './ReceiptRow';
import { ToolsMenu, type MenuAction } from './ToolsMenu';
import '../list-skip.css';

/** What an empty list says beyond 'No documents found': how documents come to it. */
const EMPTY_HINT: Partial<Record<string, string>> = {
  ready: 'Documents whose required fields were all read with confidence come here by themselves.',
  archive: 'Confirmed and archived documents are kept here.',
  unassigned: 'Uploads of the all-companies view wait here for their company.',
  rejected: 'Rejected documents are kept here.',
  saving: 'Documents being saved show here for a moment.',
  failed: 'Files that could not be read are kept here to try again.',
};
const emptyHint = (status: string) => EMPTY_HINT[status] ?? 'Upload receipts and invoices with + ADD.';

/** /receipts/{status}: unknown statuses go to the dashboard. Filters and selection start fresh on every status. */
export function ReceiptsPage() {
  const { status } = useParams();
  // /receipts/{status} knows nine statuses; any other path is an unknown one (rules.md 2: it goes to /dashboard).
  if (!isListStatus(status)) return <Navigate to="/dashboard" replace />;
  return <ReceiptList key={status} status={status} />;
}

function ReceiptList({ status }: { status: ListStatus }) {
  const navigate = useNavigate();
  const info = useInfoPopup();
  const store = useActiveCompanyStore();
  const view = useActiveCompany();
  const actions = useReceiptActions();
  // The filters live in the address: Back from a document, a reload or a shared link show the list as filtered.
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(searchParams), [searchParams]);
  const list = useReceiptList(status, filters);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [busy, setBusy] = useState(false);
  const [modal, setModal] = useState<
    | { kind: 'upload' }
    | { kind: 'export'; receipts: Receipt[] }
    | { kind: 'delete'; receipts: Receipt[] }
    | { kind: 'send-copies'; receipts: Receipt[]; copies: Receipt[] }
    | { kind: 'preview'; receipt: Receipt }
    | { kind: 'email'; receipt: Receipt }
    | null
  >(null);

  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const selectedRows = useMemo(() => rows.filter((r) => selected.has(r.receipt_id) && rowRules(r).canSelect), [rows, selected]);
  const selectable = useMemo(() => rows.filter((r) => rowRules(r).canSelect), [rows]);
  const allSelected = selectable.length > 0 && selectedRows.length === selectable.length;
  const companyIds = useMemo(() => view.companies.map((c) => c.company_id), [view.companies]);

  const changeFilters = useCallback(
    (next: ListFilters) => {
      setSearchParams(filtersToSearch(next), { replace: true });
      setSelected(new Set());
    },
    [setSearchParams],
  );

  const { hasNextPage, fetchNextPage } = list;

  // The header's Select all takes the loaded rows; the bar under it offers the whole list (the other pages read first).
  const [selectingAll, setSelectingAll] = useState(false);
  const [wholeList, setWholeList] = useState<'no' | 'all' | 'capped'>('no');
  const selectWholeList = async () => {
    setSelectingAll(true);
    try {
      let result = await fetchNextPage();
      const loaded = () => result.data?.pages.reduce((n, p) => n + p.items.length, 0) ?? 0;
      while (result.hasNextPage && !result.isError && loaded() < SELECT_ALL_MAX) result = await fetchNextPage();
      const all = result.data?.pages.flatMap((p) => p.items) ?? [];
      const ids = wholeListSelection(all);
      setWholeList(result.hasNextPage || all.filter((r) => rowRules(r).canSelect).length > ids.length ? 'capped' : 'all');
      setSelected(new Set(ids));
    } finally {
      setSelectingAll(false);
    }
  };

  const tableRef = useRef<HTMLTableElement>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  // "Skip to documents": past the filters and the toolbar to the first row (the empty state when there is none)
  const skipToDocuments = () => {
    const card = cardRef.current;
    const target =
      card?.querySelector<HTMLElement>('[data-testid="receipt-row"][tabindex="0"]') ??
      card?.querySelector<HTMLElement>('[data-testid="receipt-row"]') ??
      card?.querySelector<HTMLElement>('[data-testid="receipts-empty"]') ??
      card;
    focusElement(target);
  };
  const saveScroll = useListScroll(tableRef, rows.length > 0);

  const open = (receipt: Receipt) => {
    const switchTo = companyToActivate(receipt, view.active?.company_id, companyIds);
    if (switchTo) store.setCompany(switchTo);
    const target = rowTarget(receipt, status);
    saveScroll({ opened: true, openedId: receipt.receipt_id });
    navigate({ pathname: target.pathname, search: target.search }, { state: { ...target.state, listSearch: searchParams.toString() || undefined } });
  };

  // The row last clicked, where a shift-click's range starts (lib/select-all.ts selectRange)
  const anchor = useRef<string | null>(null);
  const toggle = useCallback((receiptId: string, on: boolean, range: boolean) => {
    const from = range ? anchor.current : null;
    anchor.current = receiptId;
    setSelected((prev) => {
      if (from === null && prev.has(receiptId) === on) return prev;
      return selectRange(latest.current.rows, prev, from, receiptId, on);
    });
  }, []);

  // How many of how many were done, and the first reason of those that were not (lib/bulk-report.ts)
  const report = (outcome: ActionOutcome, texts: BulkTexts) => {
    const said = bulkReport(outcome, texts);
    if (said) info.show(said.text, said.tone);
  };

  /** After an action: the documents it could not change stay selected, to try again; the others are let go. */
  const keepFailed = (outcome: ActionOutcome) => setSelected(new Set(outcome.failed.map((f) => f.receipt.receipt_id)));

  const run = async (task: () => Promise<ActionOutcome>, texts: BulkTexts, clearSelection = true) => {
    setBusy(true);
    try {
      const outcome = await task();
      report(outcome, texts);
      if (clearSelection) keepFailed(outcome);
      return outcome;
    } finally {
      setBusy(false);
    }
  };

  const items = (n: number) => (n === 1 ? '1 document' : `${n} documents`);
  const send = (receipts: Receipt[]) => run(() => actions.send(receipts), { done: `${items(receipts.length)} sent`, verb: 'sent' });
  /** Send without the possible copies: those stay selected, unsent, with the ones that failed. */
  const sendOthers = async (receipts: Receipt[], copies: Receipt[]) => {
    const left = new Set(copies.map((r) => r.receipt_id));
    const others = receipts.filter((r) => !left.has(r.receipt_id));
    const outcome = await run(() => actions.send(others), { done: `${items(others.length)} sent`, verb: 'sent' }, false);
    setSelected(new Set([...left, ...outcome.failed.map((f) => f.receipt.receipt_id)]));
  };
  const archive = archiveAction(selectedRows);
  const toolActions: MenuAction[] = [
    ...convertActions(selectedRows).map((c) => ({
      label: c.label,
      onSelect: () => void run(() => actions.convert(selectedRows, c.to), { done: `${items(selectedRows.length)} converted`, verb: 'converted' }),
    })),
    {
      label: archive.label,
      onSelect: () =>
        void run(
          () => actions.setStatus(selectedRows, archive.action),
          archive.action === 'archive'
            ? { done: `${items(selectedRows.length)} moved to archive`, verb: 'moved to archive' }
            : { done: `${items(selectedRows.length)} unarchived`, verb: 'unarchived' },
        ),
    },
    ...flagActions(selectedRows).map((f) => ({
      label: f.label,
      onSelect: () => void run(() => actions.setFlag(selectedRows, f.flag), f.flag ? { done: 'Flagged', verb: 'flagged' } : { done: 'Unflagged', verb: 'unflagged' }, false),
    })),
    // Integrations: with an export target switched on, selected documents can be confirmed and sent from the list.
    ...(sendsToIntegrations(view.active) && !view.allCompanies && selectedRows.every((r) => r.status !== 'archive')
      ? [
          {
            label: 'Send',
            onSelect: () => {
              // Possible copies of earlier documents would be booked twice: the list asks first, as CONFIRM does
              const copies = possibleCopies(selectedRows);
              if (copies.length > 0) setModal({ kind: 'send-copies', receipts: selectedRows, copies });
              else void send(selectedRows);
            },
          },
        ]
      : []),
  ];

  // The rows' handlers are one stable object (ReceiptRow is memoized): a click re-renders the rows it changes, not
  // the 1,000 loaded. They call the latest closures of this render through the ref.
  const latest = useRef({ open, run, actions, rows });
  useLayoutEffect(() => {
    latest.current = { open, run, actions, rows };
  });
  const rowHandlers = useMemo<RowHandlers>(
    () => ({
      onOpen: (x) => latest.current.open(x),
      onToggleSelect: toggle,
      onToggleFlag: (x) => void latest.current.run(() => latest.current.actions.setFlag([x], !x.flag), x.flag ? { done: 'Unflagged', verb: 'unflagged' } : { done: 'Flagged', verb: 'flagged' }, false),
      onPreview: (x) => setModal({ kind: 'preview', receipt: x }),
      onEmail: (x) => setModal({ kind: 'email', receipt: x }),
      onRestart: (x) => void latest.current.run(() => latest.current.actions.restart(x), { done: 'Processing started again', verb: 'started again' }, false),
      onDelete: (x) => setModal({ kind: 'delete', receipts: [x] }),
    }),
    [toggle],
  );
  const hasRestart = useMemo(() => rows.some((r) => rowRules(r).canRestart), [rows]);

  const confirmDelete = async (receipts: Receipt[]) => {
    setBusy(true);
    try {
      const outcome = await actions.remove(receipts);
      report(outcome, { done: receipts.length === 1 ? 'The document has been deleted.' : `${items(outcome.done)} deleted`, verb: 'deleted' });
      keepFailed(outcome);
      setModal(null);
    } finally {
      setBusy(false);
    }
  };

  const title = listTitle(status);
  const filtered = hasActiveFilters(filters);
  // no company: no list is asked for, and nothing can be uploaded
  const noCompany = hasNoCompany(view);

  // Files dragged from the desktop over the list open the upload pop-up, whose drop zone takes them (as ADD does);
  // not over another pop-up.
  const canOpenUpload = !noCompany && modal === null;
  useEffect(() => {
    if (!canOpenUpload) return;
    const open = (e: DragEvent) => {
      if (dragCarriesFiles(e) && !document.querySelector('[role="dialog"]')) setModal({ kind: 'upload' });
    };
    window.addEventListener('dragenter', open);
    return () => window.removeEventListener('dragenter', open);
  }, [canOpenUpload]);

  return (
    <div className="receipts-page" data-testid="receipts-page" data-status={status}>
      {/* The list page's first Tab stop, out of sight until focused: the filters and the toolbar are 30 stops */}
      <a
        className="sr-only list-skip-link"
        href="#documents"
        data-testid="list-skip-link"
        onClick={(e) => {
          e.preventDefault();
          skipToDocuments();
        }}
      >
        Skip to documents
      </a>
      <div className="list-head">
        <FilterBar filters={filters} onChange={changeFilters} />
        <div className="list-toolbar" role="toolbar" aria-label="Document actions">
          <button
            type="button"
            className="icon-btn toolbar-btn"
            aria-label="Export"
            title="Export"
            disabled={busy || selectedRows.length === 0}
            onClick={() => setModal({ kind: 'export', receipts: selectedRows })}
          >
            <Icon name="export" size={20} />
          </button>
          <ToolsMenu label="Tools" actions={toolActions} disabled={busy || selectedRows.length === 0} />
          <button
            type="button"
            className="icon-btn toolbar-btn toolbar-danger"
            aria-label="Delete"
            title="Delete"
            disabled={busy || selectedRows.length === 0}
            onClick={() => setModal({ kind: 'delete', receipts: selectedRows })}
          >
            <Icon name="trash" size={20} />
          </button>
          <span className="toolbar-divider" aria-hidden="true" />
          {!noCompany && (
            <Button icon={<Icon name="plus" size={18} />} onClick={() => setModal({ kind: 'upload' })}>
              ADD
            </Button>
          )}
        </div>
      </div>

      <div className="card doc-card" id="documents" ref={cardRef}>
        {noCompany ? (
          <NoCompany />
        ) : list.isPending ? (
          <LoadingBlock label={`Loading ${title}`} />
        ) : failsWholeList(list) ? (
          <div className="list-error">
            <p className="notice notice-error">{messageOf(list.error)}</p>
            <Button variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : rows.length === 0 ? (
          <div className="empty-state doc-empty" data-testid="receipts-empty">
            <Icon name="inbox" size={36} />
            <p>No documents found</p>
            <span className="muted">{filtered ? 'Nothing matches the filters.' : emptyHint(status)}</span>
          </div>
        ) : (
          <div className="doc-table-wrap">
            {allSelected && (hasNextPage || selectingAll || wholeList !== 'no') && (
              <div className="select-all-bar" data-testid="select-all-bar" role="status">
                {selectingAll ? (
                  <Spinner label="Selecting every document of the list" />
                ) : wholeList === 'all' ? (
                  <span>All {items(selectedRows.length)} of the list are selected.</span>
                ) : wholeList === 'capped' ? (
                  <span>The first {items(selectedRows.length)} of the list are selected (at most {SELECT_ALL_MAX} at a time).</span>
                ) : (
                  <>
                    <span>All {items(selectedRows.length)} loaded so far are selected.</span>
                    <button type="button" className="link-btn" data-testid="select-whole-list" onClick={() => void selectWholeList()}>
                      Select every document of the list
                    </button>
                  </>
                )}
              </div>
            )}
            <table ref={tableRef} className={`doc-table doc-list${hasRestart ? ' has-restart' : ''}`} data-testid="receipts-table">
              <thead>
                <tr>
                  <th className="col-select">
                    <label className="row-check">
                      <input
                        type="checkbox"
                        aria-label="Select all"
                        checked={allSelected}
                        disabled={selectable.length === 0}
                        onChange={(e) => {
                          setWholeList('no');
                          setSelected(e.target.checked ? new Set(selectable.map((r) => r.receipt_id)) : new Set());
                        }}
                      />
                      <span className="checkbox-box" aria-hidden="true" />
                    </label>
                  </th>
                  <th className="col-status">
                    {selectedRows.length > 0 ? (
                      <span className="selection-count" data-testid="selection-count">
                        {selectedRows.length} selected
                      </span>
                    ) : (
                      <span className="col-status-label">Status</span>
                    )}
                  </th>
                  <th className="col-party">Supplier / Customer</th>
                  <th className="col-number">Number</th>
                  <th className="col-date">Date</th>
                  <th className="col-total">Total</th>
                  <th className="col-file">File</th>
                  <th className="col-owner">Owner</th>
                  <th className="col-actions">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <ReceiptRow
                    key={r.receipt_id}
                    receipt={r}
                    selected={selected.has(r.receipt_id)}
                    companyName={view.allCompanies ? companyName(r, view.companies) : null}
                    busyAction={busy}
                    handlers={rowHandlers}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <ListMore list={list} />
      </div>

      {modal?.kind === 'upload' && <UploadModal onClose={() => setModal(null)} />}
      {modal?.kind === 'export' && (
        <ExportModal
          receipts={modal.receipts}
          onClose={() => setModal(null)}
          onExported={(notArchived) => {
            setSelected(new Set(notArchived));
            setModal(null);
          }}
        />
      )}
      {modal?.kind === 'delete' && (
        <ConfirmDeleteModal
          count={modal.receipts.length}
          pending={busy}
          onConfirm={() => void confirmDelete(modal.receipts)}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'send-copies' && (
        <ConfirmSendCopiesModal
          copies={modal.copies.length}
          selected={modal.receipts.length}
          onClose={() => setModal(null)}
          onSendAll={() => {
            setModal(null);
            void send(modal.receipts);
          }}
          onSendOthers={() => {
            setModal(null);
            void sendOthers(modal.receipts, modal.copies);
          }}
        />
      )}
      {modal?.kind === 'preview' && <PreviewPanel receipt={modal.receipt} onClose={() => setModal(null)} />}
      {modal?.kind === 'email' && modal.receipt.email_id && (
        <EmailPanel emailId={modal.receipt.email_id} companyId={companyOf(modal.receipt)} onClose={() => setModal(null)} />
      )}
    </div>
  );
}
