import { describe, expect, it } from 'vitest';
import type { SchemaField } from '../../../shared/schemas/content';
import { unsavableDrafts } from '../../../web/src/features/edit-receipt/lib/form';

const field = (id: string, label: string, type: SchemaField['type']) => [id, { label, type }] as const;
const fields = new Map([field('document_id', 'Invoice number', 'string'), field('issue_date', 'Issue date', 'date'), field('amount_total', 'Total', 'amount')]);

describe('values a leave cannot save', () => {
  it('lists the badly formatted and the refused drafts in the form order, with their messages', () => {
    expect(unsavableDrafts({ amount_total: '260,25', issue_date: '25/12/2018' }, {}, fields)).toEqual([
      { id: 'issue_date', label: 'Issue date', message: 'Invalid date format (YYYY-MM-DD)' },
      { id: 'amount_total', label: 'Total', message: 'Invalid amount format (0.00)' },
    ]);
    // the server's refusal of a well-formed value
    expect(unsavableDrafts({ document_id: 'A-1' }, { document_id: 'Company code matches customer/supplier code' }, fields)).toEqual([
      { id: 'document_id', label: 'Invoice number', message: 'Company code matches customer/supplier code' },
    ]);
  });

  it('is empty when a draft is only waiting for its save (a network failure): the leave says so instead', () => {
    expect(unsavableDrafts({ amount_total: '260,25', document_id: 'A-2' }, {}, fields)).toEqual([]);
    expect(unsavableDrafts({}, {}, fields)).toEqual([]);
  });
});
