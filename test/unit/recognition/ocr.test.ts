import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import { RECEIPT_ROTATED, RECEIPT_SCANNED_PDF } from '../../fixtures/recognition/data';

// OCR is slow (seconds per page on a shared machine): two documents only, with generous timeouts.
const dir = join(import.meta.dirname, '../../fixtures/recognition');
const recogniser = new LocalRecogniser();
afterAll(() => recogniser.close());

describe('local recogniser OCR', () => {
  it('turns a receipt photographed sideways upright and reads it', async () => {
    const bytes = readFileSync(join(dir, RECEIPT_ROTATED.file));
    expect(await recogniser.detectRotation(bytes)).toBe(270);
    const f = mapExpenseToFields(await recogniser.analyzeExpense({ bytes, mime: 'image/jpeg', fileName: RECEIPT_ROTATED.file }));
    expect(f.supplier_name?.value).toBe(RECEIPT_ROTATED.company);
    expect(f.issue_date?.value).toBe(RECEIPT_ROTATED.date);
    expect(f.amount_total?.value).toBe(RECEIPT_ROTATED.total);
    // Boxes are fractions of the page as stored (sideways: the receipt's top is on the right), so the edit screen
    // draws them over the text: the name is a tall box near the right edge, the total to its left.
    const name = f.supplier_name!.box;
    expect(name.left + name.width).toBeGreaterThan(0.8);
    expect(name.height).toBeGreaterThan(name.width);
    expect(f.amount_total!.box.left).toBeLessThan(name.left);
  }, 240_000);

  it('renders a scanned PDF page (no text layer) and reads it', async () => {
    const bytes = readFileSync(join(dir, RECEIPT_SCANNED_PDF.file));
    const result = await recogniser.analyzeExpense({ bytes, mime: 'application/pdf', fileName: RECEIPT_SCANNED_PDF.file });
    const f = mapExpenseToFields(result);
    expect(f.supplier_name?.value).toBe(RECEIPT_SCANNED_PDF.company);
    expect(f.issue_date?.value).toBe(RECEIPT_SCANNED_PDF.date);
    expect(f.amount_total?.value).toBe(RECEIPT_SCANNED_PDF.total);
    expect(result.ExpenseDocuments![0]!.Blocks!.some((b) => b.BlockType === 'WORD' && (b.Confidence ?? 100) < 99.9)).toBe(true);
  }, 240_000);
});
