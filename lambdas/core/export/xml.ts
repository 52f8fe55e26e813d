/**
 * The product's own XML of selected documents (documented in docs/decisions.md, "Exports"):
 *
 *   <Documents generated="…" count="n">
 *     <Document id="…" type="receipt|invoice" status="review">
 *       <FileName/> <Category/> <Notes/> <CreatedAt/>
 *       <Fields><Field id="document_id" label="Invoice number">INV-1</Field>…</Fields>
 *       <VatLines><VatLine><Rate/><TaxableAmount/><VatAmount/><Total/></VatLine>…</VatLines>
 *       <LineItems><LineItem><item_number/>…<total_price/></LineItem>…</LineItems>
 *     </Document>
 *   </Documents>
 *
 * Every datapoint outside the tables is a <Field>, empty ones included, so the shape is stable. Characters that XML 1.0
 * forbids (control characters, lone surrogates) are left out of the file (shared/text.ts).
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { SchemaField } from '../../../shared/schemas/content';
import { stripForbiddenChars } from '../../../shared/text';
import { LINE_ITEM_COLUMNS } from '../../../shared/schemas/content';
import { rowsOf, walk } from '../content/tree';
import type { ExportDocument } from './fields';

export function buildDocumentsXml(docs: ExportDocument[], schema: SchemaField[], generatedAt: Date): string {
  const labels = new Map(schema.map((f) => [f.id, f.label]));
  const documents = docs.map((d) => {
    const fields = [...walk(d.content.items)]
      .filter((i) => i.category === 'datapoint' && i.parent_content_id !== null && !i.id.includes('.'))
      .map((i) => ({ '@_id': i.schema_id, '@_label': labels.get(i.schema_id) ?? i.schema_id, '#text': i.content?.value ?? '' }));
    return {
      '@_id': d.receipt_id,
      '@_type': d.receipt_type,
      '@_status': d.status,
      FileName: d.original_file_name ?? '',
      Category: d.category ?? '',
      Notes: d.notes ?? '',
      CreatedAt: d.created_at,
      Fields: { Field: fields },
      VatLines: {
        VatLine: rowsOf(d.content, 'vat_lines').map((r) => ({
          Rate: r.vat_line_rate ?? '',
          TaxableAmount: r.vat_line_base ?? '',
          VatAmount: r.vat_line_tax ?? '',
          Total: r.vat_line_total ?? '',
        })),
      },
      LineItems: { LineItem: rowsOf(d.content, 'line_items').map((r) => Object.fromEntries(LINE_ITEM_COLUMNS.map((c) => [c, r[c] ?? '']))) },
    };
  });
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true, suppressBooleanAttributes: false, suppressEmptyNode: false });
  const xml = builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    Documents: { '@_generated': generatedAt.toISOString(), '@_count': String(docs.length), Document: documents },
  }) as string;
  return stripForbiddenChars(xml);
}
