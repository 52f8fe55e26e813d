import { describe, expect, it } from 'vitest';
import { pageTitle } from '../../../web/src/app/routes';
import { formatDay } from '../../../web/src/features/receipts/lib/dates';
import {
  EMPTY_FILTERS,
  clampRange,
  filtersFromSearch,
  filtersToSearch,
  hasActiveFilters,
  listKeyParams,
  listQuery,
  localDayBounds,
  nextCursor,
  pickedDay,
  pickedDayParam,
  todayIso,
  typeParam,
  type ListFilters,
} from '../../../web/src/features/receipts/lib/list-params';
import {
  archiveAction,
  companyName,
  companyToActivate,
  convertActions,
  flagActions,
  rowRules,
  rowTarget,
  selectableIds,
} from '../../../web/src/features/receipts/lib/row-rules';
import { isListStatus, listTitle, statusLabel } from '../../../web/src/features/receipts/lib/status';
import { contentValue, formatTotal, receiptSummary } from '../../../web/src/features/receipts/lib/summary';
import { mapLimited } from '../../../web/src/features/receipts/lib/concurrency';
import { receipt } from './receipt-fixture';

describe('list titles and status labels', () => {
  it('takes the title from the status', () => {
    expect(listTitle('inbox')).toBe('Inbox');
    expect(listTitle('processing')).toBe('In Processing');
    expect(listTitle('review')).toBe('To Review');
    expect(listTitle('failed')).toBe('Failed');
    expect(pageTitle('/receipts/inbox')).toBe('Inbox');
    expect(pageTitle('/receipts/review/')).toBe('To Review');
    expect(pageTitle('/select-company/r1')).toBe('Select company');
    expect(pageTitle('/dashboard')).toBe('Dashboard');
  });

  it('knows the list statuses', () => {
    expect(isListStatus('unassigned')).toBe(true);
    expect(isListStatus('error')).toBe(false);
    expect(isListStatus(undefined)).toBe(false);
  });

  it('colours ready green, review and error red, the others orange', () => {
    expect(statusLabel('ready')).toEqual({ text: 'Ready', tone: 'green' });
    expect(statusLabel('review')).toEqual({ text: 'To Review', tone: 'red' });
    expect(statusLabel('error')).toEqual({ text: 'Error', tone: 'red' });
    for (const s of ['processing', 'converting', 'archive', 'unassigned', 'rejected', 'saving', 'failed']) {
      expect(statusLabel(s).tone).toBe('orange');
    }
    expect(statusLabel('processing').text).toBe('In Processing');
  });
});

