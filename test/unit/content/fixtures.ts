import type { OcrBox, PageBoxes } from '../../../lambdas/core/content/build';

/** A word box at (left, top) in fractions, about 1 % of the page high. */
export function word(id: string, text: string, left: number, top: number, width = 0.06, height = 0.012, confidence = 95): OcrBox {
  return { id, text, left, top, width, height, confidence };
}

/** A page of a small invoice with a three-line item table between y = 0.40 and 0.52. */
export function invoicePage(): PageBoxes {
  const words: OcrBox[] = [
    word('w1', 'UAB', 0.05, 0.05),
    word('w2', 'Tiekėjas', 0.12, 0.05),
    word('w3', 'Total', 0.6, 0.8),
    word('w4', '121,00', 0.75, 0.8),
    word('w5', '2025-03-04', 0.75, 0.1, 0.1),
    // table header (y 0.38) and rows (y 0.41, 0.45, 0.49)
    word('h1', 'Description', 0.05, 0.38, 0.12),
    word('h2', 'Qty', 0.5, 0.38),
    word('h3', 'Price', 0.75, 0.38),
    word('r1a', 'Paper', 0.05, 0.41),
    word('r1b', 'A4', 0.12, 0.41, 0.03),
    word('r1c', '2', 0.5, 0.41, 0.02),
    word('r1d', '10,50', 0.75, 0.41),
    word('r2a', 'Pens', 0.05, 0.45),
    word('r2c', '10', 0.5, 0.45, 0.02),
    word('r2d', '1.20', 0.75, 0.45),
    word('r3a', 'Stapler', 0.05, 0.49),
    word('r3c', '1', 0.5, 0.49, 0.02),
    word('r3d', '88.00', 0.75, 0.49),
  ];
  return { page: 1, file: 'invoice.pdf', words, lines: [] };
}
