/**
 * Word 97–2003 documents (.doc) with word-extractor (pure JS, reads the OLE compound file and the piece
 * table). Its text keeps paragraphs as lines and turns Word's cell marks into tabs; a row ends with two
 * marks, so a double tab ends a table row, and consecutive tabbed lines are laid out as one table. A cell
 * of several paragraphs is not kept in its column, and an empty cell in the middle of a row ends the row
 * early: where LibreOffice is installed, the PDF's text layer is read instead.
 */
import WordExtractor from 'word-extractor';
import type { Block, FlowPage } from './layout';

/** True when the FIB (first 512-byte sector that starts with Word's magic 0xA5EC) says the text is encrypted. */
export function docEncrypted(bytes: Uint8Array): boolean {
  for (let at = 512; at + 12 <= bytes.length; at += 512) {
    if (bytes[at] !== 0xec || bytes[at + 1] !== 0xa5) continue;
    const nFib = bytes[at + 2]! | (bytes[at + 3]! << 8);
    if (nFib < 0x65 || nFib > 0x200) continue;
    const flags = bytes[at + 10]! | (bytes[at + 11]! << 8);
    return (flags & 0x0100) !== 0;
  }
  return false;
}

/** word-extractor's text as lines: paragraphs, table rows split at the row mark (a double tab). */
export function docTextLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .flatMap((line) => line.split(/\t\t+/))
    .map((l) => l.replace(/\t+$/, ''));
}

/** Lines as blocks: a run of lines with tabs (table rows, or tabbed label–value lines) is one table, so its columns line up. */
export function docBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const line of docTextLines(text)) {
    const last = blocks[blocks.length - 1];
    if (line.includes('\t')) {
      const row = { cells: line.split('\t').map((cell, column) => ({ column, lines: [cell] })) };
      if (last?.kind === 'table') last.rows.push(row);
      else blocks.push({ kind: 'table', rows: [row] });
    } else if (last?.kind === 'text') last.lines.push(line);
    else blocks.push({ kind: 'text', lines: [line] });
  }
  return blocks;
}

export async function readDoc(bytes: Uint8Array): Promise<FlowPage[]> {
  const doc = await new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const part = (text: string): Block[] => (text.trim() ? docBlocks(text) : []);
  return [
    [
      ...part(doc.getHeaders({ includeFooters: false })),
      ...part(doc.getBody()),
      ...part(doc.getTextboxes({ includeHeadersAndFooters: false, includeBody: true })),
      ...part(doc.getFooters()),
    ],
  ];
}
