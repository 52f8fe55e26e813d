import { describe, expect, it } from 'vitest';
import { notSavedMessage, settleConflict } from '../../../web/src/features/edit-receipt/lib/save-conflict';

const freshOf = (values: Record<string, string>) => (id: string) => values[id] ?? '';

describe('settleConflict: a save refused for its version (409), compared with the document read again', () => {
  it('our own save whose answer was lost is no one else: not lost, and a newer draft of the field is kept to be saved again', () => {
    // typed SC-901 (saved, answer lost), then SC-9018: the retry on the old version met our own save
    const out = settleConflict({
      sent: { supplier_code: 'SC-9018', supplier_vat_id: 'LT100001' },
      unanswered: { supplier_code: ['SC-901'], supplier_vat_id: ['LT100001'] },
      base: { supplier_code: 'SC-1', supplier_vat_id: '' },
      fresh: freshOf({ supplier_code: 'SC-901', supplier_vat_id: 'LT100001' }),
    });
    expect(out.lost).toEqual([]);
    expect(out.landed).toEqual({ supplier_code: 'SC-901', supplier_vat_id: 'LT100001' });
    expect(out.keepDraft('supplier_code', 'SC-9018')).toBe(true);
    // a draft the document already holds is saved: nothing left to send
    expect(out.keepDraft('supplier_vat_id', 'LT100001')).toBe(false);
  });

  it('the very values this save sent already in the document (a replay of a save that went through): not lost, nothing left', () => {
    const out = settleConflict({ sent: { amount_tax: '1.23' }, unanswered: {}, base: { amount_tax: '' }, fresh: freshOf({ amount_tax: '1.23' }) });
    expect(out.lost).toEqual([]);
    expect(out.keepDraft('amount_tax', '1.23')).toBe(false);
  });

  it('a field someone else changed is lost: their value is shown, our draft of it dropped', () => {
    const out = settleConflict({
      sent: { supplier_code: 'MINE', amount_tax: '2.00' },
      unanswered: {},
      base: { supplier_code: 'OLD', amount_tax: '1.00' },
      fresh: freshOf({ supplier_code: 'THEIRS', amount_tax: '1.00' }),
    });
    expect(out.lost).toEqual(['supplier_code']);
    expect(out.keepDraft('supplier_code', 'MINE')).toBe(false);
    // a field nobody changed keeps its draft, saved again on the fresh version
    expect(out.keepDraft('amount_tax', '2.00')).toBe(true);
    expect(out.landed).toEqual({});
  });

  it('a field this save did not send, whose earlier unanswered value landed, takes it as its base', () => {
    const out = settleConflict({ sent: { a: 'x' }, unanswered: { b: ['B1'] }, base: { a: '', b: '' }, fresh: freshOf({ a: '', b: 'B1' }) });
    expect(out.lost).toEqual([]);
    expect(out.landed).toEqual({ b: 'B1' });
    expect(out.keepDraft('b', 'B1-typed-on')).toBe(true);
    expect(out.keepDraft('a', 'x')).toBe(true);
  });

  it('a document a colleague made read-only (confirmed) takes no draft: all dropped, the values it does not hold listed as not saved', () => {
    // typed an invoice number (sent) and a total (typed on while the save went); the colleague confirmed the document
    const out = settleConflict({
      sent: { document_id: 'TYPED-BY-B' },
      unanswered: {},
      base: { document_id: 'INV-2024-0042', amount_total: '9.00' },
      fresh: freshOf({ document_id: 'INV-2024-0042', amount_total: '9.00', currency: 'EUR' }),
      readOnly: true,
      drafts: { document_id: 'TYPED-BY-B', amount_total: '10.00', currency: 'EUR' },
    });
    expect(out.closed).toBe(true);
    // the currency typed was the document value already: saved in effect, not listed
    expect(out.lost).toEqual(['document_id', 'amount_total']);
    expect(out.keepDraft('document_id', 'TYPED-BY-B')).toBe(false);
    expect(out.keepDraft('amount_total', '10.00')).toBe(false);
    expect(out.keepDraft('currency', 'EUR')).toBe(false);
  });

  it('the same refusal on a document that still takes edits keeps the draft to be saved again (not closed)', () => {
    const out = settleConflict({
      sent: { document_id: 'TYPED-BY-B' },
      unanswered: {},
      base: { document_id: 'INV-2024-0042' },
      fresh: freshOf({ document_id: 'INV-2024-0042' }),
    });
    expect(out.closed).toBe(false);
    expect(out.lost).toEqual([]);
    expect(out.keepDraft('document_id', 'TYPED-BY-B')).toBe(true);
  });

  it('says which fields were not saved and that a colleague action is why', () => {
    expect(notSavedMessage('archive', ['Invoice number'])).toBe('The document was moved to archive by someone else, so your change to Invoice number was not saved.');
    expect(notSavedMessage('archive', ['Invoice number', 'Total', 'Currency'])).toBe(
      'The document was moved to archive by someone else, so your changes to Invoice number, Total and Currency were not saved.',
    );
    expect(notSavedMessage('busy', ['Total'])).toBe('The document is being processed again after someone else’s action, so your change to Total was not saved.');
    expect(notSavedMessage('archive', [])).toBe('The document was moved to archive by someone else, so it can no longer be edited.');
  });
});
