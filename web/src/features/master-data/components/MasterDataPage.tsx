import { useQueryClient } from '@tanstack/react-query';
import { useActiveCompanyStore } from '../../../app/active-company';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import type { Category, Item, Stakeholder } from '../../../../../shared/schemas/master-data';
import { Button } from '../../../components/ui/Button';
import { neighbourControl, useFocusNeighbourOnRemove } from '../../../components/ui/focus';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { ListMore } from '../../../components/ui/ListMore';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { queryKeys } from '../../../lib/query-keys';
import { useActiveCompany } from '../../companies/api/companies';
import { liveBus } from '../../live/lib/live-bus';
import { hasNoCompany } from '../../receipts/api/receipts';
import { NoCompany } from '../../receipts/components/NoCompany';
import { companyToActivate } from '../../receipts/lib/row-rules';
import { recordKey, useMasterList, useMasterWrites, type MasterRecord } from '../api/master-data';
import { emptyText, importedOnlyNote, isStakeholderKind, listBody, screenOfPath, type MasterKind, type MasterScreen } from '../lib/screens';
import '../master-data.css';
import { CategoryAddForm, CategoryEditModal } from './CategoryForms';
import { DeleteStakeholderModal } from './DeleteStakeholderModal';
import { ImportXlsxPopup } from './ImportXlsxPopup';
import { ItemAddForm, ItemEditModal } from './ItemForms';
import { SearchBox } from './SearchBox';
import { StakeholderAddForm, StakeholderEditModal } from './StakeholderForms';
import { failsWholeList } from '../../../lib/next-page';

/** The live event of master-data writes; any of them reloads the lists on screen. */
export const MASTER_DATA_EVENT = 'master-data';

const EMPTY_ICONS: Record<MasterKind, IconName> = { supplier: 'suppliers', customer: 'customers', category: 'categories', item: 'items' };
const DELETED: Record<MasterKind, string> = { supplier: 'Supplier deleted', customer: 'Customer deleted', category: 'Category deleted', item: 'Item deleted' };

/** /suppliers, /customers, /categories, /items: the path decides the type; the search starts empty on every route. */
export function MasterDataPage() {
  const location = useLocation();
  const screen = screenOfPath(location.pathname);
  if (!screen) return <Navigate to="/dashboard" replace />;
  return <MasterDataScreen key={screen.kind} screen={screen} />;
}

/** The muted line under a row's name. */
function rowDetails(kind: MasterKind, record: MasterRecord): string {
  if (isStakeholderKind(kind)) {
    const s = record as Stakeholder;
    return [s.code, s.vat_id, s.category?.name].filter(Boolean).join(' · ');
  }
  if (kind === 'category') return (record as Category).category_code;
  return (record as Item).words.join(', ');
}

function MasterRow({ kind, record, onOpen, onDelete }: { kind: MasterKind; record: MasterRecord; onOpen(): void; onDelete(trigger: HTMLElement): void }) {
  const details = rowDetails(kind, record);
  const external = 'external' in record && record.external;
  // a deleted row holding the focus gives it to the next row's (else the previous row's) same button
  const ref = useRef<HTMLLIElement>(null);
  useFocusNeighbourOnRemove(ref);
  return (
    <li ref={ref} className="md-row" data-testid="md-row" data-name={record.name}>
      <button type="button" className="md-row-main" onClick={onOpen} aria-label={`Edit ${record.name}`}>
        <span className="md-row-name">
          <span className="cell-main">{record.name}</span>
          {external && (
            <span className="pill pill-blue" title="Imported from an integration">
              DB
            </span>
          )}
          {details && <span className="cell-sub">{details}</span>}
        </span>
        <span className="md-row-company" data-testid="md-row-company">
          {record.company_name}
        </span>
      </button>
      <button type="button" className="icon-btn text-danger-btn md-row-delete" aria-label={`Delete ${record.name}`} title="Delete" onClick={(e) => onDelete(e.currentTarget)}>
        <Icon name="trash" size={18} />
      </button>
    </li>
  );
}

type ModalState = { kind: 'edit'; record: MasterRecord } | { kind: 'delete'; record: MasterRecord } | { kind: 'import'; companyId: string } | null;

