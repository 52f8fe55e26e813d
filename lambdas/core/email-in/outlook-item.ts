/**
 * Outlook items (`.msg`, the Compound File format of Outlook's MAPI properties): what desktop Outlook attaches when a
 * mail is forwarded "as attachment" or dragged into a new mail. Read with @kenjiuno/msgreader (docs/decisions.md
 * "Email-in"); the email-in job takes the item's attachments as it takes those of a forwarded `.eml`.
 */
import MsgReaderModule from '@kenjiuno/msgreader';

// A CommonJS package with `exports.default`: bundlers and vitest give that class as the default import, Node's own
// ESM loader (local mode under tsx) gives the whole `exports` object.
const MsgReader = (MsgReaderModule as unknown as { default?: typeof MsgReaderModule }).default ?? MsgReaderModule;

/** The Compound File signature (MS-CFB 2.2): `.msg`, but also old Word and Excel files. */
const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** One attachment of an Outlook item: a file, or an item embedded in it (its bytes are then a `.msg` of its own). */
export interface OutlookPart {
  filename: string | null;
  bytes: Uint8Array;
  /** An item attached to the item (Outlook's "attach item"): opened as a forwarded message. */
  embedded: boolean;
  /** Hidden, or referred to by the body's HTML (a signature logo), as a MIME part with disposition inline. */
  inline: boolean;
  /** It has a Content-ID (PidTagAttachContentId): the body's HTML shows it by `cid:`, as a MIME part shown in the body. */
  shownInBody: boolean;
}

function isCompoundFile(bytes: Uint8Array): boolean {
  return bytes.length >= CFB_SIGNATURE.length && CFB_SIGNATURE.every((b, i) => bytes[i] === b);
}

function readerOf(bytes: Uint8Array): InstanceType<typeof MsgReader> {
  return new MsgReader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/**
 * Whether the bytes are an Outlook item: a Compound File with a MAPI message class (`IPM.Note`, `IPM.Appointment`…),
 * or any Compound File named `.msg` (a damaged item still says it is one, and is then refused as unreadable).
 * A Word `.doc` or Excel `.xls` is a Compound File without a message class.
 */
export function isOutlookItem(bytes: Uint8Array, name: string | null): boolean {
  if (!isCompoundFile(bytes)) return false;
  if (/\.msg$/i.test(name ?? '')) return true;
  try {
    return /^IPM\./i.test(readerOf(bytes).getFileData().messageClass ?? '');
  } catch {
    return false;
  }
}

/** The item's attachments, in order; throws when the item cannot be read. */
export function outlookItemParts(bytes: Uint8Array): OutlookPart[] {
  const reader = readerOf(bytes);
  const data = reader.getFileData();
  if (data.error) throw new Error(data.error);
  return (data.attachments ?? []).map((attachment) => {
    const { fileName, content } = reader.getAttachment(attachment);
    const embedded = attachment.innerMsgContent === true;
    return {
      filename: fileName || null,
      bytes: content,
      embedded,
      inline: attachment.attachmentHidden === true || Boolean(attachment.pidContentId),
      shownInBody: Boolean(attachment.pidContentId),
    };
  });
}
