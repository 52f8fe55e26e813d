import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../../../../shared/constants';
import { Checkbox } from '../../../components/ui/Checkbox';
import { Icon } from '../../../components/ui/Icon';
import { clampRange, type ListFilters } from '../lib/list-params';
import { useToday } from '../lib/today';
import { DocIcon } from './DocIcon';

/**
 * The list's filter bar: a date range that cannot go past today (of the upload, or of the documents' issue dates),
 * the duplicates toggle, the receipt and
 * invoice type checkboxes (one of them always stays on) and the search (sent 1 s after typing stops, or on Enter).
 */
export function FilterBar({ filters, onChange }: { filters: ListFilters; onChange(next: ListFilters): void }) {
  const [search, setSearch] = useState(filters.search);
  // kept current across midnight (a tab left open overnight can pick the new day), and read again as a picker opens
  const { today, refresh: refreshToday } = useToday();

  // A search changed from outside (the menu's link to the same list, Back to an earlier address) replaces what is typed.
  const [shown, setShown] = useState(filters.search);
  if (shown !== filters.search) {
    setShown(filters.search);
    setSearch(filters.search);
  }

  useEffect(() => {
    if (search === filters.search) return;
    const t = window.setTimeout(() => onChange({ ...filters, search }), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(t);
  }, [search, filters, onChange]);

  const setRange = (range: { dateFrom: string; dateTo: string }) => onChange({ ...filters, ...clampRange(range) });

  return (
    <div className="filter-bar" role="search" data-testid="filter-bar">
      <div className="filter-dates" aria-label="Date range">
        <DocIcon name="calendar" size={18} className="filter-icon" />
        {/* which dates a range is of: offered once a day is picked, like the button that clears them */}
        {(filters.dateFrom || filters.dateTo) && (
          <select
            name="date_kind"
            className="input input-sm filter-date-kind"
            aria-label="Dates of"
            value={filters.byIssueDate ? 'issue' : 'upload'}
            onChange={(e) => onChange({ ...filters, byIssueDate: e.target.value === 'issue' })}
          >
            <option value="upload">Uploaded</option>
            <option value="issue">Issued</option>
          </select>
        )}
        <label className="filter-date">
          <span className="sr-only">From</span>
          <input
            type="date"
            name="date_from"
            className="input input-sm"
            max={filters.dateTo || today}
            onFocus={refreshToday}
            onPointerDown={refreshToday}
            value={filters.dateFrom}
            onChange={(e) => setRange({ dateFrom: e.target.value, dateTo: filters.dateTo })}
            aria-label="From date"
          />
        </label>
        <span className="filter-dash" aria-hidden="true">
          –
        </span>
        <label className="filter-date">
          <span className="sr-only">To</span>
          <input
            type="date"
            name="date_to"
            className="input input-sm"
            min={filters.dateFrom || undefined}
            max={today}
            onFocus={refreshToday}
            onPointerDown={refreshToday}
            value={filters.dateTo}
            onChange={(e) => setRange({ dateFrom: filters.dateFrom, dateTo: e.target.value })}
            aria-label="To date"
          />
        </label>
        {(filters.dateFrom || filters.dateTo) && (
          <button type="button" className="icon-btn icon-btn-sm" aria-label="Clear dates" onClick={() => setRange({ dateFrom: '', dateTo: '' })}>
            <Icon name="close" size={14} />
          </button>
        )}
      </div>

      <label className="switch" title="Show only documents that repeat an earlier upload">
        <input
          type="checkbox"
          name="duplicates"
          checked={filters.duplicates}
          onChange={(e) => onChange({ ...filters, duplicates: e.target.checked })}
        />
        <span className="switch-track" aria-hidden="true" />
        <span className="switch-label">Duplicates</span>
      </label>

      <div className="filter-types">
        <Checkbox
          name="type_receipt"
          label="Receipts"
          checked={filters.receipt}
          disabled={filters.receipt && !filters.invoice}
          onChange={(e) => onChange({ ...filters, receipt: e.target.checked })}
        />
        <Checkbox
          name="type_invoice"
          label="Invoices"
          checked={filters.invoice}
          disabled={filters.invoice && !filters.receipt}
          onChange={(e) => onChange({ ...filters, invoice: e.target.checked })}
        />
      </div>

      <div className="filter-search">
        <DocIcon name="search" size={17} className="filter-search-icon" />
        <input
          type="search"
          name="search"
          className="input input-sm"
          placeholder="Search"
          aria-label="Search documents"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') onChange({ ...filters, search });
          }}
        />
      </div>
    </div>
  );
}
