import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

/**
 * The menu item to focus after `key` on the `at`th of items that are `enabled` or not: ArrowDown / ArrowUp the
 * next / previous enabled one (round the ends), Home / End the first / last; null for other keys.
 */
export function menuStep(enabled: readonly boolean[], at: number, key: string): number | null {
  const on = enabled.flatMap((e, i) => (e ? [i] : []));
  if (!on.length) return null;
  switch (key) {
    case 'Home':
      return on[0]!;
    case 'End':
      return on[on.length - 1]!;
    case 'ArrowDown':
      return on.find((i) => i > at) ?? on[0]!;
    case 'ArrowUp':
      return [...on].reverse().find((i) => i < at) ?? on[on.length - 1]!;
  }
  return null;
}

/**
 * A menu button and its drop-down list of actions (the documents list's Tools menu, the edit screen's More menu).
 * The button (Enter, Space or a click) opens the menu with the focus on its first enabled item; arrows, Home and End
 * move among the enabled items; Escape closes it and gives the focus back to the button, and nothing else takes that
 * Escape (a dialog or screen under it); Tab closes it and the focus goes on from the button; a click or tap outside
 * closes it; a choice closes it with the focus back on the button before its action runs. A `disabled` menu says so
 * with aria-disabled and does not open, but its button keeps the focus: a choice puts the focus back on it, and an
 * action that disables it while it runs would otherwise drop the focus to <body>.
 *
 * Spread `rootProps` on the element holding both, `buttonProps` on the button, `menuProps` on the list (with its
 * aria-label) and `itemProps(action)` on each item.
 */
export function useMenuButton(disabled = false) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (disabled) setOpen(false);
  }, [disabled]);

  useEffect(() => {
    if (!open) return;
    // pointerdown: a tap outside closes it as a click does (touch screens)
    const onDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      if (rootRef.current?.contains(document.activeElement)) buttonRef.current?.focus();
      setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey, true);
    rootRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]:not(:disabled)')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open]);

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Tab') {
      // The focus goes on from the button, as if the menu were not there (the browser moves it after this).
      buttonRef.current?.focus();
      setOpen(false);
      return;
    }
    const items = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')];
    const to = menuStep(
      items.map((b) => !b.disabled),
      items.indexOf(document.activeElement as HTMLButtonElement),
      e.key,
    );
    if (to === null) return;
    e.preventDefault();
    items[to]!.focus();
  };

  return {
    open,
    rootProps: { ref: rootRef },
    buttonProps: {
      ref: buttonRef,
      type: 'button' as const,
      'aria-haspopup': 'menu' as const,
      'aria-expanded': open,
      'aria-controls': open ? menuId : undefined,
      'aria-disabled': disabled || undefined,
      onClick: () => {
        if (!disabled) setOpen((v) => !v);
      },
    },
    menuProps: { role: 'menu', id: menuId, onKeyDown: onMenuKey },
    itemProps: (action: { onSelect(): void; disabled?: boolean }) => ({
      type: 'button' as const,
      role: 'menuitem',
      disabled: action.disabled,
      onClick: () => {
        // Back on the button first: a dialog the action opens gives the focus back to it.
        buttonRef.current?.focus();
        setOpen(false);
        action.onSelect();
      },
    }),
  };
}
