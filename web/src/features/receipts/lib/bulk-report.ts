import { isResultUnknown, messageOf } from '../../../lib/api-error';

/** What a bulk action of the list came to: how many documents were done, and each one that was not, with why. */
export interface BulkOutcome {
  done: number;
  failed: ReadonlyArray<{ error: unknown }>;
}

export interface BulkTexts {
  /** Said when every document was done ('21 documents moved to archive'). */
  done: string;
  /** The action as a past participle, for the counts ('moved to archive', 'unarchived', 'deleted'). */
  verb: string;
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * The pop-up after a bulk action of the list: the action's text when all was done; otherwise how many of how many
 * were done and how many not, with the first refusal's reason ('11 of 21 documents unarchived; 10 could not be: The
 * document was changed by someone else.'). Documents of a call whose answer was lost (the gateway's 502/503/504) are
 * neither done nor refused: they are counted apart, and the list, read again after every bulk action, shows which.
 */
export function bulkReport(outcome: BulkOutcome, texts: BulkTexts): { text: string; tone: 'success' | 'error' } | null {
  const { done, failed } = outcome;
  if (failed.length === 0) return done > 0 ? { text: texts.done, tone: 'success' } : null;
  const total = done + failed.length;
  const unknown = failed.filter((f) => isResultUnknown(f.error));
  const refused = failed.filter((f) => !isResultUnknown(f.error));
  const reason = refused.length ? sentence(messageOf(refused[0]!.error)) : '';
  if (done === 0 && unknown.length === 0) {
    return { text: total === 1 ? reason : `None of the ${total} documents could be ${texts.verb}: ${reason}`, tone: 'error' };
  }
  if (done === 0 && refused.length === 0) return { text: messageOf(unknown[0]!.error), tone: 'error' };
  const parts: string[] = [];
  if (done > 0) parts.push(`${done} of ${total} documents ${texts.verb}${refused.length ? `; ${refused.length} could not be: ${reason}` : '.'}`);
  else parts.push(`${refused.length} of ${total} documents could not be ${texts.verb}: ${reason}`);
  if (unknown.length) parts.push(`For ${unknown.length} no answer came, so it is not known whether they were: the list is read again.`);
  return { text: parts.join(' '), tone: 'error' };
}
