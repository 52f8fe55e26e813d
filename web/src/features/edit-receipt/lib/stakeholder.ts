/**
 * Supplier/customer matching (rules.md 5): a name or code that matches an existing stakeholder selects it;
 * otherwise the field shows the "new" marker and the note NOTE: new Supplier & Customer.
 */
export const NEW_STAKEHOLDER_NOTE = 'NOTE: new Supplier & Customer';

export interface StakeholderLike {
  id: string;
  name: string;
  code?: string | null;
  type?: string;
}

const fold = (s: string | null | undefined) =>
  (s ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

export function matchStakeholder(list: StakeholderLike[], name: string, code: string): StakeholderLike | null {
  const c = fold(code);
  if (c) {
    const byCode = list.find((s) => fold(s.code) === c);
    if (byCode) return byCode;
  }
  const n = fold(name);
  if (!n) return null;
  return list.find((s) => fold(s.name) === n) ?? null;
}

/** The marker shows when something was captured and nothing matched. */
export function isNewStakeholder(list: StakeholderLike[], name: string, code: string): boolean {
  if (!name.trim() && !code.trim()) return false;
  return matchStakeholder(list, name, code) === null;
}
