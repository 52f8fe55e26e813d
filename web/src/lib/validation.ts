import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

export type ValidationResult<O> = { ok: true; data: O; errors: FieldErrors } | { ok: false; errors: FieldErrors };

export type Validator<V, O> = (values: V) => ValidationResult<O>;

interface IssueLike {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/** First message per field (path joined with '.'), in the order the schema reported them. */
export function issuesToFieldErrors(issues: ReadonlyArray<IssueLike>): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map((p) => String(p)).join('.');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

export function zodValidator<S extends z.ZodType>(schema: S): Validator<unknown, z.output<S>> {
  return (values) => {
    const r = schema.safeParse(values);
    if (r.success) return { ok: true, data: r.data, errors: {} };
    return { ok: false, errors: issuesToFieldErrors(r.error.issues) };
  };
}

/**
 * Zod skips an object's refinements while any field is invalid, so "repeat password" would stay silent
 * until the whole form is valid. This adds the mismatch message to `field` as soon as both are filled.
 */
export function withMatch<V extends Record<string, unknown>, O>(
  validator: Validator<V, O>,
  field: keyof V & string,
  other: keyof V & string,
  message: string,
): Validator<V, O> {
  return (values) => {
    const r = validator(values);
    const a = values[field];
    const b = values[other];
    if (!r.ok && !(field in r.errors) && typeof a === 'string' && a !== '' && a !== b) {
      return { ok: false, errors: { ...r.errors, [field]: message } };
    }
    return r;
  };
}

/** The fields whose value differs from the initial value (after trimming strings). */
export function changedFields<T extends Record<string, unknown>>(initial: T, current: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(current) as Array<keyof T>) {
    const a = initial[key];
    const b = current[key];
    const same = typeof a === 'string' && typeof b === 'string' ? a.trim() === b.trim() : a === b;
    if (!same) out[key] = b;
  }
  return out;
}
