import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../../../../shared/constants';
import { Spinner } from '../../../components/ui/Spinner';
import { DocIcon } from '../../receipts/components/DocIcon';

/** The list's search: applied 1 s after typing stops (rules.md 9); the screen starts it empty on every route. */
export function SearchBox({ title, applied, onSearch, busy }: { title: string; applied: string; onSearch(text: string): void; busy: boolean }) {
  const [text, setText] = useState(applied);
  useEffect(() => {
    if (text === applied) return;
    const t = window.setTimeout(() => onSearch(text), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(t);
  }, [text, applied, onSearch]);
  return (
    <div className="filter-search md-search" role="search">
      <DocIcon name="search" size={17} className="filter-search-icon" />
      <input
        type="search"
        name="search"
        className="input input-sm"
        placeholder="Search"
        aria-label={`Search ${title.toLowerCase()}`}
        value={text}
        maxLength={100}
        onChange={(e) => setText(e.target.value)}
      />
      {busy && (
        <span className="md-search-busy">
          <Spinner size="sm" label="Searching" />
        </span>
      )}
    </div>
  );
}
