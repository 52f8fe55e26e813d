/**
 * Matching recognised parties and line items to the company's master data. Pure functions.
 * Parties: VAT ID first, then company code, then the normalised name (case, punctuation, diacritics
 * and legal forms such as UAB / SDN BHD / LTD ignored); otherwise the party is new.
 * Items: product code first, then the item's own words found in the description (the item whose words cover most of
 * it), then the words of its name; items that tie leave the line unmatched.
 *
 * `lookupStakeholder` is the same order against a register too large to load: exact look-ups per key
 * (VAT ID, code, normalised name), then the name rule above over a few bounded pages of candidates.
 */
import { compactId } from './extract/identifiers';
import { normaliseCompanyName } from './extract/legal';
import { levenshtein, normaliseForCompare } from './extract/text';
import type { ExtractedFields, Stakeholder } from './types';

export type MatchResult =
  | { isNew: false; stakeholder: Stakeholder; by: 'vat_id' | 'code' | 'name'; score: number }
  | { isNew: true; name?: string; code?: string; vat_id?: string };

export interface PartyKeys {
  name?: string;
  code?: string;
  vat_id?: string;
}

/** The supplier's (or customer's) identifying fields from an extraction. */
export function partyKeys(fields: ExtractedFields, role: 'supplier' | 'customer' = 'supplier'): PartyKeys {
  const out: PartyKeys = {};
  const name = fields[`${role}_name`]?.value;
  const code = fields[`${role}_code`]?.value;
  const vat = fields[`${role}_vat_id`]?.value;
  if (name) out.name = name;
  if (code) out.code = code;
  if (vat) out.vat_id = vat;
  return out;
}

function sameVat(a: string, b: string): boolean {
  const x = compactId(a);
  const y = compactId(b);
  if (!x || !y) return false;
  if (x === y) return true;
  // One written without its country prefix: LT123456715 vs 123456715.
  const strip = (s: string) => s.replace(/^[A-Z]{2}(?=\d)/, '');
  return strip(x) === strip(y) && strip(x).length >= 6;
}

function sameCode(a: string, b: string): boolean {
  const x = compactId(a).replace(/[^A-Z0-9]/g, '');
  const y = compactId(b).replace(/[^A-Z0-9]/g, '');
  return x.length >= 3 && x === y;
}

/**
 * The party's VAT ID or company code says it is another company than a stakeholder of the same name: companies
 * of one group share a trading name (`MR. D.I.Y. SDN BHD` and `MR. D.I.Y. (M) SDN BHD`, each with its own
 * registration and tax numbers), and a name never outweighs the numbers that identify a company. An identifier
 * missing on either side contradicts nothing.
 */
export function identifiersDiffer(party: PartyKeys, s: { vat_id?: string | null; code?: string | null }): boolean {
  const differ = (a: string | null | undefined, b: string | null | undefined, same: (x: string, y: string) => boolean) =>
    Boolean(a && b && compactId(a) && compactId(b) && !same(a, b));
  return differ(party.vat_id, s.vat_id, sameVat) || differ(party.code, s.code, (x, y) => compactId(x).replace(/[^A-Z0-9]/g, '') === compactId(y).replace(/[^A-Z0-9]/g, ''));
}

/**
 * Of the stakeholders whose names normalise alike (legal forms, case and punctuation aside), the party's: the one
 * whose numbers do not differ from the party's; of several, the one whose name is the party's as written
 * (`MR. D.I.Y. (M) SDN BHD`, not `MR. D.I.Y. SDN BHD` or `MR. D.I.Y. (KUCHAI) SDN BHD`); else none — a name
 * several companies share does not tell them apart.
 */
export function oneOfSameName<T extends { name: string; vat_id?: string | null; code?: string | null }>(party: PartyKeys, sameName: T[]): T | undefined {
  const fits = sameName.filter((s) => !identifiersDiffer(party, s));
  if (fits.length <= 1) return fits[0];
  const written = normaliseForCompare(party.name ?? '');
  const exact = fits.filter((s) => normaliseForCompare(s.name) === written);
  return exact.length === 1 ? exact[0] : undefined;
}

/**
 * Of the stakeholders with the party's VAT ID (oldest first), the party's: companies of a VAT group share one VAT ID,
 * each with its own company code. Those whose code (or other identifier) contradicts the party's are left out unless
 * all are (the VAT ID outweighs a code, as in matchStakeholder's order); of those left, the one whose name is the
 * party's as written, else the only one whose name normalises to the party's (legal forms aside), else the oldest.
 */
