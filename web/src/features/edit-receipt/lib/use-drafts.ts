import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { NavigateFunction } from 'react-router-dom';
import { AUTOSAVE_MS } from '../../../../../shared/constants';
import type { ContentResponse, SchemaField } from '../../../../../shared/schemas/content';
import type { ReceiptStatus } from '../../../../../shared/status';
import { useApi } from '../../../app/api-context';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { ApiError, messageOf } from '../../../lib/api-error';
import { queryKeys } from '../../../lib/query-keys';
import { editKeys, type useContentCalls } from '../api/content';
import { UNSAVED_CHANGES } from './actions';
import { clearDrafts, DRAFTS_STORE_MS, draftsToRestore, loadDrafts, retryDelay, storeDrafts } from './drafts-storage';
import { datapoints, formatError, unsavableDrafts, type UnsavableValue } from './form';
import { isConflict, notSavedMessage, settleConflict } from './save-conflict';

/** A value typed on the edit screen outside its fields, with a save of its own (the document's notes). */
export interface TypedElsewhere {
  /** Typed and not stored yet. */
  unsaved: boolean;
  /** What no save can store as typed, read when leaving (after the fields' save). */
  unsavable(): UnsavableValue[];
  /** Leaving without it: the typed value goes. */
  drop(): void;
}

/** A save that failed for a passing reason (no network, the server busy or failing): the autosave tries again. */
const isTransient = (e: unknown) => !(e instanceof ApiError) || e.status === 0 || e.status === 429 || e.status >= 500;

/**
 * What the user typed on the edit screen and has not saved yet (the drafts), and everything that saves them: the
 * autosave 2 s after typing stops (retried after a growing pause when the save failed for a passing reason), a save
 * that met a newer version (lib/save-conflict.ts), the copy kept in the tab's sessionStorage (lib/drafts-storage.ts)
 * and put back after a reload, and the save before leaving the document (`leave`), also through the app's own links,
 * a reload or closing the tab. `version()` is the document's version the next change is made on.
 */