function MasterDataScreen({ screen }: { screen: MasterScreen }) {
  const view = useActiveCompany();
  const store = useActiveCompanyStore();
  const info = useInfoPopup();
  const queryClient = useQueryClient();
  const writes = useMasterWrites();
  const [search, setSearch] = useState('');
  const list = useMasterList(screen, search);
  const [modal, setModal] = useState<ModalState>(null);
  // The Delete button that opened the delete pop-up, and where the focus goes when the pop-up closes on a delete:
  // the next row's (else the previous row's) Delete, else the list's title.
  const deleteTrigger = useRef<HTMLElement | null>(null);
  const afterDelete = useRef<HTMLElement | null>(null);
  const listTitle = useRef<HTMLHeadingElement>(null);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  // A search page can come back empty while the server says more exist: read on instead of saying none was found.
  const body = listBody(rows.length, list.hasNextPage);
  const { fetchNextPage, isFetchingNextPage, isFetchNextPageError } = list;
  useEffect(() => {
    if (body === 'searching' && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [body, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  // another member's write (or an import finishing) reloads what is on screen
  useEffect(
    () =>
      liveBus.subscribe((message) => {
        if (message.event === MASTER_DATA_EVENT) void queryClient.invalidateQueries({ queryKey: queryKeys.masterData });
      }),
    [queryClient],
  );

  const formProps = {
    allCompanies: view.allCompanies,
    companies: view.companies,
    activeCompanyId: view.active?.company_id,
    onUpload: (companyId: string) => setModal({ kind: 'import', companyId }),
  };

  // rules.md 6: a chosen record of another company (all-companies view) makes that company the active one first
  const openEdit = (record: MasterRecord) => {
    const switchTo = companyToActivate(record, view.active?.company_id, view.companies.map((c) => c.company_id));
    if (switchTo) store.setCompany(switchTo);
    setModal({ kind: 'edit', record });
  };

  const confirmDelete = async (record: MasterRecord) => {
    // found while the row is still on the page
    const row = deleteTrigger.current?.closest('[data-testid="md-row"]');
    const next = (row && deleteTrigger.current && neighbourControl(row, deleteTrigger.current)) || listTitle.current;
    try {
      await writes.remove.mutateAsync({ kind: screen.kind, record });
      afterDelete.current = next;
      info.show(DELETED[screen.kind], 'success');
      setModal(null);
    } catch (err) {
      info.show(messageOf(err), 'error');
    }
  };

  // no company: nothing to list, add or import (NoCompany points to ADD COMPANY)
  const noCompany = hasNoCompany(view);
  const importedOnly = noCompany ? null : importedOnlyNote(screen.kind, view.allCompanies ? view.companies : view.active ? [view.active] : []);

  return (
    <div className="md-page" data-testid="md-page" data-kind={screen.kind}>
      {noCompany ? null : isStakeholderKind(screen.kind) ? (
        <StakeholderAddForm type={screen.kind} {...formProps} />
      ) : screen.kind === 'category' ? (
        <CategoryAddForm {...formProps} />
      ) : (
        <ItemAddForm {...formProps} />
      )}

      <div className="list-head">
        <h2 className="md-list-title" ref={listTitle} tabIndex={-1}>
          {screen.title}
        </h2>
        {!noCompany && (
          <SearchBox title={screen.title} applied={search} onSearch={setSearch} busy={list.isFetching && !list.isPending && !list.isFetchingNextPage} />
        )}
      </div>

      {importedOnly && (
        <p className="notice md-imported-only" data-testid="md-imported-only">
          {importedOnly}
        </p>
      )}

      <div className="card doc-card md-list-card">
        {noCompany ? (
          <NoCompany />
        ) : list.isPending ? (
          <LoadingBlock label={`Loading ${screen.title}`} />
        ) : failsWholeList(list) ? (
          <div className="list-error">
            <p className="notice notice-error">{messageOf(list.error)}</p>
            <Button variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : body === 'searching' ? (
          isFetchNextPageError ? null : <LoadingBlock label={`Searching ${screen.title}`} />
        ) : body === 'empty' ? (
          <div className="empty-state md-empty" data-testid="md-empty">
            <Icon name={EMPTY_ICONS[screen.kind]} size={36} />
            <p>{emptyText(screen)}</p>
          </div>
        ) : (
          <ul className="md-list" data-testid="md-list">
            {rows.map((record) => (
              <MasterRow
                key={recordKey(record)}
                kind={screen.kind}
                record={record}
                onOpen={() => openEdit(record)}
                onDelete={(trigger) => {
                  deleteTrigger.current = trigger;
                  afterDelete.current = null;
                  setModal({ kind: 'delete', record });
                }}
              />
            ))}
          </ul>
        )}
        <ListMore list={list} />
      </div>

      {modal?.kind === 'edit' &&
        (isStakeholderKind(screen.kind) ? (
          <StakeholderEditModal stakeholder={modal.record as Stakeholder} onClose={() => setModal(null)} />
        ) : screen.kind === 'category' ? (
          <CategoryEditModal category={modal.record as Category} onClose={() => setModal(null)} />
        ) : (
          <ItemEditModal item={modal.record as Item} onClose={() => setModal(null)} />
        ))}
      {modal?.kind === 'import' && (
        <ImportXlsxPopup
          uploadType={screen.importType}
          companyId={modal.companyId}
          open
          onClose={() => setModal(null)}
          onImported={() => void queryClient.invalidateQueries({ queryKey: queryKeys.masterData })}
        />
      )}
      {modal?.kind === 'delete' && (
        <DeleteStakeholderModal
          name={modal.record.name}
          pending={writes.remove.isPending}
          onConfirm={() => void confirmDelete(modal.record)}
          onClose={() => setModal(null)}
          returnFocus={() => afterDelete.current}
        />
      )}
    </div>
  );
}

