import { describe, expect, it } from 'vitest';
import { documentItem, searchItems, toRecord } from '../../../lambdas/adapters/ddb/documents-store';
import { seededDocument } from '../../support/document-records';

describe('document items as stored', () => {
  const doc = seededDocument({ receipt_id: 'r1', scope: 'C#co1', created_at: '2026-01-05T10:00:00.000Z', counterparty_name: 'Maxima' });

  it('writes the search items of a document read back from the table as search items', () => {
    const stored = documentItem(doc);
    expect(stored.type).toBe('DOCUMENT');
    const readBack = toRecord(stored);
    expect(readBack).not.toHaveProperty('type');
    const items = searchItems(readBack);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.type).toBe('DOC_SEARCH');
  });

  it('writes a record read from a search item as the document item', () => {
    const fromSearch = toRecord(searchItems(doc)[0]!);
    expect(fromSearch).toEqual(toRecord(documentItem(doc)));
    expect(documentItem(fromSearch).type).toBe('DOCUMENT');
  });
});
