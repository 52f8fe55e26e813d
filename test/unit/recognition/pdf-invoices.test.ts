import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import type { ExtractedFields } from '../../../lambdas/core/recognition/types';
import { expectedHeader, INVOICE_EN, INVOICE_LT, lineNet, vatBreakdown } from '../../fixtures/recognition/data';

const dir = join(import.meta.dirname, '../../fixtures/recognition');
const recogniser = new LocalRecogniser();
afterAll(() => recogniser.close());

async function read(file: string): Promise<ExtractedFields> {
  const bytes = readFileSync(join(dir, file));
  return mapExpenseToFields(await recogniser.analyzeExpense({ bytes, mime: 'application/pdf', fileName: file }));
}


describe.each([INVOICE_EN, INVOICE_LT])('born-digital PDF $file', { timeout: 60_000 }, (inv) => {
  it('reads every header field exactly from the text layer', async () => {
    const fields = await read(inv.file);
    const got = Object.fromEntries(Object.keys(expectedHeader(inv)).map((k) => [k, fields[k as keyof ExtractedFields] && (fields[k as keyof ExtractedFields] as { value: string }).value]));
    expect(got).toEqual(expectedHeader(inv));
  });

  it('gives every value its page, a box inside the page and a confidence', async () => {
    const fields = await read(inv.file);
    for (const [k, v] of Object.entries(fields)) {
      if (Array.isArray(v)) continue;
      expect(v.page, k).toBe(1);
      expect(v.box.left, k).toBeGreaterThanOrEqual(0);
      expect(v.box.top, k).toBeGreaterThan(0);
      expect(v.box.left + v.box.width, k).toBeLessThanOrEqual(1);
      expect(v.box.width, k).toBeGreaterThan(0);
      expect(v.confidence, k).toBeGreaterThan(50);
    }
    // The total sits lower on the page than the invoice number.
    expect(fields.amount_total!.box.top).toBeGreaterThan(fields.document_id!.box.top);
  });

  it('reads the VAT lines per rate', async () => {
    const fields = await read(inv.file);
    const got = fields.vat_lines.map((l) => ({ rate: l.vat_rate?.value, net: l.amount_net?.value, vat: l.amount_vat?.value, gross: l.amount_gross?.value }));
    expect(got).toEqual(vatBreakdown(inv).map((b) => ({ rate: String(b.rate), net: b.net.toFixed(2), vat: b.vat.toFixed(2), gross: b.gross.toFixed(2) })));
  });

  it('reads the line items', async () => {
    const fields = await read(inv.file);
    const got = fields.line_items.map((li) => ({
      no: li.item_number?.value,
      code: li.product_code?.value,
      description: li.description?.value,
      unit: li.unit_of_measurement?.value,
      quantity: li.quantity?.value,
      price: li.unit_price_without_vat?.value,
      rate: li.vat_rate?.value,
      total: li.total_price?.value,
    }));
    expect(got).toEqual(
      inv.lines.map((l) => ({
        no: l.no,
        code: l.code,
        description: l.description,
        unit: l.unit,
        quantity: String(l.quantity),
        price: l.unitPrice.toFixed(2),
        rate: String(l.vatRate),
        total: lineNet(l).toFixed(2),
      })),
    );
  });
});
