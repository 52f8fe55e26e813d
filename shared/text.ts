/**
 * Characters that text may not carry (docs/security.md, "Control characters").
 *
 * XML 1.0 allows only tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD and U+10000–U+10FFFF
 * (production [2] Char): a NUL, a backspace or a lone UTF-16 surrogate makes a file that no XML parser reads.
 * Typed text is refused with them (shared/schemas/text.ts); every file the product writes drops them, since
 * values also come from recognition and master-data imports, which no form checks.
 *
 * The patterns use the `u` flag, so a valid surrogate pair (an emoji) is one code point and never matches; only
 * a lone half of one does.
 */

/** Characters XML 1.0 forbids: C0 controls but tab, LF and CR; lone surrogates; U+FFFE and U+FFFF. */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;
/** Typed single-line text: every C0 control (tab, LF and CR too) and lone surrogates. */
const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001F\uD800-\uDFFF]/u;
/** Typed multi-line text: C0 controls but tab, LF and CR; lone surrogates. */
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/u;

/**
 * The text without the characters XML 1.0 forbids. Used by every file the product writes (XML, i.SAF, Rivile
 * EIP, CSV), on values or on the whole document: no well-formed markup contains them, so nothing else changes.
 */
export function stripForbiddenChars(text: string): string {
  return text.replace(XML_FORBIDDEN, '');
}

/** True when the text has a character that XML 1.0 forbids. */
export function hasForbiddenChars(text: string): boolean {
  return text.search(XML_FORBIDDEN) !== -1;
}

/** True when typed text is free of control characters and lone surrogates (multi-line text may keep tab, LF, CR). */
export function isPlainText(text: string, multiline = false): boolean {
  return !(multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(text);
}
