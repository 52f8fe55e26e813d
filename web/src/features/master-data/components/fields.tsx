import { useEffect, useMemo, useState } from 'react';
import { STAKEHOLDER_DATE_FORMATS } from '../../../../../shared/constants';
import { COUNTRIES } from '../../../../../shared/countries';
import type { Company } from '../../../../../shared/schemas/company';
import { useCategoryChoices } from '../api/master-data';
import { SearchSelect, type SelectOption } from './SearchSelect';

/** Category dropdown search: sent 500 ms after typing stops (rules.md 9, "500 or 1000 ms elsewhere"). */
export const CATEGORY_SEARCH_MS = 500;

const COUNTRY_OPTIONS: SelectOption[] = COUNTRIES.map((c) => ({ value: c.code, label: c.name, hint: c.code }));

/** Country: searchable by name or two-letter code; the value is the code. */
export function CountryField(props: { value: string; onChange(code: string): void; error?: string; onBlur?(): void }) {
  return (
    <SearchSelect
      name="country"
      label="Country"
      placeholder="Choose a country"
      options={COUNTRY_OPTIONS}
      clearable
      {...props}
      onChange={(code) => props.onChange(code)}
    />
  );
}

/** Category: the categories of one company, searched on the server; No items... when the company has none. */
export function CategoryField({
  companyId,
  value,
  initialLabel,
  onChange,
  error,
}: {
  companyId: string | undefined;
  value: string;
  initialLabel?: string;
  onChange(id: string): void;
  error?: string;
}) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [chosenLabel, setChosenLabel] = useState(initialLabel ?? '');
  useEffect(() => {
    if (typed === search) return;
    const t = window.setTimeout(() => setSearch(typed), CATEGORY_SEARCH_MS);
    return () => window.clearTimeout(t);
  }, [typed, search]);
  const choices = useCategoryChoices(companyId, search);
  const options = useMemo<SelectOption[]>(() => choices.categories.map((c) => ({ value: c.id, label: c.name, hint: c.category_code || undefined })), [choices.categories]);
  return (
    <SearchSelect
      name="category_id"
      label="Category"
      placeholder={companyId ? 'Choose a category' : 'Choose a company first'}
      value={value}
      valueLabel={chosenLabel}
      options={companyId ? options : []}
      loading={choices.loading}
      hasMore={choices.hasMore}
      onLoadMore={choices.loadMore}
      onQueryChange={setTyped}
      clearable
      error={error}
      onChange={(id, option) => {
        setChosenLabel(option?.label ?? '');
        onChange(id);
      }}
    />
  );
}

/** Company of a new record in the all-companies view (product.md "Master-data list screen"). */
export function CompanyField({
  companies,
  value,
  onChange,
  error,
}: {
  companies: ReadonlyArray<Company>;
  value: string;
  onChange(companyId: string): void;
  error?: string;
}) {
  const options = useMemo<SelectOption[]>(() => companies.map((c) => ({ value: c.company_id, label: c.name, hint: c.code || undefined })), [companies]);
  return <SearchSelect name="company_id" label="Company" placeholder="Choose a company" value={value} options={options} onChange={onChange} error={error} />;
}

/** The stakeholder's date format (rules.md 9): drives how ambiguous dates of its documents are read. */
export function DateFormatField({ value, onChange, error }: { value: string; onChange(format: string): void; error?: string }) {
  return (
    <div className={['field', error ? 'has-error' : ''].filter(Boolean).join(' ')}>
      <label className="field-label" htmlFor="md-date-format">
        Date format
      </label>
      <select id="md-date-format" name="selected_date_format" className="input select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Not set</option>
        {STAKEHOLDER_DATE_FORMATS.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
      {error && (
        <p className="field-error" role="alert" data-testid="error-selected_date_format">
          {error}
        </p>
      )}
    </div>
  );
}
