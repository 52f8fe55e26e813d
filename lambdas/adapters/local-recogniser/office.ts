/**
 * Office documents for both recognisers (local and Textract: Textract cannot read office files, so no
 * Textract call is made for them). Where LibreOffice turned the file into a PDF (`officePdf`, made by the
 * processing job) the words come from that PDF's text layer, with the positions they have on the page
 * images; otherwise from the office text reader's synthetic layout. Either way the shared extraction reads
 * them. A file that cannot be read is an UnsupportedDocumentError with the reason in its detail.
 */
import { toAnalyzeExpenseResult } from '../../core/recognition/expense';
import { extractDocument } from '../../core/recognition/extract';
import { readOfficeDocument } from '../../core/recognition/office';
import type { AnalyzeExpenseResult, OcrDocument, OcrPage, RecogniserInput } from '../../core/recognition/types';
import { openPdf, pageTextWords } from './pdf';

/** A PDF rendition with fewer text-layer characters than this is not used (the file's own text is read). */
const MIN_PDF_TEXT_CHARS = 20;

/** The words of a PDF's text layer, or undefined when it has (almost) none or cannot be opened. */
export async function pdfTextDocument(pdfBytes: Uint8Array): Promise<OcrDocument | undefined> {
  let pdf: Awaited<ReturnType<typeof openPdf>>;
  try {
    pdf = await openPdf(pdfBytes);
  } catch {
    return undefined;
  }
  try {
    const pages: OcrPage[] = [];
    let chars = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const t = await pageTextWords(pdf, n);
      pages.push(t.page);
      chars += t.chars;
    }
    return chars >= MIN_PDF_TEXT_CHARS ? { source: 'pdf-text', pages } : undefined;
  } catch {
    return undefined;
  } finally {
    await pdf.destroy();
  }
}

/** The words of an office document: the PDF rendition's text layer when there is one, else the file's text. */
export async function officeWords(input: RecogniserInput): Promise<OcrDocument> {
  const fromPdf = input.officePdf ? await pdfTextDocument(input.officePdf) : undefined;
  return fromPdf ?? (await readOfficeDocument(input.bytes, input.fileName ?? ''));
}

/** Office document → AnalyzeExpense result through the shared extraction. */
export async function recogniseOffice(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
  const doc = await officeWords(input);
  return toAnalyzeExpenseResult(doc, extractDocument(doc));
}
