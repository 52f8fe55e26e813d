import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A one-page A4 PDF whose text layer holds the given lines (read exactly by the local recogniser). */
export async function textPdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 14, font }));
  return doc.save();
}
