/**
 * An edit made on a record someone else saved since the editor read it (two tabs, two colleagues): the PUT carries
 * `before`, the values it started from, of the fields it changes. A field whose stored value is no longer that is
 * refused (409, nothing written) with what it is now, rather than overwritten without a word; the edit pop-up then
 * takes the record as it is and a second Save keeps the editor's values knowingly. Fields the other save did not
 * touch merge as before (only changed fields are sent), and a field both set to the same value is no conflict.
 */
import { conflict, type AppError } from '../../../shared/errors';
import type { EditedFrom } from '../../../shared/schemas/master-data';

/** The fields of `wanted` (field → value to store) that someone else changed since `before` was read. */
export function changedMeanwhile(record: object, wanted: object, before: EditedFrom, storedOf: (field: string, value: unknown) => unknown): string[] {
  if (!before) return [];
  const current = record as Readonly<Record<string, unknown>>;
  const asked = wanted as Readonly<Record<string, unknown>>;
  return Object.keys(asked).filter((field) => Object.hasOwn(before, field) && storedOf(field, before[field]) !== current[field] && asked[field] !== current[field]);
}

/** The 409 of an edit whose `fields` someone else changed: each field says what it is now (a reference, only that it changed). */
export function changedMeanwhileError(what: string, fields: readonly string[], record: object, references: readonly string[] = []): AppError {
  const now = (field: string) => {
    if (references.includes(field)) return 'Changed by someone else meanwhile: Save again to keep yours';
    const value = (record as Readonly<Record<string, unknown>>)[field];
    return typeof value === 'string' && value !== '' ? `Changed by someone else meanwhile to "${value}": Save again to keep yours` : 'Emptied by someone else meanwhile: Save again to keep yours';
  };
  return conflict(
    `This ${what} was changed by someone else meanwhile`,
    fields.map((field) => ({ path: [field], message: now(field) })),
  );
}
