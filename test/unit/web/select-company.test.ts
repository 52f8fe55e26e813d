import { describe, expect, it } from 'vitest';
import { backPath, companyChoiceError, editReceiptPath, editStateAfterMove, newReceiptId } from '../../../web/src/features/select-company/lib/select-company';

describe('select company', () => {
  it('requires a company chosen from the list', () => {
    expect(companyChoiceError('', ['c1'])).toBe('Required field');
    expect(companyChoiceError('c9', ['c1'])).toBe('Required field');
    expect(companyChoiceError('c1', ['c1'])).toBeUndefined();
  });

  it('reads the new receipt id from the answer', () => {
    expect(newReceiptId({ receipt_id: 'n1', company_id: 'c1' })).toBe('n1');
    expect(newReceiptId({ receipt: { receipt_id: 'n2' } })).toBe('n2');
    expect(newReceiptId(' n3 ')).toBe('n3');
    expect(newReceiptId({})).toBeNull();
    expect(newReceiptId(null)).toBeNull();
  });

  it('opens the edited receipt with its company', () => {
    expect(editReceiptPath('n1', 'c 1')).toBe('/edit-receipt/n1?company_id=c+1');
  });

  it('goes back to the list it came from', () => {
    expect(backPath({ inbox: true })).toBe('/receipts/inbox');
    expect(backPath({ inbox: false })).toBe('/receipts/unassigned');
    expect(backPath(null)).toBe('/receipts/unassigned');
  });
  it('the edit screen opened after the move keeps the inbox, not the Unassigned list or its search', () => {
    expect(editStateAfterMove({ inbox: true, listStatus: 'unassigned', listSearch: '?q=x' })).toEqual({ inbox: true });
    expect(editStateAfterMove({ inbox: false, listStatus: 'unassigned', listSearch: '?q=x' })).toBeUndefined();
    expect(editStateAfterMove(null)).toBeUndefined();
  });
});
