import { useCallback, useState } from 'react';

interface EditForm<V> {
  setValue<K extends keyof V>(key: K, value: V[K]): void;
}

/**
 * What an edit pop-up's changes are made on: the record as read, then, after a refused save (someone else changed
 * a field meanwhile, or a name taken), the record as stored now. `takeStored` keeps the fields typed in the form (a
 * second Save keeps them knowingly) and shows the others as stored now; the server's `before` check
 * (edited-from.ts) is then made against the new base.
 */
export function useEditBase<V extends Record<string, unknown>>(initial: V) {
  const [base, setBase] = useState(initial);
  const takeStored = useCallback(
    (form: EditForm<V>, typed: V, now: V | null) => {
      if (!now) return;
      for (const key of Object.keys(now) as (keyof V)[]) {
        if (typed[key] === base[key] && now[key] !== base[key]) form.setValue(key, now[key]);
      }
      setBase(now);
    },
    [base],
  );
  return { base, takeStored };
}
