import type { SqlMappingSaved } from '../../../../../shared/schemas/master-data-sync';

/** What the editor says after a save: checked against the database, or saved without the check and why. */
export function mappingSavedText(saved: Pick<SqlMappingSaved, 'unchecked'>): string {
  if (saved.unchecked === null) return 'Mapping saved; the next sync reads with it.';
  return `Mapping saved, but it could not be checked against the database: ${saved.unchecked}`;
}
