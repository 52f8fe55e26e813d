/**
 * PDF export: an A4 landscape table (readable column titles, one row per document) with pdf-lib. With
 * font bytes (a TrueType font with Lithuanian letters, e.g. Liberation Sans) the text is kept as is; without
 * them Helvetica is used and letters it cannot encode are written without their accents.
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { exportTable, type ExportColumn, type ExportDocument } from './fields';

export interface PdfFonts {
  regular?: Uint8Array;
  bold?: Uint8Array;
}

const PAGE = { width: 841.89, height: 595.28, margin: 36 };
const ROW_PAD = 4;
const FONT_SIZE = 8.5;
const HEADER_SIZE = 9;

/** Helvetica (WinAnsi) cannot draw ė, ą, č, ...: fold what it cannot encode. */
function winAnsiSafe(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      const folded = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      try {
        font.encodeText(folded);
        out += folded;
      } catch {
        out += '?';
      }
    }
  }
  return out;
}

function wrap(font: PDFFont, text: string, size: number, width: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    const candidate = line ? `${line} ${w}` : w;
    if (font.widthOfTextAtSize(candidate, size) <= width) line = candidate;
    else {
      if (line) lines.push(line);
      line = w;
      // A single word wider than the cell is cut.
      while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    let last = kept[maxLines - 1]!;
    while (last.length > 1 && font.widthOfTextAtSize(`${last}…`, size) > width) last = last.slice(0, -1);
    kept[maxLines - 1] = `${last}…`;
    return kept;
  }
  return lines.length ? lines : [''];
}

/** Column widths proportional to their longest text, within the page width. */
function columnWidths(font: PDFFont, columns: ExportColumn[], table: string[][], total: number): number[] {
  const wants = columns.map((c, i) => {
    const longest = Math.max(font.widthOfTextAtSize(c.title, HEADER_SIZE), ...table.map((r) => font.widthOfTextAtSize(r[i] ?? '', FONT_SIZE)));
    return Math.min(Math.max(longest + ROW_PAD * 2, 40), 220);
  });
  const sum = wants.reduce((a, b) => a + b, 0);
  return wants.map((w) => (w / sum) * total);
}

export async function buildPdf(docs: ExportDocument[], columns: ExportColumn[], opts: { title: string; generatedAt: Date; fonts?: PdfFonts }): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(opts.title);
  pdf.setProducer('Receipts Capture');
  pdf.setCreationDate(opts.generatedAt);
  let regular: PDFFont;
  let bold: PDFFont;
  if (opts.fonts?.regular) {
    pdf.registerFontkit(fontkit);
    regular = await pdf.embedFont(opts.fonts.regular, { subset: true });
    bold = opts.fonts.bold ? await pdf.embedFont(opts.fonts.bold, { subset: true }) : regular;
  } else {
    regular = await pdf.embedFont(StandardFonts.Helvetica);
    bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  }
  const safe = (font: PDFFont, s: string) => (opts.fonts?.regular ? s : winAnsiSafe(font, s));
  const table = exportTable(docs, columns).map((r) => r.map((v) => safe(regular, v)));
  const titles = columns.map((c) => safe(bold, c.title));
  const usable = PAGE.width - PAGE.margin * 2;
  const widths = columnWidths(regular, columns.map((c, i) => ({ ...c, title: titles[i]! })), table, usable);
  const lineHeight = FONT_SIZE * 1.25;
  const grey = rgb(0.42, 0.45, 0.5);
  const border = rgb(0.82, 0.84, 0.87);

  let page: PDFPage;
  let y = 0;
  let pageNo = 0;
  const drawHeader = () => {
    page = pdf.addPage([PAGE.width, PAGE.height]);
    pageNo += 1;
    y = PAGE.height - PAGE.margin;
    if (pageNo === 1) {
      page.drawText(safe(bold, opts.title), { x: PAGE.margin, y: y - 14, size: 15, font: bold, color: rgb(0.06, 0.12, 0.23) });
      page.drawText(safe(regular, `${docs.length} document${docs.length === 1 ? '' : 's'} · generated ${opts.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`), {
        x: PAGE.margin,
        y: y - 30,
        size: 8.5,
        font: regular,
        color: grey,
      });
      y -= 46;
    }
    const headerLines = titles.map((t, i) => wrap(bold, t, HEADER_SIZE, widths[i]! - ROW_PAD * 2, 2));
    const h = Math.max(...headerLines.map((l) => l.length)) * HEADER_SIZE * 1.25 + ROW_PAD * 2;
    page.drawRectangle({ x: PAGE.margin, y: y - h, width: usable, height: h, color: rgb(0.93, 0.95, 0.98) });
    let x = PAGE.margin;
    headerLines.forEach((lines, i) => {
      lines.forEach((l, li) => page.drawText(l, { x: x + ROW_PAD, y: y - ROW_PAD - HEADER_SIZE - li * HEADER_SIZE * 1.25 + 1, size: HEADER_SIZE, font: bold, color: rgb(0.1, 0.16, 0.3) }));
      x += widths[i]!;
    });
    y -= h;
  };
  drawHeader();
  for (const row of table) {
    const cells = row.map((v, i) => wrap(regular, v, FONT_SIZE, widths[i]! - ROW_PAD * 2, 4));
    const h = Math.max(...cells.map((c) => c.length)) * lineHeight + ROW_PAD * 2;
    if (y - h < PAGE.margin + 14) drawHeader();
    let x = PAGE.margin;
    cells.forEach((lines, i) => {
      lines.forEach((l, li) => page.drawText(l, { x: x + ROW_PAD, y: y - ROW_PAD - FONT_SIZE - li * lineHeight + 1, size: FONT_SIZE, font: regular, color: rgb(0.07, 0.09, 0.15) }));
      x += widths[i]!;
    });
    y -= h;
    page!.drawLine({ start: { x: PAGE.margin, y }, end: { x: PAGE.width - PAGE.margin, y }, thickness: 0.5, color: border });
  }
  if (!table.length) page!.drawText('No documents', { x: PAGE.margin + ROW_PAD, y: y - 16, size: FONT_SIZE, font: regular, color: grey });
  const pages = pdf.getPages();
  pages.forEach((p, i) =>
    p.drawText(`${i + 1} / ${pages.length}`, { x: PAGE.width - PAGE.margin - 30, y: PAGE.margin - 16, size: 7.5, font: regular, color: grey }),
  );
  return pdf.save();
}