describe('filters → GET /receipts query', () => {
  const now = new Date(2024, 5, 10, 9, 30);

  it('sends no status for the inbox, the status otherwise, limit 50 and the company', () => {
    expect(listQuery('inbox', EMPTY_FILTERS, { kind: 'company', companyId: 'c1' })).toEqual({
      receipt_status: undefined,
      receipt_type: undefined,
      search_value: undefined,
      created_at_after: undefined,
      created_at_before: undefined,
      duplicate_id: undefined,
      limit: 50,
      company_id: 'c1',
    });
    expect(listQuery('review', EMPTY_FILTERS, { kind: 'company', companyId: 'c1' }).receipt_status).toBe('review');
  });

  it('uses selected=ALL in the all-companies view', () => {
    const q = listQuery('ready', EMPTY_FILTERS, { kind: 'all' });
    expect(q.selected).toBe('ALL');
    expect(q.company_id).toBeUndefined();
  });

  it('sends the paging cursors', () => {
    const q = listQuery('inbox', EMPTY_FILTERS, { kind: 'all' }, { next: 'abc', next_company: 'c2' });
    expect(q.next).toBe('abc');
    expect(q.next_company).toBe('c2');
  });

  it('sends a receipt type only when exactly one box is on', () => {
    expect(typeParam({ receipt: true, invoice: true })).toBeUndefined();
    expect(typeParam({ receipt: true, invoice: false })).toBe('receipt');
    expect(typeParam({ receipt: false, invoice: true })).toBe('invoice');
    expect(typeParam({ receipt: false, invoice: false })).toBeUndefined();
  });

  it('sends the trimmed search, the duplicates flag and the date range as the local days first and last millisecond', () => {
    const q = listQuery(
      'inbox',
      { ...EMPTY_FILTERS, search: '  maxima ', duplicates: true, dateFrom: '2024-01-01', dateTo: '2024-01-31', invoice: false },
      { kind: 'company', companyId: 'c1' },
    );
    expect(q.search_value).toBe('maxima');
    expect(q.duplicate_id).toBe('true');
    expect(q.created_at_after).toBe(new Date(2024, 0, 1).toISOString());
    expect(q.created_at_before).toBe(new Date(new Date(2024, 1, 1).getTime() - 1).toISOString());
    expect(q.created_at_before).toBe(localDayBounds('2024-01-31')!.end);
    expect(q.receipt_type).toBe('receipt');
  });

  it('filters the range by issue date when asked (by_issue_date), only with a range, and keys the list by it', () => {
    const scope = { kind: 'company' as const, companyId: 'c1' };
    const byIssue = { ...EMPTY_FILTERS, byIssueDate: true, dateFrom: '2024-01-01', dateTo: '2024-01-31' };
    expect(listQuery('inbox', byIssue, scope)).toMatchObject({ by_issue_date: 'true', created_at_after: '2024-01-01', created_at_before: '2024-01-31' });
    expect(listQuery('inbox', { ...byIssue, byIssueDate: false }, scope).by_issue_date).toBeUndefined();
    expect(listQuery('inbox', { ...EMPTY_FILTERS, byIssueDate: true }, scope).by_issue_date).toBeUndefined();
    expect(listKeyParams('inbox', byIssue, scope)).not.toEqual(listKeyParams('inbox', { ...byIssue, byIssueDate: false }, scope));
  });

  it('sets a picked day to 15:00 local time, so it stays the same day in UTC', () => {
    const d = pickedDay('2024-02-29')!;
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()]).toEqual([2024, 1, 29, 15, 0]);
    expect(pickedDayParam('2024-02-29')).toBe('2024-02-29');
    expect(pickedDay('2023-02-29')).toBeNull();
    expect(pickedDay('29.02.2024')).toBeNull();
  });

  it('never lets the range go past today and keeps from ≤ to', () => {
    expect(todayIso(now)).toBe('2024-06-10');
    expect(clampRange({ dateFrom: '2024-06-01', dateTo: '2024-07-01' }, now)).toEqual({ dateFrom: '2024-06-01', dateTo: '2024-06-10' });
    expect(clampRange({ dateFrom: '2025-01-01', dateTo: '' }, now)).toEqual({ dateFrom: '2024-06-10', dateTo: '' });
    expect(clampRange({ dateFrom: '2024-05-20', dateTo: '2024-05-01' }, now)).toEqual({ dateFrom: '2024-05-01', dateTo: '2024-05-01' });
    expect(clampRange({ dateFrom: 'nonsense', dateTo: '' }, now)).toEqual({ dateFrom: '', dateTo: '' });
  });

  it('keys lists by scope, status and filters, not by cursor', () => {
    const a = listKeyParams('review', { ...EMPTY_FILTERS, search: ' x ' }, { kind: 'company', companyId: 'c1' });
    expect(a).toEqual({ scope: 'c1', status: 'review', receipt_type: null, search: 'x', from: '', to: '', by_issue_date: false, duplicates: false });
    expect(listKeyParams('review', EMPTY_FILTERS, { kind: 'all' }).scope).toBe('ALL');
  });

  it('continues while the page has a next or next_company cursor', () => {
    expect(nextCursor({ items: [], next: null, next_company: null })).toBeUndefined();
    expect(nextCursor({ items: [], next: 'n1', next_company: null })).toEqual({ next: 'n1', next_company: null });
    expect(nextCursor({ items: [], next: null, next_company: 'c2' })).toEqual({ next: null, next_company: 'c2' });
    expect(nextCursor(undefined)).toBeUndefined();
  });

  it('tells when filters are on', () => {
    expect(hasActiveFilters(EMPTY_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...EMPTY_FILTERS, search: ' ' })).toBe(false);
    expect(hasActiveFilters({ ...EMPTY_FILTERS, invoice: false })).toBe(true);
    expect(hasActiveFilters({ ...EMPTY_FILTERS, dateTo: '2024-01-01' })).toBe(true);
  });
});

