import { useState, type KeyboardEvent } from 'react';

/**
 * The keyboard of a combobox (an input with a list of options under it, the focus staying in the input):
 * ArrowDown opens the list or moves to the next option, ArrowUp to the previous one, Enter chooses the active
 * option, Escape closes the list. Keys with Alt, Ctrl or Meta are left alone (the edit screen's shortcuts).
 */
export type ComboboxCommand = { kind: 'open' } | { kind: 'move'; active: number } | { kind: 'choose'; index: number } | { kind: 'close' } | null;

export interface ComboboxKey {
  key: string;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

export function comboboxCommand(e: ComboboxKey, s: { open: boolean; count: number; active: number }): ComboboxCommand {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  switch (e.key) {
    case 'ArrowDown':
      return s.open ? { kind: 'move', active: Math.min(s.active + 1, s.count - 1) } : { kind: 'open' };
    case 'ArrowUp':
      return { kind: 'move', active: Math.max(s.active - 1, 0) };
    case 'Enter':
      return s.open && s.active >= 0 && s.active < s.count ? { kind: 'choose', index: s.active } : null;
    case 'Escape':
      return s.open ? { kind: 'close' } : null;
  }
  return null;
}

export interface ComboboxInputProps {
  role: 'combobox';
  'aria-expanded': boolean;
  'aria-controls': string;
  'aria-autocomplete': 'list';
  'aria-activedescendant': string | undefined;
  onKeyDown(e: KeyboardEvent<HTMLElement>): void;
}

/**
 * The state and input attributes of a combobox over `items`: `id` names the list (`${id}-list`) and its
 * options (`optionId(i)`); `initialActive` is the option active when the list opens (-1: none until ArrowDown).
 */
export function useCombobox<T>({
  id,
  items,
  open,
  onOpen,
  onChoose,
  onClose,
  initialActive = 0,
}: {
  id: string;
  items: readonly T[];
  open: boolean;
  onOpen?(): void;
  onChoose(item: T): void;
  onClose(): void;
  initialActive?: number;
}) {
  const [active, setActive] = useState(initialActive);
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const c = comboboxCommand(e, { open, count: items.length, active });
    if (!c) return;
    e.preventDefault();
    if (c.kind === 'open') onOpen?.();
    else if (c.kind === 'move') setActive(c.active);
    else if (c.kind === 'choose') onChoose(items[c.index]!);
    else {
      // The list closes; Escape goes no further (a dialog or the edit screen would act on it too).
      e.stopPropagation();
      onClose();
    }
  };
  const inputProps: ComboboxInputProps = {
    role: 'combobox',
    'aria-expanded': open,
    'aria-controls': listId,
    'aria-autocomplete': 'list',
    'aria-activedescendant': open && active >= 0 && active < items.length ? optionId(active) : undefined,
    onKeyDown,
  };
  return { active, setActive, listId, optionId, inputProps };
}
