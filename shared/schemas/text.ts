/**
 * Typed text: control characters (NUL, backspace…) and lone UTF-16 surrogates are refused with a field message
 * (422 from the API, the same message under the form field). They are invisible, come only from pasting or from
 * scripts, and would otherwise reach the exported files (docs/security.md, "Control characters").
 * Letters of any language, emoji, quotes and & < > are plain text.
 */
import { z } from 'zod';
import { isPlainText } from '../text';

export const TEXT_MSG = {
  controlChars: 'Control characters are not allowed',
} as const;

/** Single-line text (names, codes, the VAT account…): no control character at all, tab and line breaks included. */
export const singleLine = () => z.refine<string>((v) => isPlainText(v), TEXT_MSG.controlChars);
/** Multi-line text (document values, messages): tab, line feed and carriage return are kept. */
export const multiLine = () => z.refine<string>((v) => isPlainText(v, true), TEXT_MSG.controlChars);
