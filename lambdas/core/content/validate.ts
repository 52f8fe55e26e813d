/**
 * Server-side validation of a document's content (POST receipts/{id}/content/validate and every edit
 * action): required fields, amounts as 0.00, dates strictly YYYY-MM-DD. Errors are keyed by content id.
 *
 * Required fields of the stakeholder section that does not apply to the document (the customer of a cost
 * receipt, the supplier of a sales invoice) are not enforced, and a hidden field is never required: the
 * person could not fill it in.
 */
import type { ContentError, SchemaField } from '../../../shared/schemas/content';
import { valueError } from '../../../shared/schemas/content';
import { schemaById, stakeholderKind } from './schema';
import { cloneDoc, walk, type ContentDocument } from './tree';

export function validateContent(doc: ContentDocument, schema: SchemaField[], receiptType: 'receipt' | 'invoice'): ContentError[] {
  const fields = schemaById(schema);
  const applies = stakeholderKind(receiptType);
  const errors: ContentError[] = [];
  for (const item of walk(doc.items)) {
    if (item.category !== 'datapoint') continue;
    const field = fields.get(item.schema_id);
    if (!field) continue;
    const other = field.settings.stakeholder && field.settings.stakeholder !== applies;
    const required = field.constraints.required && !field.hidden && !other;
    const message = valueError(field, item.content?.value ?? '', required);
    if (message) errors.push({ id: item.id, message });
  }
  return errors;
}

/** The tree with each item's `error` set from the list (and cleared elsewhere). */
export function withErrors(doc: ContentDocument, errors: ContentError[]): ContentDocument {
  const byId = new Map(errors.map((e) => [e.id, e.message]));
  const next = cloneDoc(doc);
  for (const item of walk(next.items)) {
    const m = byId.get(item.id);
    item.error = m ? { message: m } : null;
  }
  return next;
}
