/**
 * Supplier/customer on the edit screen (rules.md 5): a name or code that matches an existing stakeholder
 * selects it; otherwise the field shows the "new" marker and the note NOTE: new Supplier & Customer. Whether
 * it matches is the server's answer (GET /isNewStakeholder): one definition of matching, on the server.
 */
import type { Stakeholder } from '../../../../../shared/schemas/master-data';

export const NEW_STAKEHOLDER_NOTE = 'NOTE: new Supplier & Customer';

/** The fields of the form that a stakeholder chosen from the suggestions fills (content ids of the header). */
export function stakeholderValues(s: Pick<Stakeholder, 'name' | 'code' | 'vat_id' | 'street' | 'city' | 'zipcode' | 'country' | 'selected_date_format'>, kind: 'supplier' | 'customer'): Record<string, string> {
  return {
    [`${kind}_name`]: s.name,
    [`${kind}_code`]: s.code,
    [`${kind}_vat_id`]: s.vat_id,
    [`${kind}_street`]: s.street,
    [`${kind}_city`]: s.city,
    [`${kind}_zipcode`]: s.zipcode,
    [`${kind}_country`]: s.country,
    ...(s.selected_date_format ? { [`${kind}_date_format`]: s.selected_date_format } : {}),
  };
}

/**
 * The marker shows when something was captured and the server said that it matches no stakeholder for the
 * name and code the form holds now (an answer for other values, or none yet, shows nothing).
 */
export function showNewMarker(answer: { name: string; code: string; isNewStakeholder: boolean } | undefined, name: string, code: string): boolean {
  if (!name.trim() && !code.trim()) return false;
  return Boolean(answer && answer.name === name.trim() && answer.code === code.trim() && answer.isNewStakeholder);
}

/** What a pick of a register's supplier or customer wrote into the form: its values by field id, under which name. */
export interface PartyPick {
  receiptId: string;
  nameId: string;
  name: string;
  values: Readonly<Record<string, string>>;
}

/** A name as a retyping compares it: without case, spaces and signs ("Ignitis, UAB" is "Ignitis UAB"). */
const pickNameKey = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The fields a pick filled that go when its name is retyped into another party's name: the values the pick wrote
 * that the form still holds, emptied. A bookkeeper who retypes the supplier means another one, and the picked one's
 * code, VAT ID, address and date format are not theirs: kept, they would be exported under the typed name, and the
 * code would link the picked supplier again on CONFIRM (docs/decisions.md "a typed name takes the register's numbers
 * away"). null while the name is still the picked one, spelt otherwise only in case, spaces or signs.
 */
export function fieldsLeftByRetypedName(pick: PartyPick, typedName: string, valueOf: (id: string) => string): Record<string, string> | null {
  if (pickNameKey(typedName) === pickNameKey(pick.name)) return null;
  const left: Record<string, string> = {};
  for (const [id, value] of Object.entries(pick.values)) if (id !== pick.nameId && value !== '' && valueOf(id) === value) left[id] = '';
  return left;
}
