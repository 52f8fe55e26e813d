/**
 * Settings → Email-in, "Allowed senders": the text box (one sender a line) read into the list PUT /company/email-in
 * takes, checked with the shared `updateEmailInSendersSchema`, and the schema's (or the server's 422) errors told by
 * the line they are on.
 */
import { updateEmailInSendersSchema } from '../../../../../shared/schemas/company';
import { issuesToFieldErrors, type FieldErrors, type Validator } from '../../../lib/validation';

export const SENDERS_FIELD = 'email_in_senders';
export const SENDERS_SAVED = 'Allowed senders saved.';
export const SENDERS_HINT = 'Only mail from these addresses or domains becomes documents. Leave empty to take mail from any sender.';
export const SENDERS_ANYONE = 'Mail is taken from any sender.';
export const SENDERS_ONLY_FROM = 'Mail is taken only from: ';

export type SendersValues = { [SENDERS_FIELD]: string };
/** What is sent: the senders as typed (the server normalises them the way the schema does). */
export type SendersInput = { email_in_senders: string[] };

export interface ParsedSenders {
  /** The senders as typed, in order (blank lines and separators dropped). */
  entries: string[];
  /** The line (1-based) of the text each entry is on. */
  lines: number[];
}

/** One sender a line; commas, semicolons and spaces also separate senders. */
export function parseSenders(text: string): ParsedSenders {
  const entries: string[] = [];
  const lines: number[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    for (const entry of line.split(/[\s,;]+/)) {
      if (entry === '') continue;
      entries.push(entry);
      lines.push(i + 1);
    }
  });
  return { entries, lines };
}

/** The list as the text box shows it: one sender a line. */
export function sendersText(senders: readonly string[]): string {
  return senders.join('\n');
}

const ENTRY_KEY = new RegExp(`^${SENDERS_FIELD}\\.(\\d+)$`);

/**
 * One message for the text box from errors keyed by path (`email_in_senders.2`, as `issuesToFieldErrors` and
 * ApiError.fieldErrors key them): an entry's error names its line ("Line 2: Enter an email address or a domain";
 * lines with the same message together: "Lines 2, 4: …"), an error of the whole list (too many) is shown as it is.
 */
export function sendersErrorText(errors: FieldErrors, lines: readonly number[]): string | undefined {
  const whole: string[] = [];
  const byMessage = new Map<string, number[]>();
  for (const [key, message] of Object.entries(errors)) {
    const entry = ENTRY_KEY.exec(key);
    if (!entry) {
      if (!whole.includes(message)) whole.push(message);
      continue;
    }
    const index = Number(entry[1]);
    const line = lines[index] ?? index + 1;
    const seen = byMessage.get(message) ?? [];
    if (!seen.includes(line)) seen.push(line);
    byMessage.set(message, seen);
  }
  const parts = [...byMessage].map(([message, at]) => {
    const sorted = [...at].sort((a, b) => a - b);
    return `${sorted.length === 1 ? 'Line' : 'Lines'} ${sorted.join(', ')}: ${message}`;
  });
  const all = [...parts, ...whole];
  return all.length > 0 ? all.join('; ') : undefined;
}

/** The form's validator: the text read into senders and checked with the shared schema; errors name their line. */
export const sendersValidator: Validator<SendersValues, SendersInput> = (values) => {
  const { entries, lines } = parseSenders(values[SENDERS_FIELD]);
  const r = updateEmailInSendersSchema.safeParse({ email_in_senders: entries });
  if (r.success) return { ok: true, data: { email_in_senders: entries }, errors: {} };
  const errors: FieldErrors = {};
  const message = sendersErrorText(issuesToFieldErrors(r.error.issues), lines);
  if (message) errors[SENDERS_FIELD] = message;
  return { ok: false, errors };
};

/** What a Basic member reads: from anyone, or only from the listed senders. */
export function sendersReadOnlyText(senders: readonly string[]): string {
  return senders.length === 0 ? SENDERS_ANYONE : `${SENDERS_ONLY_FROM}${senders.join(', ')}`;
}
