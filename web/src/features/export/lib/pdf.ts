import type { ExportTable } from './table';

export interface PdfFont {
  /** The TrueType file's bytes. */
  regular: ArrayBuffer;
  bold?: ArrayBuffer;
}

const FONT_NAME = 'ExportSans';

function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * A landscape A4 PDF with a title line and the export table (jsPDF + jspdf-autotable, loaded on demand).
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
  autoTable(doc, {
    head: [table.headers],
    body: table.rows,
    startY: 72,
    margin: { left: 40, right: 40 },
    styles: { font, fontSize: 8.5, cellPadding: 4, overflow: 'linebreak' },
    headStyles: { font, fontStyle: 'bold', fillColor: [15, 30, 58], textColor: 255 },
    alternateRowStyles: { fillColor: [247, 249, 252] },
  });
  return doc.output('blob');
}
