import { ApiError } from '../../../lib/api-error';

/**
 * The edit screen's autosave met a newer version (409): which of the values it sent were lost to someone else's
 * change, and which drafts are left to save again on the fresh version.
 *
 * A save whose answer never came (no network, the gateway's 5xx) may have been applied all the same: its retry then
 * meets our own save, not a colleague's. So a field whose fresh value is one this tab sent (in this save, or in one
 * whose answer was lost) is ours: not lost, no message; its draft is kept when it differs (typed on meanwhile) and
 * saved again. Only a field whose fresh value is neither the value it was typed on nor one we sent was changed by
 * someone else: their value is shown and our draft of it dropped.
 *
 * A document read again that takes no edits any more (`readOnly`: a colleague confirmed, archived or restarted it
 * while this tab typed) takes none of the drafts: saving them again would be refused again, for ever. Every draft is
 * dropped (the screen shows the document's values, read-only), and the fields whose typed value the document does not
 * hold are listed as not saved (`notSavedMessage`).
 */
export interface ConflictInput {
  /** The values this save sent. */
  sent: Readonly<Record<string, string>>;
  /** Per field, the values of earlier saves whose answer never came. */
  unanswered: Readonly<Record<string, readonly string[]>>;
  /** Per field, the server's value the draft was typed on. */
  base: Readonly<Record<string, string>>;
  /** The field's value in the document as read again. */
  fresh: (id: string) => string;
  /** The document as read again takes no edits (archived, or being processed again). */
  readOnly?: boolean;
  /** The drafts the tab holds now (typed on while the save went too): with `readOnly`, each is dropped. */
  drafts?: Readonly<Record<string, string>>;
}

export interface ConflictOutcome {
  /** Fields changed by someone else: their value is shown, our draft dropped. */
  lost: string[];
  /** Fields that hold a value we sent (our own save landed): the fresh value, the new base of a draft kept. */
  landed: Record<string, string>;
  /** Whether the draft `value` of field `id` stays, to be saved again on the fresh version. */
  keepDraft: (id: string, value: string) => boolean;
  /**
   * The document takes no edits any more: no draft stays, nothing is saved again; `lost` lists every field whose
   * typed value the document does not hold.
   */
  closed: boolean;
}

export function settleConflict({ sent, unanswered, base, fresh, readOnly = false, drafts = {} }: ConflictInput): ConflictOutcome {
  if (readOnly) {
    // Every value typed (sent, or typed on since) that the document does not hold was not saved.
    const typed = { ...sent, ...drafts };
    const lost = Object.keys(typed).filter((id) => fresh(id) !== typed[id]);
    return { lost, landed: {}, keepDraft: () => false, closed: true };
  }
  const lost: string[] = [];
  const landed: Record<string, string> = {};
  for (const id of new Set([...Object.keys(sent), ...Object.keys(unanswered)])) {
    const now = fresh(id);
    if (now === (base[id] ?? '')) continue;
    if (now === sent[id] || (unanswered[id] ?? []).includes(now)) landed[id] = now;
    else if (id in sent) lost.push(id);
  }
  return {
    lost,
    landed,
    keepDraft: (id, value) => !lost.includes(id) && !(id in landed && landed[id] === value),
    closed: false,
  };
}

/** Why a document read again after a refused save takes no edits: a colleague moved it to archive, or it is being processed. */
export type ClosedReason = 'archive' | 'busy';

/**
 * What the edit screen says when a colleague's action made the document read-only under typed values (`labels`:
 * the fields not saved, as the form names them; none: the typed values were all in the document already).
 */
export function notSavedMessage(reason: ClosedReason, labels: readonly string[]): string {
  const what = reason === 'archive' ? 'The document was moved to archive by someone else' : 'The document is being processed again after someone else’s action';
  if (labels.length === 0) return `${what}, so it can no longer be edited.`;
  const names = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return `${what}, so your ${labels.length === 1 ? 'change' : 'changes'} to ${names} ${labels.length === 1 ? 'was' : 'were'} not saved.`;
}

/** The save met a newer version of the document (409). */
export const isConflict = (e: unknown): boolean => e instanceof ApiError && e.status === 409;
