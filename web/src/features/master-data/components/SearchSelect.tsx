import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useCombobox } from '../../../components/ui/combobox';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import './search-select.css';

export interface SelectOption {
  value: string;
  label: string;
  /** Shown after the label, muted (a code). */
  hint?: string;
}

/** Empty dropdown text (rules.md 8). */
export const NO_ITEMS = 'No items...';

export interface SearchSelectProps {
  name: string;
  label: string;
  value: string;
  options: ReadonlyArray<SelectOption>;
  onChange(value: string, option: SelectOption | null): void;
  /** The label of the current value when it is not among `options` (a server-searched list). */
  valueLabel?: string;
  /** Searching on the server: called with the typed text; the options are then shown as given. */
  onQueryChange?(query: string): void;
  loading?: boolean;
  /** A server-searched list with more options than it shows: `onLoadMore` reads them (`nearListEnd`). */
  hasMore?: boolean;
  onLoadMore?(): void;
  /** Offer a clear button when a value is chosen. */
  clearable?: boolean;
  placeholder?: string;
  error?: string;
  disabled?: boolean;
  onBlur?(): void;
}

/**
 * How well an option answers the typed text, lower first; undefined: it does not. The option whose value or hint
 * is the text comes first ("LT" is Lithuania, not Gibraltar, which holds the letters), then labels the text starts,
 * then labels with a word it starts, then any label or hint holding it.
 */
function matchRank(option: SelectOption, q: string): number | undefined {
  const label = option.label.toLowerCase();
  const hint = option.hint?.toLowerCase();
  if (option.value.toLowerCase() === q || hint === q) return 0;
  if (label.startsWith(q)) return 1;
  if (label.split(/[^\p{L}\p{N}]+/u).some((w) => w.startsWith(q))) return 2;
  return label.includes(q) || Boolean(hint?.includes(q)) ? 3 : undefined;
}

/** The options a typed text shows, best first (`matchRank`), each rank in the options' own order. */
export function matchingOptions(options: ReadonlyArray<SelectOption>, query: string): SelectOption[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...options];
  return options
    .flatMap((option, i) => {
      const rank = matchRank(option, q);
      return rank === undefined ? [] : [{ option, rank, i }];
    })
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ option }) => option);
}

/** Within this many pixels of its end, a scrolled list reads its next options. */
const LOAD_MORE_PX = 48;

/** Whether a list scrolled this far shows its end (or nearly): the moment to read the options that follow. */
export function nearListEnd(list: { scrollTop: number; clientHeight: number; scrollHeight: number }): boolean {
  return list.scrollTop + list.clientHeight >= list.scrollHeight - LOAD_MORE_PX;
}

/**
 * A searchable dropdown (combobox): type to narrow the list, arrows and Enter to choose, Escape to close.
 * At most 222 px high (rules.md 9); an empty list says No items... A server-searched list with more options
 * (`hasMore`) reads them when it is scrolled to its end, when the arrows reach its last option, and while a search
 * has shown nothing yet (a search's page may come back empty with more to read).
 */
export function SearchSelect({
  name,
  label,
  value,
  options,
  onChange,
  valueLabel,
  onQueryChange,
  loading = false,
  hasMore = false,
  onLoadMore,
  clearable = false,
  placeholder,
  error,
  disabled = false,
  onBlur,
}: SearchSelectProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');

  const shown = useMemo(() => (onQueryChange ? options : matchingOptions(options, query)), [options, onQueryChange, query]);
  const current = options.find((o) => o.value === value);
  const display = value ? (current?.label ?? valueLabel ?? value) : '';

  const close = () => {
    setOpen(false);
    if (query) {
      setQuery('');
      onQueryChange?.('');
    }
  };

  const choose = (option: SelectOption) => {
    onChange(option.value, option);
    setQuery('');
    onQueryChange?.('');
    setOpen(false);
  };

  const { active, setActive, listId, optionId, inputProps } = useCombobox({ id, items: shown, open, onOpen: () => setOpen(true), onChoose: choose, onClose: close });

  const wantsMore = open && hasMore && !loading && (shown.length === 0 || active >= shown.length - 1);
  useEffect(() => {
    if (wantsMore) onLoadMore?.();
  }, [wantsMore, onLoadMore]);

  const setTyped = (q: string) => {
    setQuery(q);
    setActive(0);
    setOpen(true);
    onQueryChange?.(q);
  };

  return (
    <div className={['field', 'search-select', error ? 'has-error' : ''].filter(Boolean).join(' ')} data-testid={`select-${name}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="field-control">
        <input
          ref={inputRef}
          id={id}
          name={name}
          className="input select"
          {...inputProps}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          autoComplete="off"
          placeholder={open && display ? display : placeholder}
          value={open ? query : display}
          disabled={disabled}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onChange={(e) => setTyped(e.target.value)}
          onBlur={() => {
            close();
            onBlur?.();
          }}
        />
        {clearable && value && !disabled && (
          <button
            type="button"
            className="search-select-clear"
            aria-label={`Clear ${label.toLowerCase()}`}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onChange('', null)}
          >
            <Icon name="close" size={14} />
          </button>
        )}
        {open && (
          <ul
            className="search-select-list"
            id={listId}
            role="listbox"
            aria-label={label}
            // not a Tab stop: the input leads it (aria-activedescendant). A scrolling list is one by default, and Tab
            // from the input would land on it just as the input's blur closes it, leaving the focus nowhere
            tabIndex={-1}
            aria-busy={loading || undefined}
            onScroll={(e) => {
              if (hasMore && !loading && nearListEnd(e.currentTarget)) onLoadMore?.();
            }}
          >
            {loading && shown.length === 0 ? (
              <li className="search-select-empty">
                <Spinner size="sm" />
              </li>
            ) : shown.length === 0 ? (
              <li className="search-select-empty" data-testid="no-items">
                {NO_ITEMS}
              </li>
            ) : (
              shown.map((o, i) => (
                <li
                  key={o.value}
                  id={optionId(i)}
                  role="option"
                  aria-selected={o.value === value}
                  className={['search-select-option', i === active ? 'is-active' : '', o.value === value ? 'is-selected' : ''].filter(Boolean).join(' ')}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => choose(o)}
                >
                  <span>{o.label}</span>
                  {o.hint && <span className="muted search-select-hint">{o.hint}</span>}
                </li>
              ))
            )}
            {hasMore && shown.length > 0 && (
              <li className="search-select-empty" data-testid="search-select-more">
                <Spinner size="sm" />
              </li>
            )}
          </ul>
        )}
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}