export function oneOfSameVat<T extends { name: string; vat_id?: string | null; code?: string | null }>(party: PartyKeys, sameVatId: T[]): T | undefined {
  const fits = sameVatId.filter((s) => !identifiersDiffer(party, s));
  const pool = fits.length > 0 ? fits : sameVatId;
  if (pool.length <= 1 || !party.name) return pool[0];
  const written = normaliseForCompare(party.name);
  const exact = pool.find((s) => normaliseForCompare(s.name) === written);
  if (exact) return exact;
  const alike = pool.filter((s) => nameSimilarity(s.name, party.name!) === 1);
  return alike.length === 1 ? alike[0] : pool[0];
}

/** 1 for equal normalised names, less for OCR slips (edit distance relative to length). */
export function nameSimilarity(a: string, b: string): number {
  const x = normaliseCompanyName(a);
  const y = normaliseCompanyName(b);
  if (!x || !y) return 0;
  if (x === y) return 1;
  const max = Math.max(x.length, y.length);
  const limit = Math.ceil(max * 0.2);
  const d = levenshtein(x, y, limit);
  return d > limit ? 0 : 1 - d / max;
}

/**
 * The stakeholder the party is: by VAT ID, then company code, then name. A name matches when the
 * normalised names are equal, or nearly equal (one OCR slip per ten letters) and no other stakeholder
 * comes as close — never a stakeholder whose VAT ID or code differs from the party's (`identifiersDiffer`).
 */
export function matchStakeholder(party: PartyKeys | ExtractedFields, stakeholders: Stakeholder[], role: 'supplier' | 'customer' = 'supplier'): MatchResult {
  const keys: PartyKeys = 'vat_lines' in party ? partyKeys(party, role) : party;
  if (keys.vat_id) {
    const s = oneOfSameVat(keys, stakeholders.filter((x) => x.vat_id && sameVat(x.vat_id, keys.vat_id!)));
    if (s) return { isNew: false, stakeholder: s, by: 'vat_id', score: 1 };
  }
  if (keys.code) {
    const s = stakeholders.find((x) => x.code && sameCode(x.code, keys.code!));
    if (s) return { isNew: false, stakeholder: s, by: 'code', score: 1 };
  }
  if (keys.name) {
    const scored = stakeholders
      .filter((s) => !identifiersDiffer(keys, s))
      .map((s) => ({ s, score: nameSimilarity(s.name, keys.name!) }))
      .sort((a, b) => b.score - a.score);
    const best = scored[0];
    const second = scored[1];
    if (best?.score === 1) {
      const s = oneOfSameName(keys, scored.filter((c) => c.score === 1).map((c) => c.s));
      if (s) return { isNew: false, stakeholder: s, by: 'name', score: 1 };
    } else if (best && best.score >= 0.9 && (!second || second.score < best.score - 0.05)) {
      return { isNew: false, stakeholder: best.s, by: 'name', score: best.score };
    }
  }
  return { isNew: true, ...keys };
}

/**
 * Is the match sure enough to give the document the register's supplier with the ready rule's confidence: the VAT ID
 * or company code read on the document is the stakeholder's, or the names are equal once normalised (case,
 * punctuation, diacritics and legal forms aside). A name only nearly equal (`nameSimilarity` under 1) is as often
 * another shop of a similar name ("KEDAI KOPI HONG LEE" is not "KEDAI KOPI HONG KEE") as an OCR slip: it suggests the
 * stakeholder, for a person to confirm.
 */
export function isSureMatch(m: { by: 'vat_id' | 'code' | 'name'; score: number }): boolean {
  return m.by !== 'name' || m.score >= 1;
}

/**
 * Exact look-ups in a company's register of one type (suppliers or customers), and a bounded page of
 * stakeholders whose names share a word with a name (for names read with an OCR slip).
 */
export interface StakeholderLookup {
  /** The stakeholders with this VAT ID, oldest first, at most SAME_VAT_LIMIT (a VAT group shares one). */
  byVat(compactVat: string): Promise<Stakeholder[]>;
  byCode(compactCode: string): Promise<Stakeholder | undefined>;
  /** The stakeholders whose names normalise to this one, oldest first, at most SAME_NAME_LIMIT. */
  byName(normalisedName: string): Promise<Stakeholder[]>;
  /** At most NAME_CANDIDATES stakeholders having a word of the name that starts with this prefix. */
  nameCandidates(prefix: string): Promise<Stakeholder[]>;
}