describe('filters ↔ the list address', () => {
  const now = new Date(2026, 2, 10, 12);
  it('writes only what differs from no filter, and reads back the same filters', () => {
    expect(filtersToSearch(EMPTY_FILTERS).toString()).toBe('');
    const filters: ListFilters = { dateFrom: '2026-03-01', dateTo: '2026-03-09', byIssueDate: true, duplicates: true, receipt: false, invoice: true, search: 'Maxima & Co' };
    const search = filtersToSearch(filters);
    expect(search.toString()).toBe('q=Maxima+%26+Co&from=2026-03-01&to=2026-03-09&dates=issue&duplicates=1&type=invoice');
    expect(filtersFromSearch(new URLSearchParams(search.toString()), now)).toEqual(filters);
    expect(filtersFromSearch(new URLSearchParams(''), now)).toEqual(EMPTY_FILTERS);
  });

  it('reads a hand-made address safely: dates that are not days or lie ahead, unknown types', () => {
    expect(filtersFromSearch(new URLSearchParams('from=yesterday&to=2027-01-01&type=bogus&duplicates=yes'), now)).toEqual({ ...EMPTY_FILTERS, dateTo: '2026-03-10' });
  });
});

describe('row rules', () => {
  it('processing and converting rows cannot be opened, selected, flagged or previewed', () => {
    for (const status of ['processing', 'converting'] as const) {
      expect(rowRules(receipt({ status }))).toEqual({
        canOpen: false,
        canSelect: false,
        canFlag: false,
        canPreview: false,
        greyed: false,
        canRestart: false,
      });
    }
  });

  it('saving rows are greyed out and not clickable', () => {
    const r = rowRules(receipt({ status: 'saving' }));
    expect(r.greyed).toBe(true);
    expect(r.canOpen).toBe(false);
    expect(r.canSelect).toBe(false);
  });

  it('other rows can be opened, selected, flagged and previewed', () => {
    expect(rowRules(receipt({ status: 'ready' }))).toMatchObject({ canOpen: true, canSelect: true, canFlag: true, canPreview: true, greyed: false });
  });

  it('archived rows are opened, selected and previewed, but their flag is not changed (read-only)', () => {
    expect(rowRules(receipt({ status: 'archive' }))).toMatchObject({ canOpen: true, canSelect: true, canFlag: false, canPreview: true });
  });

  it('rows with can_be_restarted show Try Again and Delete', () => {
    expect(rowRules(receipt({ status: 'failed', can_be_restarted: true })).canRestart).toBe(true);
    expect(rowRules(receipt({ status: 'failed' })).canRestart).toBe(false);
  });

  it('opens the edit screen, or select-company for unassigned documents, with the inbox flag', () => {
    expect(rowTarget(receipt({ receipt_id: 'r 1', company_id: 'c1' }), 'inbox')).toEqual({
      pathname: '/edit-receipt/r%201',
      search: '?company_id=c1',
      state: { inbox: true },
    });
    expect(rowTarget(receipt({ status: 'unassigned', company_id: null }), 'unassigned')).toEqual({
      pathname: '/select-company/r1',
      search: '?company_id=NONE',
      state: { inbox: false, listStatus: 'unassigned' },
    });
    // from a status list the edit screen walks that list, whatever status it last knew the document in
    expect(rowTarget(receipt({ status: 'review' }), 'archive').state).toEqual({ inbox: false, listStatus: 'archive' });
  });

  it('switches the active company first for an item of another company', () => {
    expect(companyToActivate(receipt({ company_id: 'c2' }), 'c1', ['c1', 'c2'])).toBe('c2');
    expect(companyToActivate(receipt({ company_id: 'c1' }), 'c1', ['c1', 'c2'])).toBeNull();
    expect(companyToActivate(receipt({ company_id: null }), 'c1', ['c1'])).toBeNull();
    expect(companyToActivate(receipt({ company_id: 'zz' }), 'c1', ['c1'])).toBeNull();
  });

  it("names a row's company as the companies list has it now (Settings may have renamed it), Unassigned for none", () => {
    const companies = [{ company_id: 'c1', name: 'Renamed UAB' }];
    expect(companyName(receipt({ company_id: 'c1', company_name: 'Old name UAB' }), companies)).toBe('Renamed UAB');
    expect(companyName(receipt({ company_id: 'c9', company_name: 'Gone UAB' }), companies)).toBe('Gone UAB');
    expect(companyName(receipt({ company_id: null, company_name: '' }), companies)).toBe('Unassigned');
  });

  it('keeps only rows that can still be selected', () => {
    const rows = [receipt({ receipt_id: 'a' }), receipt({ receipt_id: 'b', status: 'processing' }), receipt({ receipt_id: 'c' })];
    expect(selectableIds(rows, new Set(['a', 'b']))).toEqual(['a']);
  });

  it('builds the tools menu entries from the selection', () => {
    expect(archiveAction([receipt({ status: 'archive' }), receipt({ status: 'archive' })])).toEqual({ label: 'Unarchive', action: 'unarchive' });
    expect(archiveAction([receipt({ status: 'archive' }), receipt({ status: 'ready' })])).toEqual({ label: 'Move to Archive', action: 'archive' });
    expect(convertActions([receipt()]).map((a) => a.label)).toEqual(['Convert to Invoice']);
    expect(convertActions([receipt(), receipt({ receipt_type: 'invoice' })]).map((a) => a.label)).toEqual(['Convert to Receipt', 'Convert to Invoice']);
    expect(flagActions([receipt({ flag: true })]).map((a) => a.label)).toEqual(['Unflag']);
    expect(flagActions([receipt({ flag: true }), receipt()]).map((a) => a.label)).toEqual(['Flag', 'Unflag']);
  });

  it('offers no Convert, Flag or Unflag for a selection that holds an archived document (read-only)', () => {
    const archived = receipt({ status: 'archive', flag: true });
    expect(convertActions([receipt(), archived])).toEqual([]);
    expect(flagActions([receipt(), archived])).toEqual([]);
    expect(flagActions([archived])).toEqual([]);
  });
});

