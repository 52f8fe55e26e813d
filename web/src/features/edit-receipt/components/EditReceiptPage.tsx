import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { Box, PageBoxesResponse, SchemaField } from '../../../../../shared/schemas/content';
import { CONTENT_MSG, LINE_ITEM_COLUMNS } from '../../../../../shared/schemas/content';
import { STATUS_TITLES, type ReceiptStatus } from '../../../../../shared/status';
import { useApi } from '../../../app/api-context';
import { useAuth } from '../../../app/auth';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { useRefocusOnSwap } from '../../../components/ui/focus';
import '../edit-touch.css';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { ApiError, isResultUnknown, messageOf } from '../../../lib/api-error';
import { queryKeys } from '../../../lib/query-keys';
import { useActiveCompany } from '../../companies/api/companies';
import { ExportModal } from '../../export/components/ExportModal';
import { receiptOfPayload } from '../../live/lib/cache-updates';
import { useReceiptCache } from '../../live/use-receipt-cache';
import { sendAgainNotice, type BulkSendAnswer } from '../../integration/lib/outcomes';
import { useReceiptDetail } from '../../receipts/api/receipts';
import type { ListScope } from '../../receipts/lib/list-params';
import { companyName, companyToActivate, sendsToIntegrations } from '../../receipts/lib/row-rules';
import { useActiveCompanyStore } from '../../../app/active-company';
import type { Receipt } from '../../receipts/api/types';
import type { ListReturnState } from '../../receipts/lib/list-scroll';
import { editKeys, useBoxes, useCompanySchema, useContent, useContentCalls, useDuplicates, useHistory } from '../api/content';
import { actionState, nextRotation, UNSAVED_CHANGES, type EditAction } from '../lib/actions';
import { datapoints, formatError, formSections, lineItemsHint, stakeholderOf, totalsHint, vatLinesHint, type Tab } from '../lib/form';
import { initialField, useInitialFieldFocus } from '../lib/initial-focus';
import { isConflict } from '../lib/save-conflict';
import { useDrafts } from '../lib/use-drafts';
import { editorPart, canApply, deleteAllColumns, deleteAllRows, type EditorPart } from '../lib/grid-editor';
import { useEditShortcuts, type Move } from '../lib/use-edit-shortcuts';
import { COMPACT, NARROW, useMedia } from '../lib/media';
import { hasWordIn, NO_TEXT_IN_AREA } from '../lib/pick';
import { inList, listContext, listPath, walkFilterText, type ListContext, type WalkDocument, type WalkHints } from '../lib/navigation';
import { useStableCallback } from '../lib/stable';
import { useNearby, useWalk, type WalkCompanies } from '../api/walk';
import { fieldsLeftByRetypedName, showNewMarker, stakeholderValues, type PartyPick } from '../lib/stakeholder';
import { STAKEHOLDER_ANSWERS_KEY, useIsNewStakeholder, useStakeholderSuggestions } from '../api/master-data';
import { useDocumentCategory } from '../lib/use-document-category';
import { useDocumentNotes } from '../lib/use-document-notes';
import type { Stakeholder } from '../../../../../shared/schemas/master-data';
import { useItemChoice } from '../lib/use-item-choice';
import { DocumentViewer, type Highlight } from './DocumentViewer';
import { EditIcon } from './EditIcons';
import { FieldForm, type FieldEvents } from './FieldForm';
import { MoreMenu } from './MoreMenu';
import { DuplicatesPopup, HelpPanel, HistoryPanel, MergePanel } from './Panels';
import { TablePopup } from './TablePopup';

interface NavState {
  inbox?: boolean;
  listStatus?: ReceiptStatus;
  /** The list's filters as its address had them (`q=…&from=…`): Back returns to the list filtered as it was. */
  listSearch?: string;
  /** Moved here with previous/next: the document it came from (this one's neighbour) and this one's place. */
  walk?: WalkHints;
}

type Popup = { kind: 'table'; id: string } | { kind: 'delete' } | { kind: 'duplicates' } | { kind: 'export' } | { kind: 'confirm-duplicate' } | null;

/** The statuses in which the system works on a document (reading, converting, saving to an integration). */
const BUSY_STATUSES: ReadonlyArray<Receipt['status']> = ['processing', 'converting', 'saving'];
const NOT_MERGEABLE: ReadonlyArray<Receipt['status']> = ['archive', 'failed', 'error', ...BUSY_STATUSES];
const NO_BOXES: PageBoxesResponse[] = [];

/** /edit-receipt/{id}?company_id=: one document, its pages on the left and its fields on the right. */
export function EditReceiptPage() {
  const { id = '' } = useParams();
  // A document opened with the focus on a field: a screen reader reads the field, not the page's title, so the
  // document is told here, in a region kept across documents (its text changes once it is there)
  const [announced, setAnnounced] = useState<{ text: string; n: number } | null>(null);
  const announce = useCallback((text: string) => setAnnounced((last) => ({ text, n: (last?.n ?? 0) + 1 })), []);
  const moving = useRef<Move | null>(null);
  // the companies of the documents the walk read, for the moves across companies of the all-companies view
  const walkCompanies = useRef<WalkCompanies>(new Map());
  // An address without its company (a link typed or shared short): the document is read in the active company, once
  // the companies are known (before, its first reads went out for no company and answered 404)
  const [search] = useSearchParams();
  const view = useActiveCompany();
  const waitingForCompany = !search.get('company_id') && view.isLoading;
  return (
    <>
      <div className="sr-only" role="status" aria-live="polite" data-testid="document-announcement">
        {announced && <span key={announced.n}>{announced.text}</span>}
      </div>
      {waitingForCompany ? <LoadingBlock label="Loading document" /> : <EditReceipt key={id} receiptId={id} announce={announce} moving={moving} walkCompanies={walkCompanies.current} />}
    </>
  );
}