/** Stakeholders compared by name similarity per candidate page, when no key matched exactly. */
export const NAME_CANDIDATES = 20;
/** Candidate pages per name: one per word, the longest words first. */
export const NAME_CANDIDATE_WORDS = 3;
/** Stakeholders read whose names normalise alike (companies of one group: `MR. D.I.Y.`, `MR. D.I.Y. (M)`, …). */
export const SAME_NAME_LIMIT = 5;
/** Stakeholders read that share a VAT ID (the members of a VAT group). */
export const SAME_VAT_LIMIT = 5;
/** The product's home country: the VAT prefix of a VAT ID printed without one, when the company's is not known. */
export const HOME_COUNTRY = 'LT';

/**
 * What the fuzzy name search starts from: the first four letters of each word (four letters or more) of the
 * normalised name, the longest words first, at most NAME_CANDIDATE_WORDS. In a large register one word is shared by
 * thousands of names ("Transportas", "Prekyba"), and a page of them need not hold the party; another word of the
 * name finds it. A slip after a word's fourth letter still finds it (the store's name search matches word starts).
 */
export function candidateWords(name: string): string[] {
  const words = [...new Set(normaliseCompanyName(name).toLowerCase().split(' ').filter((w) => w.length >= 4))];
  const prefixes = words.sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0)).map((w) => w.slice(0, 4));
  return [...new Set(prefixes)].slice(0, NAME_CANDIDATE_WORDS);
}

/**
 * The VAT IDs a printed VAT ID is looked up as: as printed, then without its country letters (LT123456715 →
 * 123456715), or, printed without them, with the home country's (123456715 → LT123456715).
 */
export function vatLookupKeys(printed: string, homeCountry = HOME_COUNTRY): string[] {
  const vat = compactId(printed);
  if (vat.length < 6) return [];
  const bare = vat.replace(/^[A-Z]{2}(?=\d)/, '');
  if (bare !== vat) return bare.length >= 6 ? [vat, bare] : [vat];
  const country = compactId(homeCountry);
  return /^[A-Z]{2}$/.test(country) && !/^[A-Z]{2}/.test(vat) ? [vat, `${country}${vat}`] : [vat];
}

/**
 * The stakeholder of a party in a register, in matchStakeholder's order, with at most 4 + NAME_CANDIDATE_WORDS
 * look-ups: VAT ID (`vatLookupKeys`: as printed, then with or without its country letters; of several stakeholders
 * with it, `oneOfSameVat`), company code, normalised name, then a page of name candidates per word of the name
 * (`candidateWords`) judged together by `nameSimilarity` like matchStakeholder does.
 */
export async function lookupStakeholder(keys: PartyKeys, lookup: StakeholderLookup, homeCountry = HOME_COUNTRY): Promise<MatchResult> {
  if (keys.vat_id) {
    for (const vat of vatLookupKeys(keys.vat_id, homeCountry)) {
      const s = oneOfSameVat(keys, await lookup.byVat(vat));
      if (s) return { isNew: false, stakeholder: s, by: 'vat_id', score: 1 };
    }
  }
  if (keys.code) {
    const code = compactId(keys.code);
    if (code.replace(/[^A-Z0-9]/g, '').length >= 3) {
      const s = await lookup.byCode(code);
      if (s) return { isNew: false, stakeholder: s, by: 'code', score: 1 };
    }
  }
  if (keys.name) {
    const normalised = normaliseCompanyName(keys.name);
    if (normalised) {
      const sameName = await lookup.byName(normalised);
      const s = oneOfSameName(keys, sameName);
      if (s) return { isNew: false, stakeholder: s, by: 'name', score: 1 };
      // A name several companies share is no fuzzy match either.
      if (sameName.length) return { isNew: true, ...keys };
      const candidates = new Map<string, Stakeholder>();
      for (const prefix of candidateWords(keys.name)) {
        for (const c of (await lookup.nameCandidates(prefix)).slice(0, NAME_CANDIDATES)) candidates.set(c.id, c);
      }
      if (candidates.size) {
        const m = matchStakeholder({ name: keys.name, ...(keys.vat_id ? { vat_id: keys.vat_id } : {}), ...(keys.code ? { code: keys.code } : {}) }, [...candidates.values()]);
        if (!m.isNew) return m;
      }
    }
  }
  return { isNew: true, ...keys };
}