describe('row summary', () => {
  it('reads the summary fields of a list item', () => {
    expect(receiptSummary(receipt())).toMatchObject({
      counterparty: 'Maxima',
      documentNumber: 'A-1',
      date: '2024-03-05',
      total: '12.50',
      currency: 'EUR',
      fileName: 'receipt.jpg',
      owner: 'Ona Onaitė',
    });
  });

  it('falls back to the content tree', () => {
    const content = [
      {
        id: 'amounts',
        schema_id: 'amounts',
        category: 'tuple' as const,
        children: [{ id: 'amount_tax', schema_id: 'amount_tax', category: 'datapoint' as const, content: { value: '2.17', page: 1, position: null, confidence: 90 } }],
      },
      { id: 'customer_name', schema_id: 'customer_name', category: 'datapoint' as const, content: { value: 'Client UAB', page: 1, position: null, confidence: 90 } },
    ];
    const s = receiptSummary({ ...receipt({ supplierCustomerName: '', receipt_type: 'invoice', total: null }), content });
    expect(s.tax).toBe('2.17');
    expect(s.counterparty).toBe('Client UAB');
    expect(s.total).toBe('');
    expect(contentValue(content, 'nothing')).toBe('');
  });

  it('formats totals and days', () => {
    expect(formatTotal('12.50', 'EUR')).toBe('12.50 EUR');
    expect(formatTotal('', 'EUR')).toBe('');
    expect(formatDay('2024-03-05')).toBe('05 Mar 24');
    expect(formatDay(null)).toBe('');
  });
});

describe('mapLimited', () => {
  it('runs at most `limit` tasks at a time and keeps the order, failures included', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapLimited([1, 2, 3, 4, 5], 2, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
      if (n === 3) throw new Error('three');
      return n * 10;
    });
    expect(peak).toBe(2);
    expect(out.map((r) => (r.ok ? r.value : (r.error as Error).message))).toEqual([10, 20, 'three', 40, 50]);
  });
});

describe('sending to integrations', () => {
  it('is offered only when an export target of the company is switched on', async () => {
    const { sendsToIntegrations } = await import('../../../web/src/features/receipts/lib/row-rules');
    const off = { ftp_export: false, nsoft_export: false, rivile_export: false };
    expect(sendsToIntegrations(off)).toBe(false);
    expect(sendsToIntegrations(undefined)).toBe(false);
    expect(sendsToIntegrations({ ...off, ftp_export: true })).toBe(true);
    expect(sendsToIntegrations({ ...off, nsoft_export: true })).toBe(true);
    expect(sendsToIntegrations({ ...off, rivile_export: true })).toBe(true);
  });

  it('finds the possible copies of a selection: the same file, or the same party, number and total', async () => {
    const { possibleCopies } = await import('../../../web/src/features/receipts/lib/row-rules');
    const plain = receipt({ receipt_id: 'a', duplicate_id: undefined, same_document: undefined });
    const sameFile = receipt({ receipt_id: 'b', duplicate_id: 'a', same_document: undefined });
    const sameDocument = receipt({ receipt_id: 'c', duplicate_id: undefined, same_document: true });
    expect(possibleCopies([plain])).toEqual([]);
    expect(possibleCopies([plain, sameFile, sameDocument]).map((r) => r.receipt_id)).toEqual(['b', 'c']);
  });
});