function EditReceipt({
  receiptId,
  announce,
  moving,
  walkCompanies,
}: {
  receiptId: string;
  announce(text: string): void;
  moving: MutableRefObject<Move | null>;
  walkCompanies: WalkCompanies;
}) {
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const api = useApi();
  const qc = useQueryClient();
  const info = useInfoPopup();
  const cache = useReceiptCache();
  const view = useActiveCompany();
  const companyStore = useActiveCompanyStore();
  const userId = useAuth().user?.userId ?? '';
  const companyId = search.get('company_id') || view.active?.company_id || 'NONE';
  const nav = (location.state ?? {}) as NavState;
  const listAddress = (ctx: Parameters<typeof listPath>[0]) => `${listPath(ctx)}${nav.listSearch ? `?${nav.listSearch}` : ''}`;

  const receiptQ = useReceiptDetail(receiptId, companyId);
  const contentQ = useContent(receiptId, companyId);
  const schemaQ = useCompanySchema(companyId);
  const boxesQ = useBoxes(receiptId, companyId);
  const calls = useContentCalls(receiptId, companyId);
  const receipt = receiptQ.data;
  const content = contentQ.data;
  const schema: SchemaField[] = schemaQ.data?.fields ?? [];

  const [tab, setTab] = useState<Tab>('details');
  const [showKeys, setShowKeys] = useState(false);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  // The field the user is on now (a pick that waited on a save reads it after)
  const focusedRef = useRef<string | null>(null);
  focusedRef.current = focusedId;
  const [rotation, setRotation] = useState(0);
  const [panel, setPanel] = useState<'history' | 'help' | null>(null);
  const [merge, setMerge] = useState(false);
  const [popup, setPopup] = useState<Popup>(null);
  const [grid, setGrid] = useState<EditorPart[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const readOnly = Boolean(content?.read_only) || receipt?.status === 'archive';
  const receiptType = content?.receipt_type ?? receipt?.receipt_type ?? 'receipt';
  const status = (receipt?.status ?? 'review') as ReceiptStatus;

  // ---- the list the user came from
  // Opened without one (a link, the move after Select company) it is the list of the document's status; while the
  // system still works on it, of the status the work ends in.
  const listStatus = useRef<ReceiptStatus | null>(nav.listStatus ?? null);
  if (!listStatus.current && receipt && !BUSY_STATUSES.includes(receipt.status)) listStatus.current = receipt.status;
  const walkStatus = listStatus.current;
  const ctx = useMemo<ListContext | null>(() => (walkStatus ? listContext(Boolean(nav.inbox), walkStatus, receiptType, nav.listSearch) : null), [walkStatus, nav.inbox, receiptType, nav.listSearch]);
  // The document as the walk places it in the list (created_at, then id); its status and type say whether it is in it.
  const docCreated = receipt?.created_at;
  const docStatus = receipt?.status;
  const docType = receipt?.receipt_type;
  const walkDoc = useMemo<WalkDocument | null>(
    () => (docCreated && docStatus && docType ? { receipt_id: receiptId, created_at: docCreated, status: docStatus, receipt_type: docType } : null),
    [receiptId, docCreated, docStatus, docType],
  );
  // The list is of the view the user is in: in the all-companies view every company's, newest first across them
  const walkScope = useMemo<ListScope | null>(
    () => (view.isLoading ? null : view.allCompanies ? { kind: 'all' } : { kind: 'company', companyId }),
    [view.isLoading, view.allCompanies, companyId],
  );
  const walk = useWalk(walkScope, ctx, walkDoc, nav.walk, walkCompanies);
  const inWalk = walkDoc !== null && ctx !== null && inList(walkDoc, ctx);
  const walkFilter = ctx ? walkFilterText(ctx) : '';

  // A document of the walk opens with its company (another one in the all-companies view), which becomes the active
  // company as when it is chosen in the list; this one's company is kept for the way back.
  const companies = view.companies;
  const goTo = useCallback(
    (id: string, walkHints?: WalkHints) => {
      moving.current = { to: id, queued: null };
      walkCompanies.set(receiptId, companyId);
      const toCompany = walkCompanies.get(id) ?? companyId;
      const switchTo = companyToActivate({ company_id: toCompany }, companyStore.getState().companyId, companies.map((c) => c.company_id));
      if (switchTo) companyStore.setCompany(switchTo);
      return navigate(`/edit-receipt/${encodeURIComponent(id)}?company_id=${encodeURIComponent(toCompany)}`, {
        state: { inbox: nav.inbox, listStatus: listStatus.current ?? undefined, listSearch: nav.listSearch, walk: walkHints } satisfies NavState,
      });
    },
    [navigate, companyId, receiptId, companies, companyStore, walkCompanies, nav.inbox, nav.listSearch, moving],
  );

  // ---- fields
  const fieldMap = useMemo(() => {
    const byId = new Map(schema.map((f) => [f.id, f]));
    const out = new Map<string, SchemaField & { required: boolean }>();
    for (const [id, item] of datapoints(content?.content ?? [])) {
      const f = byId.get(item.schema_id);
      if (!f) continue;
      const other = f.settings.stakeholder && f.settings.stakeholder !== stakeholderOf(receiptType);
      out.set(id, { ...f, required: f.constraints.required && !f.hidden && !other });
    }
    return out;
  }, [schema, content, receiptType]);
  const items = useMemo(() => datapoints(content?.content ?? []), [content]);
  const serverValue = (id: string) => items.get(id)?.content?.value ?? '';
  // ---- the document's notes (lib/use-document-notes.ts): leaving asks about notes no save can store, as about fields
  const notes = useDocumentNotes({ receiptId, companyId, receipt, refresh: calls.refresh });
  const { drafts, draftErrors, unsaved, version, edit, discard, refuse, clearRefusal, flush, hasUnsaved, leave, blockedLeave, leaveWithoutUnsavable, stayOnDocument } = useDrafts({
    receiptId,
    companyId,
    userId,
    content,
    loaded: Boolean(receipt),
    readOnly,
    items,
    fieldMap,
    calls,
    navigate,
    also: notes.elsewhere,
  });
  // Someone else changed the document (a live event brings its newer version): with nothing typed here, its fields
  // are read again, so the screen shows their values. With values typed, the autosave meets the newer version and
  // settles them field by field (lib/save-conflict.ts).
  const docVersion = receipt?.version;
  const contentVersion = content?.version;
  const readAgainFor = useRef<number | null>(null);
  const hasUnsavedRef = useRef(hasUnsaved);
  hasUnsavedRef.current = hasUnsaved;
  useEffect(() => {
    if (docVersion === undefined || contentVersion === undefined || docVersion <= contentVersion) return;
    if (readAgainFor.current === docVersion || hasUnsavedRef.current()) return;
    readAgainFor.current = docVersion;
    // (a read already under way, an action's own, is not cancelled: the action waits for it before the next one)
    void qc.invalidateQueries({ queryKey: editKeys.content(receiptId, companyId) }, { cancelRefetch: false });
    void qc.invalidateQueries({ queryKey: editKeys.history(receiptId, companyId) }, { cancelRefetch: false });
  }, [docVersion, contentVersion, qc, receiptId, companyId]);

  const errors = useMemo(() => {
    const out: Record<string, string> = {};
    for (const e of content?.errors ?? []) if (!(e.id in drafts)) out[e.id] = e.message;
    for (const [id, m] of Object.entries(draftErrors)) if (id in drafts) out[id] = m;
    return out;
  }, [content, drafts, draftErrors]);
  const valid = Object.keys(errors).length === 0 && Object.keys(drafts).every((id) => {
    const f = fieldMap.get(id);
    return !f || !formatError(f, drafts[id]!);
  });

  // Previous / next in the list: the document moved to knows this one as its neighbour, and its place
  const goNext = () => {
    const to = walk.next;
    if (to) leave(() => goTo(to, inWalk ? { previous: receiptId, position: walk.position === null ? null : walk.position + 1 } : undefined));
  };
  const goPrevious = () => {
    const to = walk.previous;
    if (to) leave(() => goTo(to, inWalk ? { next: receiptId, position: walk.position === null ? null : walk.position - 1 } : undefined));
  };

  // The field typed in since it was focused: the name's suggestions stay open while it keeps the focus, also
  // once the autosave has stored what was typed so far.
  const [typedField, setTypedField] = useState<string | null>(null);
  useEffect(() => setTypedField(null), [focusedId]);
  // A supplier or customer picked from the suggestions: what it wrote, until its name is retyped into another's
  const pickRef = useRef<PartyPick | null>(null);
  const valueOfRef = useRef((id: string) => drafts[id] ?? serverValue(id));
  valueOfRef.current = (id: string) => drafts[id] ?? serverValue(id);
  const onChange = useCallback(
    (id: string, value: string) => {
      const pick = pickRef.current;
      const left = pick && pick.receiptId === receiptId && pick.nameId === id ? fieldsLeftByRetypedName(pick, value, valueOfRef.current) : null;
      if (left) pickRef.current = null;
      edit({ [id]: value, ...left });
      setTypedField(id);
    },
    [edit, receiptId],
  );

  // ---- picking a box on the page fills the focused field
  const onPick = async (page: number, box: Box, file: string | null) => {
    if (!focusedId || readOnly || !items.has(focusedId)) return;
    const target = focusedId;
    // An area with no word in it would empty the field: the field keeps its value (the words are the server's)
    if (!hasWordIn(boxesQ.data?.pages.find((p) => p.page === page)?.words ?? [], box)) {
      info.show(NO_TEXT_IN_AREA, 'info');
      return;
    }
    await flush();
    // The user went on to another field while what was typed was saved: the area is not read into the one left
    if (focusedRef.current !== target) return;
    discard(target);
    try {
      await calls.select(version(), target, { page, position: box, file, is_related_content: showKeys });
    } catch (e) {
      if (isConflict(e)) {
        await calls.refresh();
        if (focusedRef.current !== target) return;
        await calls.select(version(), target, { page, position: box, file, is_related_content: showKeys }).catch((err: unknown) => info.show(messageOf(err), 'error'));
      } else info.show(messageOf(e), 'error');
    }
    if (focusedRef.current === target) document.getElementById(`field-${target}`)?.focus();
  };

  // ---- table rows
  const rowCall = async (fn: () => Promise<unknown>) => {
    await flush();
    try {
      await fn();
    } catch (e) {
      if (isConflict(e)) await calls.refresh();
      info.show(messageOf(e), 'error');
    }
  };

  // ---- grid editing
  const lineItems = content?.content.find((i) => i.id === 'line_items');
  // Edit Grid swaps for Cancel and Apply and back: the focus goes with it (Cancel, then Edit Grid again)
  useRefocusOnSwap(grid !== null, () => document.querySelector<HTMLElement>(grid ? '[data-testid="grid-cancel"]' : '[data-testid="grid-edit"]'));
  const startGrid = () => {
    setGrid((lineItems?.grid?.parts ?? []).map(editorPart).filter((p): p is EditorPart => p !== null));
    setMerge(false);
  };
  const applyGrid = async () => {
    if (!grid || !canApply(grid)) {
      info.show('Draw the grid and choose a field for at least one column', 'error');
      return;
    }
    setBusy('grid');
    await flush();
    try {
      await calls.applyGrid(version(), grid);
      setGrid(null);
      info.show('Line items updated', 'success');
    } catch (e) {
      if (isConflict(e)) await calls.refresh();
      info.show(messageOf(e), 'error');
    } finally {
      setBusy(null);
    }
  };
  const gridColumns = useMemo(() => schema.filter((f) => (LINE_ITEM_COLUMNS as readonly string[]).includes(f.id)).map((f) => ({ id: f.id, label: f.label })), [schema]);

  // ---- the document's category (lib/use-document-category.ts); another one picked (or none) answers a confirm's
  // refusal of a deleted one
  const category = useDocumentCategory({ receiptId, companyId, receipt, refresh: calls.refresh, clearRefusal: () => clearRefusal('category_id') });

  // ---- stakeholders: the server says whether the party is new; typing a name offers the company's stakeholders
  const stakeholderKind = stakeholderOf(receiptType);
  const nameId = `${stakeholderKind}_name`;
  const shName = drafts[nameId] ?? serverValue(nameId);
  const shCode = drafts[`${stakeholderKind}_code`] ?? serverValue(`${stakeholderKind}_code`);
  const isNewQ = useIsNewStakeholder(companyId, stakeholderKind, shName, shCode);
  const newStakeholder = showNewMarker(isNewQ.data, shName, shCode);
  const [chosenName, setChosenName] = useState<string | null>(null);
  const typingName = focusedId === nameId && typedField === nameId && shName !== chosenName && !readOnly;
  const suggestionsQ = useStakeholderSuggestions(companyId, stakeholderKind, shName, typingName);
  const suggestions = typingName ? (suggestionsQ.data ?? []) : [];
  const chooseStakeholder = (sh: Stakeholder) => {
    const values = Object.fromEntries(Object.entries(stakeholderValues(sh, stakeholderKind)).filter(([id]) => items.has(id)));
    setChosenName(sh.name);
    pickRef.current = { receiptId, nameId, name: sh.name, values };
    edit(values);
    category.takePartyCategory(sh.category);
  };

  // ---- items: a line item's description offers the company's items (lib/use-item-choice.ts)
  const { itemChoice, chooseItem } = useItemChoice({ focusedId, typedField, readOnly, companyId, settingsOf: (id) => fieldMap.get(id)?.settings, valueOf: (id) => drafts[id] ?? serverValue(id), onChange });

  // ---- status actions
  const company = view.companies.find((c) => c.company_id === companyId);
  const sends = sendsToIntegrations(company);
  // Where the bar is sticky (tablets, phones, narrow windows) it is one row, the name and status above it: the status
  // actions but the primary go into More, and on phones the tools too (back, pager, primary action, More)
  const compact = useMedia(COMPACT);
  const narrow = useMedia(NARROW);
  // The company's code as it is now (the document keeps the code of its upload), as the server checks it
  const actions = actionState({ status, valid, companyCode: company?.code ?? receipt?.company_code ?? '', stakeholderCode: shCode, sends });
  const confirmLabel = actions.buttons.find((b) => b.action === 'confirm')?.label ?? 'CONFIRM';

  const afterAction = async (answer: unknown) => {
    const updated = receiptOfPayload((answer as { receipt?: unknown })?.receipt ?? answer);
    if (updated) cache.applyReceipt(updated);
    // the list changed: neighbours found before are read again when their document opens; so are the answers about
    // suppliers and customers (CONFIRM adds a new one: the next document of that supplier no longer calls it new)
    void qc.invalidateQueries({ queryKey: editKeys.walk(), refetchType: 'none' });
    void qc.invalidateQueries({ queryKey: STAKEHOLDER_ANSWERS_KEY, refetchType: 'none' });
    const next = await walk.after().catch(() => null);
    // The user went elsewhere meanwhile (the side menu, Back): the move on must not take them back to a document
    if (window.location.pathname !== `/edit-receipt/${encodeURIComponent(receiptId)}`) return;
    if (next) goTo(next);
    else navigate(listAddress(ctx ?? { inbox: Boolean(nav.inbox), status }), { state: { fromDocument: receiptId } satisfies ListReturnState });
  };

  const act = async (action: EditAction, opts: { duplicateAccepted?: boolean } = {}) => {
    const button = actions.buttons.find((b) => b.action === action);
    if (button && !button.enabled && !busy) {
      // A shortcut (Alt+Enter, Alt+V, Alt+R) on a form its buttons refuse: say why, and take the focus to the first
      // field to correct, rather than doing nothing (the buttons themselves are disabled)
      info.show(actions.codeNote ? CONTENT_MSG.companyCode : CONTENT_MSG.saveFailed, 'error');
      document.querySelector<HTMLElement>('[data-testid="field-form"] [data-field-input][aria-invalid="true"]')?.focus();
      return;
    }
    if (!button?.enabled || busy) return;
    // A possible copy of a document already uploaded is confirmed (and sent) only when the user says so: it would be
    // booked twice (the ready rule holds it back for the same reason)
    if (action === 'confirm' && !opts.duplicateAccepted && (receipt?.duplicate_id || receipt?.same_document)) {
      setPopup({ kind: 'confirm-duplicate' });
      return;
    }
    setBusy(action);
    try {
      await flush();
      // A save that met another's first leaves the rest of the drafts: they go once more, on the fresh version
      if (hasUnsaved()) await flush();
      if (hasUnsaved()) {
        // Never confirm, send or reject the document without what the user typed
        info.show(UNSAVED_CHANGES, 'error');
        return;
      }
      // Notes typed just before: stored first (the click on this button left their box and started their save)
      await notes.flush();
      const q = { company_id: companyId };
      const id = encodeURIComponent(receiptId);
      let answer: unknown;
      if (action === 'archive') answer = await api.post(`/receipt/${id}/status`, { status: 'archive', version: version() }, { query: q });
      else if (action === 'confirm') answer = await api.post(`/receipt/${id}`, { version: version(), ...category.body, ...notes.body }, { query: { ...q, with_send: 1 } });
      else if (action === 'reject') answer = await api.post(`/receipt/${id}`, { version: version(), receipt_status: 'rejected', ...category.body, ...notes.body }, { query: q });
      else answer = await api.post(`/receipt/${id}`, { version: version(), receipt_status: 'review', ...category.body, ...notes.body }, { query: q });
      category.carried();
      notes.carried();
      info.show(action === 'confirm' ? 'Document confirmed' : action === 'reject' ? 'Document rejected' : action === 'archive' ? 'Moved to archive' : 'Document saved for review', 'success');
      await afterAction(answer);
    } catch (e) {
      if (e instanceof ApiError && e.status === 422) {
        refuse(e.fieldErrors);
        await calls.refresh();
        // A category deleted from the register is named under the Category field and in the message
        info.show(e.fieldErrors.category_id ?? CONTENT_MSG.saveFailed, 'error');
      } else if (isResultUnknown(e)) {
        // The answer was lost (the gateway's 502/503/504): it may have been done. The message says so, and the
        // document is read again, so the screen shows what is true (confirmed and read-only, or as it was).
        info.show(messageOf(e), 'error');
        await Promise.all([calls.refresh(), qc.invalidateQueries({ queryKey: queryKeys.receipt(receiptId, companyId) })]).catch(() => undefined);
      } else {
        if (isConflict(e)) await calls.refresh();
        info.show(messageOf(e), 'error');
      }
    } finally {
      setBusy(null);
    }
  };

  /**
   * Export: what was typed is saved first, and the document read again, so the file has the values on the screen
   * (the document as first loaded carries the list's fields of that moment, which the file prefers).
   */
  const exportNow = async () => {
    await flush();
    await receiptQ.refetch();
    setPopup({ kind: 'export' });
  };

  /** Integrations: queue the archived document again for the company's export targets (bulk send). */
  const sendAgain = async () => {
    try {
      const answer = await api.post<BulkSendAnswer>('/receipts/bulk', { action: 'send', receipt_ids: [receiptId] }, { query: { company_id: companyId } });
      // the document as the send left it (a failure of a target switched off since is dismissed)
      const updated = receiptOfPayload(answer?.results?.[0]?.receipt);
      if (updated) cache.applyReceipt(updated);
      const notice = sendAgainNotice(answer);
      info.show(notice.text, notice.tone);
    } catch (e) {
      info.show(messageOf(e), 'error');
    }
  };

  // (one at a time: Alt+F held or pressed twice sends the flag once per answer)
  const flagging = useRef(false);
  const toggleFlag = async () => {
    if (!receipt || readOnly || flagging.current) return;
    flagging.current = true;
    try {
      const answer = await api.post(`/receipt/${encodeURIComponent(receiptId)}/flag`, { flag: !receipt.flag, version: version() }, { query: { company_id: companyId } });
      const updated = receiptOfPayload(answer);
      if (updated) cache.applyReceipt(updated);
      await Promise.all([calls.refresh(), qc.invalidateQueries({ queryKey: queryKeys.receipt(receiptId, companyId) })]);
    } catch (e) {
      info.show(messageOf(e), 'error');
    } finally {
      flagging.current = false;
    }
  };

  const remove = async () => {
    setBusy('delete');
    try {
      // The version on screen: a document a colleague changed meanwhile is refused (409), not deleted unseen.
      await api.del(`/receipt/${encodeURIComponent(receiptId)}`, { query: { company_id: companyId, version: version() } });
      // out of the lists; its detail stays on screen until the next document opens (read again, it is a 404)
      cache.applyDelete(receiptId, { keepDetail: true });
      setPopup(null);
      info.show('Document deleted', 'success');
      await afterAction(null);
    } catch (e) {
      info.show(messageOf(e), 'error');
    } finally {
      setBusy(null);
    }
  };

  const doMerge = async (otherId: string) => {
    setBusy('merge');
    try {
      await api.post(`/receipts/${encodeURIComponent(receiptId)}/combine`, { receipt_id: otherId, version: version() }, { query: { company_id: companyId } });
      cache.applyDelete(otherId);
      // the screen stays on this document, whose place and neighbours the merged one may have changed (4/4 → 3/3)
      void qc.invalidateQueries({ queryKey: editKeys.walk() });
      setMerge(false);
      await Promise.all([qc.invalidateQueries({ queryKey: queryKeys.receipt(receiptId, companyId) }), calls.refresh(), qc.invalidateQueries({ queryKey: editKeys.boxes(receiptId, companyId) })]);
      info.show('Documents merged', 'success');
    } catch (e) {
      info.show(messageOf(e), 'error');
    } finally {
      setBusy(null);
    }
  };

  // While the system works on the document, look again every few seconds (live events also update it).
  const busyStatus = BUSY_STATUSES.includes(status);
  useEffect(() => {
    if (!busyStatus) return;
    const t = window.setInterval(() => {
      void qc.invalidateQueries({ queryKey: queryKeys.receipt(receiptId, companyId) });
      void calls.refresh();
    }, 3000);
    return () => window.clearInterval(t);
  }, [busyStatus, qc, receiptId, companyId, calls]);
  // The work ends (mostly told by a live event, between two of those looks): what it read is read once more — the
  // fields, their boxes on the page and the history — or the form keeps what it showed while the work went on.
  const wasBusy = useRef(busyStatus);
  useEffect(() => {
    if (wasBusy.current && !busyStatus) {
      // and its place in the list (a merge reads it again; out of the list while read, it is back in it now)
      for (const queryKey of [editKeys.content(receiptId, companyId), editKeys.boxes(receiptId, companyId), editKeys.history(receiptId, companyId), editKeys.walk()]) {
        void qc.invalidateQueries({ queryKey }, { cancelRefetch: false });
      }
    }
    wasBusy.current = busyStatus;
  }, [busyStatus, qc, receiptId, companyId]);

  // Merge candidates: the documents of the list around this one, with their first page's URL (GET
  // receipts/{id}/preview) for the first ten.
  const nearby = useNearby(companyId, ctx, walkDoc, merge);
  const candidateIds = merge ? nearby.items.filter((w) => w.receipt_id !== receiptId).map((w) => w.receipt_id).slice(0, 10) : [];
  const previews = useQueries({
    queries: candidateIds.map((cid) => ({
      queryKey: ['edit-receipt', 'preview', cid, companyId],
      queryFn: () => api.get<{ receipt_id: string; pages: { url: string | null }[] }>(`/receipts/${encodeURIComponent(cid)}/preview`, { query: { company_id: companyId } }),
      staleTime: 5 * 60_000,
    })),
  });
  const thumbnail = (cid: string) => previews.find((p) => p.data?.receipt_id === cid)?.data?.pages[0]?.url ?? null;

  const historyQ = useHistory(receiptId, companyId, panel === 'history');
  const duplicatesQ = useDuplicates(receiptId, companyId, popup?.kind === 'duplicates');

  // ---- keyboard (lib/use-edit-shortcuts.ts)
  useEditShortcuts({
    receiptId,
    moving,
    popupOpen: popup !== null,
    handlers: {
      goNext,
      goPrevious,
      toggleFlag,
      act,
      saveNow: () => flush(),
      toggleHelp: () => setPanel((p) => (p === 'help' ? null : 'help')),
      back: () => {
        if (grid) setGrid(null);
        else if (panel) setPanel(null);
        else return false;
        return true;
      },
    },
  });

  // ---- the focus as the document opens: its first field to correct, else its first field (lib/initial-focus.ts)
  useInitialFieldFocus({
    ready: Boolean(receipt && content && schemaQ.data),
    skip: readOnly,
    tab,
    target: () =>
      initialField(
        (['details', 'advanced'] as const).map((t) => ({ tab: t, fields: formSections(schema, content?.content ?? [], t, receiptType).flatMap((s) => s.fields) })),
        errors,
        drafts,
      ),
    showTab: setTab,
    focused: () => announce(`Edit document: ${receipt?.original_file_name ?? ''}, ${STATUS_TITLES[status] ?? status}`),
  });

  // ---- what the form, the pop-up and the pages are given: the same objects while what they show is the same, so
  // a key typed renders the field typed in (and its row of the Lines pop-up), not the whole screen's 3,000 inputs
  const totalsValue = (id: string) => drafts[id] ?? serverValue(id);
  const totalsWarning = totalsHint({ subtotal: totalsValue('amount_total_base'), tax: totalsValue('amount_tax'), total: totalsValue('amount_total') });
  const lineTotals = useMemo(() => [...items.values()].filter((i) => i.schema_id === 'total_price').map((i) => drafts[i.id] ?? i.content?.value ?? ''), [items, drafts]);
  const linesWarning = lineItemsHint({ lineTotals, subtotal: totalsValue('amount_total_base'), total: totalsValue('amount_total') });
  const vatLines = useMemo(() => {
    const rows = new Map<string, { base: string; vat: string; gross: string }>();
    const cell = { vat_line_base: 'base', vat_line_tax: 'vat', vat_line_total: 'gross' } as const;
    for (const i of items.values()) {
      const key = cell[i.schema_id as keyof typeof cell];
      if (!key || !i.parent_content_id) continue;
      const row = rows.get(i.parent_content_id) ?? { base: '', vat: '', gross: '' };
      row[key] = drafts[i.id] ?? i.content?.value ?? '';
      rows.set(i.parent_content_id, row);
    }
    return [...rows.values()];
  }, [items, drafts]);
  const vatWarning = vatLinesHint({ lines: vatLines, tax: totalsValue('amount_tax'), total: totalsValue('amount_total') });
  const events = useMemo<FieldEvents>(
    () => {
      const hints = {
        ...(totalsWarning ? { amount_total: totalsWarning } : {}),
        ...(linesWarning ? { line_items: linesWarning } : {}),
        ...(vatWarning ? { vat_lines: vatWarning } : {}),
      };
      return { drafts, errors, readOnly, showKeys, focusedId, onFocus: setFocusedId, onChange, hints: Object.keys(hints).length ? hints : undefined };
    },
    [drafts, errors, readOnly, showKeys, focusedId, onChange, totalsWarning, linesWarning, vatWarning],
  );
  const focused = focusedId ? items.get(focusedId) : undefined;
  const shown = showKeys ? focused?.related_content : focused?.content;
  const highlights = useMemo<Highlight[]>(
    () => (shown?.position && shown.page ? [{ page: shown.page, box: shown.position, tone: showKeys ? 'key' : 'value' }] : []),
    [shown, showKeys],
  );
  const receiptPages = receipt?.pages;
  const pages = useMemo(() => (receiptPages ?? []).map((p) => ({ ...p, url: p.url ?? null })), [receiptPages]);
  const viewerGrid = useMemo(() => (grid ? { parts: grid, columns: gridColumns, onChange: setGrid } : null), [grid, gridColumns]);
  const pickBox = useStableCallback((page: number, box: Box, file: string | null) => void onPick(page, box, file));
  const addRowAfter = useStableCallback((after?: string) => {
    const tid = popup?.kind === 'table' ? popup.id : null;
    if (tid) void rowCall(() => calls.addLine(version(), tid, after));
  });
  const deleteRow = useStableCallback((row: string) => void rowCall(() => calls.deleteLine(version(), row)));
  const moveRow = useStableCallback((row: string, pos: number) => void rowCall(() => calls.moveLine(version(), row, pos)));
  const closePopup = useCallback(() => setPopup(null), []);

  // ---- rendering
  if (receiptQ.isPending || contentQ.isPending) return <LoadingBlock label="Loading document" />;
  if (receiptQ.isError || contentQ.isError || !receipt || !content) {
    return (
      <div className="page">
        <p className="notice notice-error">{messageOf(receiptQ.error ?? contentQ.error)}</p>
        {/* In a tab opened on this address there is nothing in the app to go back to: the list instead */}
        <Button variant="secondary" onClick={() => (((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0 ? void navigate(-1) : void navigate(listAddress({ inbox: Boolean(nav.inbox) || !nav.listStatus, status: nav.listStatus ?? 'review' })))}>
          Back
        </Button>
      </div>
    );
  }

  const table = popup?.kind === 'table' ? popup.id : null;
  const codeNote = actions.codeNote && (
    <span className="er-code-note" data-testid="code-note">
      {CONTENT_MSG.companyCode}
    </span>
  );
  const companyShown = view.allCompanies ? companyName(receipt, view.companies) : null;
  const title = (
    <div className="er-title">
      <strong title={receipt.original_file_name}>{receipt.original_file_name}</strong>
      <span className={`pill pill-${status === 'ready' ? 'green' : status === 'review' || status === 'error' ? 'red' : 'orange'}`} data-testid="receipt-status">
        {STATUS_TITLES[status] ?? status}
      </span>
      {/* the all-companies view walks every company's documents: whose this one is */}
      {companyShown !== null && (
        <span className="muted er-company" data-testid="receipt-company" title={companyShown}>
          {companyShown}
        </span>
      )}
      {unsaved && <span className="muted er-saving">Unsaved changes…</span>}
      {compact && codeNote}
    </div>
  );
  const statusButton = (b: (typeof actions.buttons)[number]) => (
    <Button key={b.action} variant={b.primary ? 'primary' : b.action === 'reject' ? 'danger' : 'secondary'} disabled={!b.enabled} title={b.why} loading={busy === b.action} onClick={() => void act(b.action)}>
      {b.label}
    </Button>
  );

  return (
    <div className="er" data-testid="edit-receipt">
      {compact && <div className="er-titlebar">{title}</div>}
      <header className="er-topbar">
        <button type="button" className="icon-btn" aria-label="Back" title="Back" onClick={() => leave(() => void navigate(listAddress(ctx ?? { inbox: Boolean(nav.inbox), status }), { state: { fromDocument: receiptId } satisfies ListReturnState }))}>
          <Icon name="chevronLeft" />
        </button>
        <div className="er-pager" data-testid="pager">
          <button type="button" className="icon-btn" aria-label="Previous document" aria-disabled={!walk.previous || undefined} onClick={goPrevious}>
            <Icon name="chevronLeft" size={18} />
          </button>
          <span data-testid="pager-position">{walk.position !== null && inWalk ? `${walk.position}/${walk.total ?? '…'}` : `–/${walk.total ?? '…'}`}</span>
          <button type="button" className="icon-btn" aria-label="Next document" aria-disabled={!walk.next || undefined} onClick={goNext}>
            <Icon name="chevronRight" size={18} />
          </button>
        </div>
        {walkFilter && (
          <span className="er-walk-filter" data-testid="walk-filter" title={`Previous and Next go through the filtered list: ${walkFilter}`}>
            {`Filtered: ${walkFilter}`}
          </span>
        )}
        {!compact && title}
        {!narrow && (
          <div className="er-topbar-tools">
            {/* a toggle: its name stays, aria-pressed says whether it is flagged (the tooltip says what a click does) */}
            <button type="button" className={`icon-btn ${receipt.flag ? 'is-on' : ''}`} aria-label="Flag" title={receipt.flag ? 'Unflag' : 'Flag'} aria-pressed={receipt.flag} disabled={readOnly} onClick={() => void toggleFlag()} data-testid="flag">
              <EditIcon name="flag" />
            </button>
            <button type="button" className="icon-btn" aria-label="Export" title="Export" onClick={() => void exportNow()} data-testid="export">
              <Icon name="export" />
            </button>
            <button type="button" className="icon-btn" aria-label="Delete" title="Delete" onClick={() => setPopup({ kind: 'delete' })} data-testid="delete">
              <Icon name="trash" />
            </button>
            <button type="button" className={`icon-btn ${receipt.duplicate_id || receipt.same_document ? 'is-warn' : ''}`} aria-label="Duplicates" title="Duplicates" onClick={() => setPopup({ kind: 'duplicates' })} data-testid="duplicates">
              <EditIcon name="copy" />
            </button>
          </div>
        )}
        <div className="er-actions" data-testid="status-actions">
          {actions.mode === 'processing' && <span className="er-processing">Processing</span>}
          {!compact && codeNote}
          {actions.buttons.filter((b) => !compact || b.primary).map(statusButton)}
          {(narrow || (compact && actions.buttons.length > 1)) && (
            <MoreMenu
              actions={[
                ...actions.buttons
                  .filter((b) => !b.primary)
                  .map((b) => ({ label: b.label, disabled: !b.enabled || busy !== null, tone: b.action === 'reject' ? ('danger' as const) : undefined, onSelect: () => void act(b.action) })),
                ...(narrow
                  ? [
                      { label: receipt.flag ? 'Unflag' : 'Flag', disabled: readOnly, onSelect: () => void toggleFlag() },
                      { label: 'Export', onSelect: () => void exportNow() },
                      { label: 'Delete', tone: 'danger' as const, onSelect: () => setPopup({ kind: 'delete' }) },
                      { label: 'Duplicates', warn: Boolean(receipt.duplicate_id || receipt.same_document), onSelect: () => setPopup({ kind: 'duplicates' }) },
                    ]
                  : []),
              ]}
            />
          )}
        </div>
      </header>

      <div className="er-body">
        <nav className="er-toolbar" aria-label="Document tools">
          <button type="button" className={`er-tool ${merge ? 'is-on' : ''}`} title="Merge" aria-pressed={merge} disabled={readOnly} onClick={() => setMerge((m) => !m)} data-testid="tool-merge">
            <EditIcon name="merge" />
            <span>Merge</span>
          </button>
          <button type="button" className="er-tool" title="Rotate" onClick={() => setRotation((r) => nextRotation(r))} data-testid="tool-rotate">
            <EditIcon name="rotate" />
            <span>{rotation ? `${rotation}°` : 'Rotate'}</span>
          </button>
          {grid ? (
            <>
              <button type="button" className="er-tool" onClick={() => setGrid(null)} data-testid="grid-cancel">
                <Icon name="close" size={18} />
                <span>Cancel</span>
              </button>
              <button type="button" className="er-tool is-primary" aria-disabled={busy === 'grid' || undefined} aria-busy={busy === 'grid' || undefined} onClick={() => busy !== 'grid' && void applyGrid()} data-testid="grid-apply">
                <Icon name="check" size={18} />
                <span>Apply</span>
              </button>
            </>
          ) : (
            <button type="button" className="er-tool" disabled={readOnly} onClick={startGrid} data-testid="grid-edit">
              <EditIcon name="grid" />
              <span>Edit Grid</span>
            </button>
          )}
          <button type="button" className="er-tool" onClick={() => lineItems && setPopup({ kind: 'table', id: lineItems.id })} data-testid="tool-line-items">
            <EditIcon name="table" />
            <span>Lines</span>
          </button>
          <button type="button" className={`er-tool ${panel === 'history' ? 'is-on' : ''}`} onClick={() => setPanel((p) => (p === 'history' ? null : 'history'))} data-testid="tool-history">
            <EditIcon name="history" />
            <span>History</span>
          </button>
          <button type="button" className={`er-tool ${panel === 'help' ? 'is-on' : ''}`} onClick={() => setPanel((p) => (p === 'help' ? null : 'help'))} data-testid="tool-help">
            <EditIcon name="help" />
            <span>Keys</span>
          </button>
        </nav>

        <section className="er-left">
          {grid && (
            <div className="er-grid-tools" data-testid="grid-tools">
              <span className="muted er-grid-hint">{grid.length ? 'Click the rulers to add lines, choose each column’s field, then Apply.' : 'Draw the table area on the page.'}</span>
              <button type="button" className="btn btn-link btn-sm" disabled={!grid.length} onClick={() => setGrid(grid.map(deleteAllRows))}>
                Delete all rows
              </button>
              <button type="button" className="btn btn-link btn-sm" disabled={!grid.length} onClick={() => setGrid(grid.map(deleteAllColumns))}>
                Delete all columns
              </button>
              <button type="button" className="btn btn-link btn-sm" disabled={!grid.length} onClick={() => setGrid([])}>
                Delete grid
              </button>
              {content.available_template && (
                <button
                  type="button"
                  className="btn btn-link btn-sm"
                  onClick={() =>
                    void rowCall(async () => {
                      const res = await calls.useTemplate(version());
                      const parts = res.content.find((i) => i.id === 'line_items')?.grid?.parts ?? [];
                      setGrid(parts.map(editorPart).filter((p): p is EditorPart => p !== null));
                    })
                  }
                  data-testid="grid-use-template"
                >
                  Use template
                </button>
              )}
              {Boolean(lineItems?.grid?.parts.length) && (shName || shCode) && (
                <button type="button" className="btn btn-link btn-sm" onClick={() => void rowCall(async () => { await calls.saveTemplate(); info.show('Template saved', 'success'); })} data-testid="grid-save-template">
                  Save template
                </button>
              )}
            </div>
          )}
          <DocumentViewer
            pages={pages}
            boxes={boxesQ.data?.pages ?? NO_BOXES}
            rotation={rotation}
            highlights={highlights}
            pickable={Boolean(focusedId) && !readOnly}
            onPick={pickBox}
            grid={viewerGrid}
          />
        </section>

        <section className="er-right">
          {merge ? (
            <MergePanel
              candidates={nearby.items
                // The server combines neither read-only, busy nor failed documents
                .filter((w) => w.receipt_id !== receiptId && !NOT_MERGEABLE.includes((w as unknown as Receipt).status))
                .map((w) => {
                  const r = w as unknown as Receipt;
                  return { receipt_id: r.receipt_id, original_file_name: r.original_file_name, created_at: r.created_at, url: thumbnail(r.receipt_id) };
                })}
              loading={nearby.loading}
              busy={busy === 'merge'}
              onMerge={doMerge}
              onClose={() => setMerge(false)}
            />
          ) : (
            <FieldForm
              schema={schema}
              content={content.content}
              receiptType={receiptType}
              tab={tab}
              onTab={setTab}
              onToggleKeys={() => setShowKeys((v) => !v)}
              events={events}
              receiptError={receipt.error?.message ?? null}
              onSendAgain={receipt.status === 'archive' && receipt.error?.message?.startsWith('Export to ') ? () => void sendAgain() : undefined}
              newStakeholder={newStakeholder}
              suggestions={suggestions}
              onChooseStakeholder={chooseStakeholder}
              category={companyId !== 'NONE' ? { companyId, value: category.value, options: category.options, onChange: (v: string) => void category.pick(v), error: draftErrors.category_id } : undefined}
              notes={companyId !== 'NONE' ? { value: notes.value, error: notes.error ?? draftErrors.notes, onChange: notes.type, onLeave: notes.leave } : undefined}
              onOpenTable={(tid) => setPopup({ kind: 'table', id: tid })}
              onAddRow={(tid) => void rowCall(() => calls.addLine(version(), tid))}
            />
          )}
        </section>
        {panel === 'history' && <HistoryPanel items={historyQ.data?.items} loading={historyQ.isPending} error={historyQ.error} />}
        {panel === 'help' && <HelpPanel onClose={() => setPanel(null)} />}
      </div>

      {table && (
        <TablePopup
          tableId={table}
          schema={schema}
          content={content.content}
          receiptType={receiptType}
          events={events}
          offerItems={companyId !== 'NONE' && !readOnly}
          itemChoice={itemChoice}
          onChooseItem={chooseItem}
          onAdd={addRowAfter}
          onDelete={deleteRow}
          onMove={moveRow}
          onClose={closePopup}
        />
      )}
      {popup?.kind === 'delete' && (
        <Modal
          title="Delete document"
          onClose={() => setPopup(null)}
          size="sm"
          testId="delete-confirm"
          footer={
            <>
              <Button variant="secondary" onClick={() => setPopup(null)}>
                Cancel
              </Button>
              <Button variant="danger" loading={busy === 'delete'} onClick={() => void remove()}>
                Delete
              </Button>
            </>
          }
        >
          <p>Are you sure you want to delete {receipt.original_file_name}?</p>
          <p className="text-danger">This actions is irreversible!</p>
        </Modal>
      )}
      {blockedLeave && (
        <Modal
          title="Values that cannot be saved"
          onClose={stayOnDocument}
          size="sm"
          testId="leave-unsavable"
          footer={
            <>
              <Button variant="secondary" onClick={stayOnDocument}>
                Stay and correct
              </Button>
              <Button variant="danger" onClick={leaveWithoutUnsavable}>
                Leave without them
              </Button>
            </>
          }
        >
          <p>{blockedLeave.values.length === 1 ? 'This value was not saved:' : 'These values were not saved:'}</p>
          <ul className="er-unsavable-list">
            {blockedLeave.values.map((v) => (
              <li key={v.id}>
                <strong>{v.label}</strong>: {v.message}
              </li>
            ))}
          </ul>
          <p>The document keeps its saved values.</p>
        </Modal>
      )}
      {popup?.kind === 'confirm-duplicate' && (
        <Modal
          title="Possible duplicate"
          onClose={() => setPopup(null)}
          size="sm"
          testId="confirm-duplicate"
          footer={
            <>
              <Button variant="secondary" onClick={() => setPopup(null)}>
                Back
              </Button>
              <Button
                onClick={() => {
                  setPopup(null);
                  void act('confirm', { duplicateAccepted: true });
                }}
              >
                {confirmLabel}
              </Button>
            </>
          }
        >
          <p>This document looks like a copy of one uploaded before (Duplicates shows which). {confirmLabel === 'REVIEW AND SEND' ? 'Confirm and send it anyway?' : 'Confirm it anyway?'}</p>
        </Modal>
      )}
      {popup?.kind === 'duplicates' && <DuplicatesPopup items={duplicatesQ.data?.items} loading={duplicatesQ.isPending} companyId={companyId} party={stakeholderOf(receiptType)} onClose={() => setPopup(null)} />}
      {popup?.kind === 'export' && <ExportModal receipts={[receipt]} onClose={() => setPopup(null)} onExported={() => void calls.refresh()} />}
    </div>
  );
}
