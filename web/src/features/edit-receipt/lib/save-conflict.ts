/**
 * The edit screen's autosave met a newer version (409): which of the values it sent were lost to someone else's
 * change, and which drafts are left to save again on the fresh version.
 *
 * A save whose answer never came (no network, the gateway's 5xx) may have been applied all the same: its retry then
 * meets our own save, not a colleague's. So a field whose fresh value is one this tab sent (in this save, or in one
 * whose answer was lost) is ours: not lost, no message; its draft is kept when it differs (typed on meanwhile) and
 * saved again. Only a field whose fresh value is neither the value it was typed on nor one we sent was changed by
 * someone else: their value is shown and our draft of it dropped.
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
}

export interface ConflictOutcome {
  /** Fields changed by someone else: their value is shown, our draft dropped. */
  lost: string[];
  /** Fields that hold a value we sent (our own save landed): the fresh value, the new base of a draft kept. */
  landed: Record<string, string>;
  /** Whether the draft `value` of field `id` stays, to be saved again on the fresh version. */
  keepDraft: (id: string, value: string) => boolean;
}

export function settleConflict({ sent, unanswered, base, fresh }: ConflictInput): ConflictOutcome {
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
  };
}
