/**
 * A country cell of an import: a two-letter code ("LT", "lt") or a country's name in English or Lithuanian
 * ("Lithuania", "Lietuva", "United Kingdom", "Vokietija"), case and diacritics ignored, turned into the
 * two-letter code of the country list (shared/countries.ts, i18n-iso-countries).
 */
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import lt from 'i18n-iso-countries/langs/lt.json' with { type: 'json' };
import { isCountryCode } from '../../../../shared/countries';
import { nameKey } from '../keys';

countries.registerLocale(en);
countries.registerLocale(lt);

let byName: Map<string, string> | undefined;
function names(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  for (const lang of ['en', 'lt']) {
    for (const [code, list] of Object.entries(countries.getNames(lang, { select: 'all' }))) {
      for (const name of list as string[]) {
        const key = nameKey(name);
        if (!byName.has(key)) byName.set(key, code);
      }
    }
  }
  return byName;
}

/** The two-letter code, '' for an empty cell, or undefined when the text names no country. */
export function countryCodeOf(text: string): string | undefined {
  const value = text.trim();
  if (value === '') return '';
  if (value.length === 2 && isCountryCode(value)) return value.toUpperCase();
  const code = names().get(nameKey(value));
  return code && isCountryCode(code) ? code : undefined;
}
