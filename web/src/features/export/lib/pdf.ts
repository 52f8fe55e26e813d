import type { ExportTable } from './table';

export interface PdfFont {
  /** The TrueType file's bytes. */
  regular: ArrayBuffer;
  bold?: ArrayBuffer;
}

const FONT_NAME = 'ExportSans';
/** The narrowest a column gets, in points: about ten characters at 8.5 pt; a landscape A4 page holds 15 such. */
export const PDF_MIN_COLUMN_WIDTH = 50;
const PDF_MARGIN = 40;

function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * A landscape A4 PDF with a title line and the export table (jsPDF + jspdf-autotable, loaded on demand). A table of
 * more columns than a page holds goes on in the pages after it (its columns that do not fit, for all its rows).
 * With `font` the text is set in that TrueType font (the standard PDF fonts have no Lithuanian letters).
 */
export async function buildPdf(table: ExportTable, options: { title: string; subtitle?: string; font?: PdfFont }): Promise<Blob> {
  const [{ jsPDF }, { autoTable }] = await Promise.all([import('jspdf'), import('jspdf-autotable')]);
  const doc = new jsPDF({ orientation: 'landscape', unit: 'pt', format: 'a4' });
  let font = 'helvetica';
  if (options.font) {
    doc.addFileToVFS(`${FONT_NAME}-Regular.ttf`, toBase64(options.font.regular));
    doc.addFont(`${FONT_NAME}-Regular.ttf`, FONT_NAME, 'normal');
    doc.addFileToVFS(`${FONT_NAME}-Bold.ttf`, toBase64(options.font.bold ?? options.font.regular));
    doc.addFont(`${FONT_NAME}-Bold.ttf`, FONT_NAME, 'bold');
    font = FONT_NAME;
  }
  doc.setFont(font, 'bold');
  doc.setFontSize(15);
  doc.text(options.title, 40, 44);
  if (options.subtitle) {
    doc.setFont(font, 'normal');
    doc.setFontSize(9);
    doc.setTextColor(100);
    doc.text(options.subtitle, 40, 60);
  }
  // Every column keeps room for a word (26 columns on one page squeezed a name to a letter a line, a row half a page
  // tall). Up to what a page holds they share it as their texts need; more go on over the next pages, a page's worth
  // of equal columns at a time, all the rows of each set before the next.
  const usable = doc.internal.pageSize.getWidth() - 2 * PDF_MARGIN;
  const perPage = Math.max(1, Math.floor(usable / PDF_MIN_COLUMN_WIDTH));
  const wide = table.headers.length > perPage;
  autoTable(doc, {
    head: [table.headers],
    body: table.rows,
    startY: 72,
    margin: { left: PDF_MARGIN, right: PDF_MARGIN },
    styles: { font, fontSize: 8.5, cellPadding: 4, overflow: 'linebreak', minCellWidth: PDF_MIN_COLUMN_WIDTH, ...(wide ? { cellWidth: usable / perPage } : {}) },
    ...(wide ? { horizontalPageBreak: true, horizontalPageBreakBehaviour: 'afterAllRows' as const } : {}),
    headStyles: { font, fontStyle: 'bold', fillColor: [15, 30, 58], textColor: 255 },
    alternateRowStyles: { fillColor: [247, 249, 252] },
  });
  return doc.output('blob');
}
