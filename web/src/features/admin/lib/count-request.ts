/**
 * What the count form on /admin/{company_id} sends. Only what changed: the count when it differs from the quota the
 * page showed (or when there is no reset to send), with that quota as `expected_available_documents` so the server
 * refuses it (409) when another admin changed the quota meanwhile; a reset alone sends no count, so it cannot put
 * back an old quota.
 */
import type { UpdateAvailableDocumentsInput } from '../../../../../shared/schemas/admin';

export interface CountRequest {
  body: UpdateAvailableDocumentsInput;
  reset: boolean;
}

export function countRequest(loaded: number, values: { available_documents: string; reset: boolean }): CountRequest {
  const typed = values.available_documents.trim();
  const changed = !/^\d+$/.test(typed) || Number(typed) !== loaded;
  if (values.reset && !changed) return { body: {}, reset: true };
  return { body: { available_documents: typed, expected_available_documents: loaded }, reset: values.reset };
}