export interface CatalogueItem {
  id: string;
  name: string;
  code?: string;
  category_id?: string;
  /** Words (or phrases) that name the item on documents, as kept in the item register. */
  words?: string[];
}

export type ItemMatch = { isNew: false; item: CatalogueItem; by: 'code' | 'item_word' | 'words'; score: number } | { isNew: true };

const STOP_WORDS = new Set(['the', 'and', 'for', 'of', 'with', 'ir', 'su', 'be', 'x', 'pcs', 'vnt', 'kg', 'g', 'ml', 'l', 'm']);

function words(s: string): Set<string> {
  return new Set(
    normaliseForCompare(s)
      .split(' ')
      .filter((w) => w.length > 1 && !STOP_WORDS.has(w)),
  );
}

/** Share of words in common (Jaccard) between a description and a catalogue name. */
export function wordOverlap(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (!x.size || !y.size) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return common / (x.size + y.size - common);
}

/** True when the phrase's words appear in the text, in order and whole (case, accents and punctuation ignored). */
export function containsPhrase(text: string, phrase: string): boolean {
  const t = normaliseForCompare(text);
  const p = normaliseForCompare(phrase);
  if (!t || !p) return false;
  return ` ${t} `.includes(` ${p} `);
}

/**
 * The words of the description an item's words cover: every word of each item word (or phrase) found in the
 * description as whole words, each once (case, accents and punctuation ignored; item words under 2 characters
 * are none).
 */
function coveredWords(description: string[], itemWords: string[]): Set<string> {
  const covered = new Set<string>();
  for (const w of itemWords) {
    const phrase = normaliseForCompare(w);
    if (phrase.length < 2) continue;
    const parts = phrase.split(' ');
    for (let i = 0; i + parts.length <= description.length; i++) {
      if (parts.every((p, j) => description[i + j] === p)) for (const p of parts) covered.add(p);
    }
  }
  return covered;
}

/** The candidates with the highest score; several are a tie unless they are one item. */
function best<T extends { item: CatalogueItem }>(candidates: T[], score: (c: T) => number): T[] {
  const top = Math.max(...candidates.map(score));
  return candidates.filter((c) => score(c) === top);
}
const oneItem = (cs: { item: CatalogueItem }[]) => new Set(cs.map((c) => c.item.id)).size === 1;

/**
 * The catalogue item of a line: by product code; else by the item's words (or phrases) found in the description,
 * each item scored by all the description words its words cover (their total length, each word once), a tie
 * broken by the share of words its name has in common with the description (`wordOverlap`); else by the words
 * of its name (≥ half in common). Items that still tie leave the line unmatched: an item is never chosen by its
 * place in the catalogue.
 */
export function matchItem(line: { product_code?: string; description?: string }, catalogue: CatalogueItem[], minOverlap = 0.5): ItemMatch {
  if (line.product_code) {
    const byCode = catalogue.find((c) => c.code && sameCode(c.code, line.product_code!));
    if (byCode) return { isNew: false, item: byCode, by: 'code', score: 1 };
  }
  if (!line.description) return { isNew: true };
  const description = normaliseForCompare(line.description).split(' ').filter((w) => w !== '');
  const byWords = catalogue.flatMap((item) => {
    const covered = coveredWords(description, item.words ?? []);
    let length = 0;
    for (const w of covered) length += w.length;
    return length > 0 ? [{ item, length }] : [];
  });
  if (byWords.length) {
    const top = best(byWords, (c) => c.length);
    const chosen = oneItem(top) ? top : best(top, (c) => wordOverlap(line.description!, c.item.name));
    return oneItem(chosen) ? { isNew: false, item: chosen[0]!.item, by: 'item_word', score: 1 } : { isNew: true };
  }
  const byName = catalogue.map((item) => ({ item, score: wordOverlap(line.description!, item.name) })).filter((c) => c.score >= minOverlap);
  if (byName.length) {
    const top = best(byName, (c) => c.score);
    if (oneItem(top)) return { isNew: false, item: top[0]!.item, by: 'words', score: top[0]!.score };
  }
  return { isNew: true };
}

/** Every line item of an extraction matched to the catalogue. */
export function matchLineItems(fields: ExtractedFields, catalogue: CatalogueItem[]): ItemMatch[] {
  return fields.line_items.map((li) =>
    matchItem(
      {
        ...(li.product_code ? { product_code: li.product_code.value } : {}),
        ...(li.description ? { description: li.description.value } : {}),
      },
      catalogue,
    ),
  );
}