export function useDrafts({ receiptId, companyId, userId, content, loaded, readOnly, items, fieldMap, calls, navigate, also }: {
  receiptId: string;
  companyId: string;
  userId: string;
  content: ContentResponse | undefined;
  /** The document's detail is loaded too (its drafts are put back only then). */
  loaded: boolean;
  readOnly: boolean;
  /** The document's fields by id (lib/form.ts `datapoints`). */
  items: ReturnType<typeof datapoints>;
  fieldMap: Map<string, SchemaField>;
  calls: ReturnType<typeof useContentCalls>;
  navigate: NavigateFunction;
  /**
   * A value typed on the screen outside the fields (the document's notes, lib/use-document-notes.ts), saved by its
   * own hook: leaving asks about it as about the fields' values when no save can store it as typed.
   */
  also?: TypedElsewhere;
}) {
  const api = useApi();
  const qc = useQueryClient();
  const info = useInfoPopup();
  const alsoRef = useRef(also);
  alsoRef.current = also;
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [draftErrors, setDraftErrorsState] = useState<Record<string, string>>({});
  // The refusals at once too (a leave reads them right after its save, before the next render)
  const draftErrorsRef = useRef<Record<string, string>>({});
  const setDraftErrors = useCallback((next: Record<string, string> | ((prev: Record<string, string>) => Record<string, string>)) => {
    draftErrorsRef.current = typeof next === 'function' ? next(draftErrorsRef.current) : next;
    setDraftErrorsState(draftErrorsRef.current);
  }, []);
  // A leave that met values no save can store: where it was going, and those values (the screen asks what to do)
  const [blockedLeave, setBlockedLeave] = useState<{ go: () => void; values: UnsavableValue[] } | null>(null);
  const base = useRef<Record<string, string>>({});
  // Per field, the values of saves whose answer never came (no network, the gateway's 5xx): they may have been
  // applied, so a retry that meets them meets our own save, not a colleague's (lib/save-conflict.ts).
  const unanswered = useRef<Record<string, string[]>>({});
  const saving = useRef<Promise<void> | null>(null);
  const draftsRef = useRef(drafts);
  draftsRef.current = drafts;
  // Saves in a row that failed for a passing reason: the autosave tries again after a growing pause.
  const [failures, setFailures] = useState(0);
  // Drafts put back from the tab's storage are saved on the version they were typed on (a document changed since
  // answers 409, and the conflict path below keeps or drops each value); null once they went.
  const restoredVersion = useRef<number | null>(null);

  const version = () => qc.getQueryData<ContentResponse>(editKeys.content(receiptId, companyId))?.version ?? content?.version ?? 0;
  // The drafts as kept in the tab's sessionStorage (lib/drafts-storage.ts): a reload, or signing in again after an
  // expired session, finds them; the entry goes once everything typed is saved.
  const owner = useMemo(() => ({ userId, companyId, receiptId }), [userId, companyId, receiptId]);
  const persistRef = useRef<(values: Record<string, string>) => void>(() => undefined);
  persistRef.current = (values) => storeDrafts(owner, { values, base: base.current, version: restoredVersion.current ?? version() });
  // (written by storeDraftsNow once the drafts kept in the tab were put back: before, an empty write would drop them)
  const restoredRef = useRef(false);
  const storeTimer = useRef<number | null>(null);
  const storeDraftsNow = useCallback(() => {
    if (storeTimer.current === null) return;
    window.clearTimeout(storeTimer.current);
    storeTimer.current = null;
    if (restoredRef.current) persistRef.current(draftsRef.current);
  }, []);

  // ---- autosave: 2 s after typing stops; values that fail the server's check stay unsaved with its message.
  // Resolves true when nothing typed is left unsaved. `auto`: the autosave's timer (its failures set the pause
  // before the next try); `quiet`: a failure shows no message (the autosave's retries, a leave that says more).
  const flush = useCallback(async ({ auto = false, quiet = false }: { auto?: boolean; quiet?: boolean } = {}): Promise<boolean> => {
    if (saving.current) {
      await saving.current;
      if (!Object.keys(draftsRef.current).length) return true;
    }
    const pending = { ...draftsRef.current };
    if (!Object.keys(pending).length) return true;
    const run = (async () => {
      const sendable = Object.entries(pending).filter(([id, v]) => {
        const f = fieldMap.get(id);
        return !f || !formatError(f, v);
      });
      // Values that stay unsaved (badly formatted) get the server's message; those sent get theirs in the save's
      // answer (its `errors`), so a save of well-formed values is the one PUT.
      const toSend = new Set(sendable.map(([id]) => id));
      const kept = Object.entries(pending).filter(([id]) => !toSend.has(id));
      const checked = kept.length ? await calls.validate(kept.map(([id, value]) => ({ id, value }))).catch(() => null) : null;
      const serverErrors = Object.fromEntries((checked?.errors ?? []).filter((e) => e.id in pending).map((e) => [e.id, e.message]));
      setDraftErrors((prev) => ({ ...Object.fromEntries(Object.entries(prev).filter(([k]) => !(k in pending))), ...serverErrors }));
      if (!sendable.length) return;
      const sent = Object.fromEntries(sendable);
      // The drafts left once a save is through: the ref at once (an edit action reads it right after the save),
      // the state for the next render; a new object either way, so what is left is saved again after 2 s.
      const keepDrafts = (keep: (id: string, value: string) => boolean) => {
        draftsRef.current = Object.fromEntries(Object.entries(draftsRef.current).filter(([k, v]) => keep(k, v)));
        setDrafts((d) => Object.fromEntries(Object.entries(d).filter(([k, v]) => keep(k, v))));
        // also when the screen is gone (the save on leaving): the tab's copy follows what is left
        persistRef.current(draftsRef.current);
      };
      try {
        await calls.save(restoredVersion.current ?? version(), sendable.map(([id, value]) => ({ id, value })));
      } catch (e) {
        if (isConflict(e)) {
          restoredVersion.current = null;
          // A newer version: reload (never the cached copy: it holds the stale version). A field holding a value
          // this tab sent is our own save (one whose answer was lost): its newer draft stays, saved again on the
          // fresh version. A field someone else changed shows their value and drops ours; the others stay drafts.
          const fresh = await qc.fetchQuery({ queryKey: editKeys.content(receiptId, companyId), staleTime: 0, queryFn: () => api.get<ContentResponse>(`/receipts/${encodeURIComponent(receiptId)}/content`, { query: { company_id: companyId } }) });
          const now = datapoints(fresh.content);
          const settled = settleConflict({ sent, unanswered: unanswered.current, base: base.current, fresh: (id) => now.get(id)?.content?.value ?? '', readOnly: fresh.read_only, drafts: draftsRef.current });
          unanswered.current = {};
          if (settled.closed) {
            // A colleague's action made the document read-only (CONFIRM, archive, processing again): no draft can be
            // saved any more, so none stays (here nor in the tab's storage), the autosave stops, leaving is free, and
            // the user is told which fields were not saved and why.
            base.current = {};
            keepDrafts(() => false);
            clearDrafts(owner);
            setDraftErrors({});
            setFailures(0);
            const doc = await qc.fetchQuery({ queryKey: queryKeys.receipt(receiptId, companyId), staleTime: 0, queryFn: () => api.get<{ status: ReceiptStatus }>(`/receipts/${encodeURIComponent(receiptId)}`, { query: { company_id: companyId || undefined } }) }).catch(() => null);
            const labels = settled.lost.map((k) => fieldMap.get(k)?.label ?? k);
            info.show(notSavedMessage(doc && doc.status !== 'archive' ? 'busy' : 'archive', labels), 'error');
            return;
          }
          for (const [k, v] of Object.entries(settled.landed)) {
            if (draftsRef.current[k] === v) delete base.current[k];
            else base.current[k] = v;
          }
          keepDrafts(settled.keepDraft);
          if (settled.lost.length) {
            for (const k of settled.lost) delete base.current[k];
            info.show('The document was changed by someone else; their values are shown.', 'error');
          }
          return;
        }
        if (e instanceof ApiError && e.status === 422) {
          setDraftErrors((prev) => ({ ...prev, ...e.fieldErrors }));
          return;
        }
        // (a failed save by hand arms the retry when none is; a retry already armed keeps its pause)
        if (isTransient(e)) {
          setFailures((n) => (auto ? n + 1 : Math.max(n, 1)));
          // it may have been applied all the same (only its answer lost)
          for (const [k, v] of Object.entries(sent)) unanswered.current[k] = [...(unanswered.current[k] ?? []), v];
        }
        // (a 401 has the session-expired pop-up say it; the drafts wait in the tab for the next sign-in)
        if (!quiet && !(e instanceof ApiError && e.status === 401)) info.show(messageOf(e), 'error');
        return;
      }
      restoredVersion.current = null;
      setFailures(0);
      // What was sent is the server's value now: a draft typed on meanwhile continues from it
      for (const k of Object.keys(sent)) {
        delete unanswered.current[k];
        if (draftsRef.current[k] === sent[k]) delete base.current[k];
        else if (k in draftsRef.current) base.current[k] = sent[k]!;
      }
      keepDrafts((k, v) => !(k in sent && sent[k] === v));
    })();
    saving.current = run;
    try {
      await run;
    } finally {
      saving.current = null;
    }
    return !Object.keys(draftsRef.current).length;
  }, [calls, fieldMap, qc, receiptId, companyId, api, info, owner]);

  // 2 s after the last change; after a failed save again by itself, 2 s, 4 s, … up to 30 s apart (its message
  // shown the first time only), and at once when the browser is back online.
  const unsaved = Object.keys(drafts).length > 0;
  useEffect(() => {
    if (!Object.keys(drafts).length) return;
    const t = window.setTimeout(() => void flush({ auto: true, quiet: failures > 0 }), failures ? retryDelay(failures) : AUTOSAVE_MS);
    return () => window.clearTimeout(t);
  }, [drafts, flush, failures]);
  useEffect(() => {
    if (!unsaved) return;
    const onOnline = () => void flush({ quiet: true });
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [unsaved, flush]);

  /** Saves everything typed before leaving the document; false when something is left. */
  const saveBeforeLeaving = useCallback(async (): Promise<boolean> => {
    // A save that met another's first leaves the rest of the drafts: they go once more, on the fresh version
    return (await flush({ quiet: true })) || (await flush({ quiet: true }));
  }, [flush]);
  /**
   * Leaves once everything typed is saved. When what is left are values no save can store as typed (a bad format, a
   * refused value), the screen asks: stay and correct them, or leave without them (`leaveWithoutUnsavable`). When a
   * save failed for another reason (no network) it stays and says so; the drafts wait in the tab.
   */
  const leave = useCallback(
    (go: () => void) => {
      storeDraftsNow();
      void saveBeforeLeaving().then((saved) => {
        const elsewhere = alsoRef.current?.unsavable() ?? [];
        if (saved && !elsewhere.length) return go();
        const values = saved ? [] : unsavableDrafts(draftsRef.current, draftErrorsRef.current, fieldMap);
        if (!saved && !values.length) return info.show(UNSAVED_CHANGES, 'error');
        setBlockedLeave({ go, values: [...values, ...elsewhere] });
      });
    },
    [saveBeforeLeaving, storeDraftsNow, fieldMap, info],
  );
  /** The values that could not be saved are dropped (here and in the tab's storage), then the leave goes on. */
  const leaveWithoutUnsavable = useCallback(() => {
    const blocked = blockedLeave;
    setBlockedLeave(null);
    if (!blocked) return;
    alsoRef.current?.drop();
    const dropped = new Set(blocked.values.map((v) => v.id));
    draftsRef.current = Object.fromEntries(Object.entries(draftsRef.current).filter(([k]) => !dropped.has(k)));
    setDrafts(draftsRef.current);
    for (const id of dropped) delete base.current[id];
    setDraftErrors((prev) => Object.fromEntries(Object.entries(prev).filter(([k]) => !dropped.has(k))));
    persistRef.current(draftsRef.current);
    if (Object.keys(draftsRef.current).length) return info.show(UNSAVED_CHANGES, 'error');
    clearDrafts(owner);
    blocked.go();
  }, [blockedLeave, info, owner, setDraftErrors]);
  const stayOnDocument = useCallback(() => setBlockedLeave(null), []);

  // The drafts kept in the tab come back once the document is loaded (not on a read-only one), as unsaved
  // drafts the autosave stores; from then on the tab's copy follows every change.
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    if (restored || !content || !loaded || !userId) return;
    setRestored(true);
    const now = datapoints(content.content);
    const back = readOnly ? null : draftsToRestore(loadDrafts(owner), (id) => (now.has(id) ? (now.get(id)?.content?.value ?? '') : undefined));
    if (!back) {
      clearDrafts(owner);
      return;
    }
    for (const [id, v] of Object.entries(back.base)) if (!(id in base.current)) base.current[id] = v;
    restoredVersion.current = back.version;
    setDrafts((d) => ({ ...back.values, ...d }));
  }, [restored, content, loaded, userId, readOnly, owner]);
  // Written a moment after the last change rather than on every key (a key in a 300-line grid must stay quick), and
  // at once whenever the page may go: pagehide (a reload, a closed tab), beforeunload, a move to another document
  // or screen (leave), and the screen's unmount (the browser's Back, the sign-in after an expired session).
  restoredRef.current = restored;
  useEffect(() => {
    if (!restored) return;
    if (storeTimer.current !== null) window.clearTimeout(storeTimer.current);
    storeTimer.current = window.setTimeout(storeDraftsNow, DRAFTS_STORE_MS);
  }, [drafts, restored, storeDraftsNow]);
  useEffect(() => {
    window.addEventListener('pagehide', storeDraftsNow);
    window.addEventListener('beforeunload', storeDraftsNow);
    return () => {
      window.removeEventListener('pagehide', storeDraftsNow);
      window.removeEventListener('beforeunload', storeDraftsNow);
      storeDraftsNow();
    };
  }, [storeDraftsNow]);

  // Reloading or closing the tab with something unsaved asks first (the drafts are kept in the tab either way; a
  // value typed elsewhere on the screen is not).
  const unsavedAnywhere = unsaved || Boolean(also?.unsaved);
  useEffect(() => {
    if (!unsavedAnywhere) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      persistRef.current(draftsRef.current);
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsavedAnywhere]);

  // Leaving through the app's own links (the side menu, the top bar) saves first and stays when that fails.
  useEffect(() => {
    if (!unsavedAnywhere) return;
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.('a[href]');
      if (!(a instanceof HTMLAnchorElement) || (a.target && a.target !== '_self') || a.hasAttribute('download')) return;
      const to = new URL(a.href, window.location.href);
      if (to.origin !== window.location.origin || `${to.pathname}${to.search}` === `${window.location.pathname}${window.location.search}`) return;
      e.preventDefault();
      e.stopPropagation();
      leave(() => navigate(`${to.pathname}${to.search}${to.hash}`));
    };
    window.addEventListener('click', onClick, true);
    return () => window.removeEventListener('click', onClick, true);
  }, [unsavedAnywhere, leave, navigate]);

  // Leaving the page otherwise (the browser's Back) saves what was typed; what fails stays in the tab's storage.
  const flushRef = useRef(flush);
  flushRef.current = flush;
  useEffect(() => () => void flushRef.current(), []);

  /** Typed or chosen values: each field's server value is remembered as the one the draft was typed on. */
  const edit = useCallback((values: Record<string, string>) => {
    for (const id of Object.keys(values)) if (!(id in base.current)) base.current[id] = itemsRef.current.get(id)?.content?.value ?? '';
    setDrafts((d) => ({ ...d, ...values }));
  }, []);
  /** The field's draft goes (an area picked on the page gives it the server's reading). */
  const discard = useCallback((id: string) => setDrafts((d) => Object.fromEntries(Object.entries(d).filter(([k]) => k !== id))), []);
  /** The server's refusals of typed values, shown under their fields until they are typed again. */
  const refuse = useCallback((fieldErrors: Record<string, string>) => setDraftErrors((prev) => ({ ...prev, ...fieldErrors })), [setDraftErrors]);
  const clearRefusal = useCallback((id: string) => setDraftErrors(({ [id]: _gone, ...rest }) => rest), [setDraftErrors]);
  /** Something typed is not saved yet (read at once, also right after a save). */
  const hasUnsaved = () => Object.keys(draftsRef.current).length > 0;

  return { drafts, draftErrors, unsaved, version, edit, discard, refuse, clearRefusal, flush, hasUnsaved, leave, blockedLeave, leaveWithoutUnsavable, stayOnDocument };
}
