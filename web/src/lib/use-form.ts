import { useCallback, useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import type { FieldErrors, Validator } from './validation';

/** The values a form holds: text fields and check boxes. */
export type FormValues = Record<string, string | boolean>;

export interface UseForm<V extends FormValues, O> {
  values: V;
  /** Errors of the current values (all of them, shown or not). */
  errors: FieldErrors;
  pending: boolean;
  submitted: boolean;
  setValue<K extends keyof V>(name: K, value: V[K]): void;
  setServerError(name: keyof V & string, message: string): void;
  setServerErrors(errors: FieldErrors): void;
  /** The first message to show under a field: a server error, or a validation error once touched or submitted. */
  errorOf(name: keyof V & string): string | undefined;
  text(name: keyof V & string): {
    name: string;
    value: string;
    onChange: (e: ChangeEvent<HTMLInputElement>) => void;
    onBlur: () => void;
    error: string | undefined;
  };
  checkbox(name: keyof V & string): {
    name: string;
    checked: boolean;
    onChange: (e: ChangeEvent<HTMLInputElement>) => void;
    onBlur: () => void;
    error: string | undefined;
  };
  handleSubmit(onValid: (data: O) => Promise<void> | void): (e?: FormEvent) => Promise<void>;
  reset(values?: V): void;
}

/** A small form state hook: validate on submit and on touched fields, one message per field. */
export function useForm<V extends FormValues, O>(initial: V, validate: Validator<V, O>): UseForm<V, O> {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrorsState] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  const result = useMemo(() => validate(values), [validate, values]);
  const errors = result.errors;

  const setValue = useCallback(<K extends keyof V>(name: K, value: V[K]) => {
    setValues((prev) => ({ ...prev, [name]: value }));
    setServerErrorsState((prev) => {
      if (!(String(name) in prev)) return prev;
      const next = { ...prev };
      delete next[String(name)];
      return next;
    });
  }, []);

  const touch = (name: string) => setTouched((prev) => (prev[name] ? prev : { ...prev, [name]: true }));

  const errorOf = (name: keyof V & string): string | undefined =>
    serverErrors[name] ?? (touched[name] || submitted ? errors[name] : undefined);

  return {
    values,
    errors,
    pending,
    submitted,
    setValue,
    setServerError: (name, message) => setServerErrorsState((prev) => ({ ...prev, [name]: message })),
    setServerErrors: (errs) => setServerErrorsState(errs),
    errorOf,
    text: (name) => ({
      name,
      value: String(values[name] ?? ''),
      onChange: (e) => setValue(name, e.target.value as V[typeof name]),
      onBlur: () => touch(name),
      error: errorOf(name),
    }),
    checkbox: (name) => ({
      name,
      checked: Boolean(values[name]),
      onChange: (e) => {
        setValue(name, e.target.checked as V[typeof name]);
        touch(name);
      },
      onBlur: () => touch(name),
      error: errorOf(name),
    }),
    handleSubmit: (onValid) => async (e) => {
      e?.preventDefault();
      setSubmitted(true);
      setServerErrorsState({});
      if (!result.ok || pending) return;
      setPending(true);
      try {
        await onValid(result.data);
      } finally {
        setPending(false);
      }
    },
    reset: (next) => {
      setValues(next ?? initial);
      setTouched({});
      setSubmitted(false);
      setServerErrorsState({});
    },
  };
}
