import { stakeholderKind } from '../content/schema';
import { valueOf } from '../content/tree';
import type { ExportDocument } from './fields';

/**
 * Whether the document names its party at all (a name, code or VAT ID). An accounting system books a document
 * against a client: one without any would become a nameless client, so the Rivile EIP file refuses it (a confirm,
 * and so a send to NSOFT or Rivile, needs the supplier's or customer's name already).
 */
export function namesParty(doc: ExportDocument): boolean {
  const kind = stakeholderKind(doc.receipt_type);
  return [`${kind}_name`, `${kind}_code`, `${kind}_vat_id`].some((id) => valueOf(doc.content, id).trim() !== '');
}

/**
 * The master records of an export file that lists each supplier or customer once (i.SAF's MasterFiles, Rivile EIP's
 * N08), by their code, from the documents that name them. Documents of one code may say more or less of it (one
 * gives the VAT ID, a later one leaves it out): each field is the newest document's that gives it (by issue date,
 * then upload time), so a document without a value never blanks one another gave, and the file is the same
 * whatever the order of the selection.
 */
export function partiesByCode<D extends ExportDocument, R extends Record<string, unknown>>(
  docs: ReadonlyArray<D>,
  recordOf: (doc: D) => { code: string; record: R } | null,
  given: (value: unknown) => boolean,
): Map<string, R> {
  const newestLast = [...docs].sort((a, b) => documentOrder(a).localeCompare(documentOrder(b)));
  const parties = new Map<string, R>();
  for (const doc of newestLast) {
    const found = recordOf(doc);
    if (!found) continue;
    const before = parties.get(found.code);
    if (!before) {
      parties.set(found.code, found.record);
      continue;
    }
    const merged: Record<string, unknown> = { ...before };
    for (const [field, value] of Object.entries(found.record)) if (given(value) || !given(before[field])) merged[field] = value;
    parties.set(found.code, merged as R);
  }
  return parties;
}

function documentOrder(doc: ExportDocument): string {
  return `${valueOf(doc.content, 'issue_date').trim()}|${doc.created_at}|${doc.receipt_id}`;
}

/**
 * A party's country (ISO 3166 alpha-2) for an accounting file: the document's Country when it is a code, else the
 * country of its VAT ID's prefix (an EU VAT ID starts with its country's code; Greece's is EL), else the country a
 * post code names by its prefix ("LT-03154"); null when nothing says.
 */
export function partyCountry(vat: string, country: string, zipcode = ''): string | null {
  const c = country.trim().toUpperCase();
  if (/^[A-Z]{2}$/.test(c)) return c;
  const fromVat = /^([A-Z]{2})[0-9A-Z]/.exec(vat.replace(/\s+/g, '').toUpperCase())?.[1];
  if (fromVat) return fromVat === 'EL' ? 'GR' : fromVat;
  return /^([A-Z]{2})-\d/.exec(zipcode.trim().toUpperCase())?.[1] ?? null;
}

/**
 * A one-line address that ends in its post code and town after the last comma, as an address is printed on a
 * document and read from it into Street ("Savanorių pr. 178, LT-03154 Vilnius", "Hauptstraße 5, 10115 Berlin"):
 * the street, the post code (4 or 5 digits, with its country letters when written) and the town; null for any other
 * shape, which is then kept whole as the street.
 */
export function postalParts(address: string): { street: string; zipcode: string; city: string } | null {
  const m = /^(.*\S)\s*,\s*((?:[A-Za-z]{2}-)?\d{4,5})\s+(\p{L}[\p{L}\p{M} .'-]*)$/u.exec(address.trim());
  if (!m) return null;
  return { street: m[1]!.trim(), zipcode: m[2]!.toUpperCase(), city: m[3]!.trim() };
}

/**
 * A party's address as the accounting files give it (Rivile's client N08, NSOFT's partner): the document's street,
 * city and post code, or, without a city or post code of its own, those a one-line address read into Street ends
 * in (`postalParts`); the country by `partyCountry`. `value` reads a field of the document by its id.
 */
export function partyAddress(
  value: (id: string) => string,
  kind: 'supplier' | 'customer',
): { street: string; city: string; zipcode: string; country: string | null } {
  const vat = value(`${kind}_vat_id`).replace(/\s+/g, '');
  const given = { street: value(`${kind}_street`), city: value(`${kind}_city`), zipcode: value(`${kind}_zipcode`) };
  const address = !given.city.trim() && !given.zipcode.trim() ? (postalParts(given.street) ?? given) : given;
  return { ...address, country: partyCountry(vat, value(`${kind}_country`), address.zipcode) };
}
