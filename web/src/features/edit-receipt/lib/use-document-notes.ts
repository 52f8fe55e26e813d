import { useEffect, useRef, useState } from 'react';
import { AUTOSAVE_MS } from '../../../../../shared/constants';
import { setNotesSchema } from '../../../../../shared/schemas/content';
import { useApi } from '../../../app/api-context';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { ApiError, messageOf } from '../../../lib/api-error';
import type { Receipt } from '../../receipts/api/types';
import type { UnsavableValue } from './form';
import { useAfterDocumentWrite } from './use-after-document-write';
import type { TypedElsewhere } from './use-drafts';

/**
 * The document's notes on the edit screen (the export's Notes): stored 2000 ms after the typing stops, when the box
 * is left, and when the screen is left with notes not stored yet (PUT /receipt/{id}/notes, rules.md "Field autosave
 * after 2000 ms of no typing"). Notes typed and not stored yet go with an action (`body`). Notes the server would
 * refuse (too long, control characters: setNotesSchema) say so under the box as typed and are not sent; `refresh` reads the content again
 * (its version moves with the document's).
 */
export function useDocumentNotes({ receiptId, companyId, receipt, refresh }: {
  receiptId: string;
  companyId: string;
  receipt: Pick<Receipt, 'notes'> | undefined;
  refresh(): Promise<unknown>;
}) {
  const api = useApi();
  const info = useInfoPopup();
  const written = useAfterDocumentWrite({ receiptId, refresh });
  // The typed notes of the document they were typed on: not stored yet, or stored and not yet in the document read
  // again (`saved`: shown until the document says what it holds now, so the box never flashes the former notes)
  const [draft, setDraft] = useState<{ receiptId: string; value: string; saved?: boolean } | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const timer = useRef<number | undefined>(undefined);
  const pending = useRef<{ receiptId: string; companyId: string; value: string } | null>(null);
  const own = draft?.receiptId === receiptId ? draft : null;

  // The save on its way: an action waits for it, so that it is made on the version the notes moved the document to
  const inFlight = useRef<Promise<void> | null>(null);
  const save = (target: { receiptId: string; companyId: string; value: string }): Promise<void> => {
    window.clearTimeout(timer.current);
    if (pending.current === target) pending.current = null;
    const run = store(target).finally(() => {
      if (inFlight.current === run) inFlight.current = null;
    });
    inFlight.current = run;
    return run;
  };
  const store = async (target: { receiptId: string; companyId: string; value: string }) => {
    try {
      const answer = await api.put(`/receipt/${encodeURIComponent(target.receiptId)}/notes`, { notes: target.value }, { query: { company_id: target.companyId } });
      setError(undefined);
      setDraft((d) => (d && d.receiptId === target.receiptId && d.value === target.value ? { ...d, saved: true } : d));
      await written(answer, target);
    } catch (e) {
      const field = e instanceof ApiError ? e.fieldErrors.notes : undefined;
      if (field) setError(field);
      else info.show(messageOf(e), 'error');
    }
  };
  const saveRef = useRef(save);
  saveRef.current = save;

  // The document read again after a save holds the notes now (ours, or a colleague's since)
  const documentNotes = receipt?.notes;
  useEffect(() => {
    setDraft((d) => (d?.saved ? null : d));
  }, [documentNotes]);

  // Leaving the document (another one, another screen) stores what was typed on it
  useEffect(
    () => () => {
      const left = pending.current;
      if (left) void saveRef.current(left);
    },
    [receiptId],
  );

  // Notes typed that no save can store (too long, control characters), read when the document is left
  const unsavableNow = useRef<UnsavableValue[]>([]);
  unsavableNow.current = own && !own.saved && error ? [{ id: 'notes', label: 'Notes', message: error }] : [];
  const elsewhere: TypedElsewhere = {
    unsaved: Boolean(own && !own.saved),
    unsavable: () => unsavableNow.current,
    drop() {
      window.clearTimeout(timer.current);
      pending.current = null;
      unsavableNow.current = [];
      setDraft(null);
      setError(undefined);
    },
  };

  return {
    /** For the drafts' leave (lib/use-drafts.ts `also`): notes typed that are not stored, and those no save can store. */
    elsewhere,
    /** The notes shown: the typed ones not stored yet, else the document's. */
    value: own?.value ?? receipt?.notes ?? '',
    error,
    type(value: string) {
      setDraft({ receiptId, value });
      window.clearTimeout(timer.current);
      // The server's rules, checked as typed: notes it would refuse stay typed, with the message, and are not sent
      const checked = setNotesSchema.safeParse({ notes: value });
      setError(checked.success ? undefined : checked.error.issues[0]?.message);
      pending.current = checked.success ? { receiptId, companyId, value } : null;
      if (!checked.success) return;
      timer.current = window.setTimeout(() => {
        if (pending.current) void saveRef.current(pending.current);
      }, AUTOSAVE_MS);
    },
    /** The box is left: what was typed is stored now. */
    leave() {
      if (pending.current) void save(pending.current);
    },
    /**
     * Before an action: stores what was typed and waits for a save on its way (the box left by the click on the
     * action's button starts one), so the action is made on the document's version after it.
     */
    async flush() {
      if (pending.current) await save(pending.current);
      else if (inFlight.current) await inFlight.current;
    },
    /** What an action's body carries of notes not stored yet. */
    body: own && !own.saved ? { notes: own.value } : {},
    /** An action carried `body`: the notes are the document's now. */
    carried() {
      window.clearTimeout(timer.current);
      pending.current = null;
      setDraft(null);
    },
  };
}
