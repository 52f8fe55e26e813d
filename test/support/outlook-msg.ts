/**
 * Outlook items (`.msg`) for tests, written as Outlook lays them out (MS-OXMSG): a Compound File whose root holds the
 * property header and the string properties of the message (subject, sender, message class), one storage per
 * attachment (`__attach_version1.0_#0000000N`) with its long file name and data, or with an embedded item's storage
 * (`__substg1.0_3701000D`) for an item attached to the item.
 */
import * as CFB from 'cfb';

export interface OutlookFile {
  name: string;
  bytes: Uint8Array;
  /** Shown in the body (PR_ATTACHMENT_HIDDEN): a signature logo. */
  hidden?: boolean;
}

export interface OutlookItem {
  subject: string;
  from?: string;
  files?: OutlookFile[];
  /** Items attached to this one (Outlook's "attach item"), each with its own files. */
  items?: OutlookItem[];
}

const unicode = (text: string) => Buffer.from(`${text}\0`, 'utf16le');

/** The fixed part of a property stream (MS-OXMSG 2.4.1): 32 bytes at the root, 24 in an embedded item, 8 in an attachment. */
function propertyHeader(size: 32 | 24 | 8, attachments: number, properties: Buffer[] = []): Buffer {
  const header = Buffer.alloc(size);
  if (size !== 8) {
    header.writeUInt32LE(attachments, 12); // next attachment id
    header.writeUInt32LE(attachments, 20); // attachment count
  }
  return Buffer.concat([header, ...properties]);
}

/** A fixed-size property entry: tag, flags, 8 bytes of value (MS-OXMSG 2.4.2.1). */
function booleanProperty(tag: number, value: boolean): Buffer {
  const entry = Buffer.alloc(16);
  entry.writeUInt32LE(tag, 0);
  entry.writeUInt32LE(0x06, 4); // readable, writable
  entry.writeUInt16LE(value ? 1 : 0, 8);
  return entry;
}

const PR_ATTACHMENT_HIDDEN = 0x7ffe000b;

function addItem(cfb: CFB.CFB$Container, at: string, item: OutlookItem, root: boolean): void {
  const files = item.files ?? [];
  const items = item.items ?? [];
  CFB.utils.cfb_add(cfb, `${at}/__properties_version1.0`, propertyHeader(root ? 32 : 24, files.length + items.length));
  CFB.utils.cfb_add(cfb, `${at}/__substg1.0_001A001F`, unicode('IPM.Note'));
  CFB.utils.cfb_add(cfb, `${at}/__substg1.0_0037001F`, unicode(item.subject));
  if (item.from) CFB.utils.cfb_add(cfb, `${at}/__substg1.0_0C1F001F`, unicode(item.from));
  files.forEach((file, i) => {
    const attachment = `${at}/__attach_version1.0_#${i.toString(16).toUpperCase().padStart(8, '0')}`;
    CFB.utils.cfb_add(cfb, `${attachment}/__properties_version1.0`, propertyHeader(8, 0, file.hidden ? [booleanProperty(PR_ATTACHMENT_HIDDEN, true)] : []));
    CFB.utils.cfb_add(cfb, `${attachment}/__substg1.0_3707001F`, unicode(file.name));
    CFB.utils.cfb_add(cfb, `${attachment}/__substg1.0_37010102`, Buffer.from(file.bytes));
  });
  items.forEach((inner, j) => {
    const attachment = `${at}/__attach_version1.0_#${(files.length + j).toString(16).toUpperCase().padStart(8, '0')}`;
    CFB.utils.cfb_add(cfb, `${attachment}/__properties_version1.0`, propertyHeader(8, 0));
    CFB.utils.cfb_add(cfb, `${attachment}/__substg1.0_3001001F`, unicode(inner.subject));
    addItem(cfb, `${attachment}/__substg1.0_3701000D`, inner, false);
  });
}

/** The `.msg` file of an item. */
export function outlookMsg(item: OutlookItem): Uint8Array {
  const cfb = CFB.utils.cfb_new();
  addItem(cfb, '', item, true);
  // cfb_new adds a placeholder stream of its own; Outlook's files have none.
  CFB.utils.cfb_del(cfb, '/\u0001Sh33tJ5');
  return new Uint8Array(CFB.write(cfb, { type: 'buffer' }) as Buffer);
}
