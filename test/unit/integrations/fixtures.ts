import { companySchema } from '../../../lambdas/core/content/schema';
import { emptyContent, replaceRows, setValues } from '../../../lambdas/core/content/tree';
import type { ExportDocument } from '../../../lambdas/core/export/fields';
import type { ContentValue } from '../../../shared/schemas/content';

const value = (v: string): ContentValue => ({ value: v, position: null, page: null, block_id: null, confidence: null }) as unknown as ContentValue;

/** A document as the exports see it, from plain field values and rows. */
export function exportDoc(opts: {
  type?: 'receipt' | 'invoice';
  fields: Record<string, string>;
  lineItems?: Record<string, string>[];
  vatLines?: Record<string, string>[];
}): ExportDocument {
  const schema = companySchema();
  let content = emptyContent(schema);
  content = setValues(content, Object.entries(opts.fields).map(([id, v]) => ({ id, value: v })));
  const rows = (list: Record<string, string>[]) => list.map((r) => ({ values: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, value(v)])), file: null }));
  if (opts.lineItems) content = replaceRows(content, schema, 'line_items', rows(opts.lineItems), null);
  if (opts.vatLines) content = replaceRows(content, schema, 'vat_lines', rows(opts.vatLines), null);
  return {
    receipt_id: '01JRECEIPT0000000000000001',
    receipt_type: opts.type ?? 'receipt',
    status: 'archive',
    created_at: '2026-02-10T08:00:00.000Z',
    original_file_name: 'invoice.pdf',
    user: { name: 'Ada', surname: 'Lovelace' },
    category: null,
    notes: '',
    content,
  };
}
