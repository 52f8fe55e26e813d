/**
 * Text an SQL source stores in no declared encoding (a PostgreSQL database created as SQL_ASCII keeps whatever bytes
 * its programs wrote), read as bytes and decoded here: bytes that are valid UTF-8 are UTF-8; anything else is taken
 * as Windows-1257, the Baltic code page that Lithuanian accounting programs of the Windows era wrote (their Latin-1
 * neighbour has no Š, Ž, Ė, Ų, Ū, Į, Č). Windows-1257 leaves only two bytes undefined (0xA1, 0xA5): a value
 * holding one of them cannot be read, and its row is rejected with a reason instead.
 */

/** The code page bytes that are not UTF-8 are read in (named in the run's rejected rows and in docs/decisions.md). */
export const LEGACY_TEXT_ENCODING = 'Windows-1257';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const windows1257 = new TextDecoder('windows-1257', { fatal: true });

/** The text of stored bytes: UTF-8 when they are valid UTF-8, else Windows-1257; null when neither reads them. */
export function decodeSourceBytes(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    try {
      return windows1257.decode(bytes);
    } catch {
      return null;
    }
  }
}

/** Whether the bytes are valid UTF-8. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
