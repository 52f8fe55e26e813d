/**
 * The country list of stakeholder forms (rules.md 9: about 250 entries with two-letter codes),
 * from the maintained i18n-iso-countries data (ISO 3166-1 alpha-2, English names).
 */
// The library without its 100 bundled locales (the package's Node entry registers them all): English only.
import countries from 'i18n-iso-countries/index.js';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(en);

export interface Country {
  code: string;
  name: string;
}

export const COUNTRIES: Country[] = Object.entries(countries.getNames('en', { select: 'official' }))
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const CODES = new Set(COUNTRIES.map((c) => c.code));

export function isCountryCode(code: string): boolean {
  return CODES.has(code.toUpperCase());
}

export function countryName(code: string): string | undefined {
  return countries.getName(code.toUpperCase(), 'en', { select: 'official' });
}
