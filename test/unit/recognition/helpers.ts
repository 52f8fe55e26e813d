import { documentRows, type Row } from '../../../lambdas/core/recognition/extract/rows';
import type { OcrDocument, OcrWord } from '../../../lambdas/core/recognition/types';

/**
 * A page from text lines typed like a fixed-width printout: each character is 1/80 of the page wide,
 * each line 1/60 high; runs of spaces become gaps (cells).
 */
export function textDocument(lines: string[], page = 1): OcrDocument {
  const cw = 1 / 80;
  const lh = 1 / 60;
  return {
    source: 'ocr',
    pages: [
      {
        page,
        width: 800,
        height: 1200,
        lines: lines.map((line, i) => {
          const words: OcrWord[] = [];
          for (const m of line.matchAll(/\S+/g)) {
            words.push({ text: m[0], box: { left: m.index * cw, top: i * lh * 1.5, width: m[0].length * cw, height: lh }, confidence: 90, page });
          }
          return { text: line.trim(), words, box: { left: 0, top: i * lh * 1.5, width: 1, height: lh }, confidence: 90, page };
        }),
      },
    ],
  };
}

export function textRows(lines: string[]): Row[] {
  return documentRows(textDocument(lines));
}
