import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { DocIcon } from './DocIcon';

export interface MenuAction {
  label: string;
  onSelect(): void;
  disabled?: boolean;
}

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
 * A small drop-down menu (button + list of actions); closes on choice, outside click, Escape and Tab. Arrows,
 * Home and End move among the enabled actions; Escape and a choice give the focus back to the button, which keeps it
 * while disabled (aria-disabled).
 */
export function ToolsMenu({ label, actions, disabled }: { label: string; actions: MenuAction[]; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  // A disabled menu (nothing selected, an action running) says so with aria-disabled and does not open, but its
  // button keeps the focus: a choice puts the focus back on it, and an action that disables it while it runs
  // would otherwise drop the focus to <body>.
  useEffect(() => {
    if (disabled) setOpen(false);
  }, [disabled]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // The menu closes and nothing else takes the Escape (a dialog or screen under it).
      e.stopPropagation();
      if (rootRef.current?.contains(document.activeElement)) buttonRef.current?.focus();
      setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    rootRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]:not(:disabled)')?.focus();
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Tab') {
      // The focus goes on from the button, as if the menu were not there (the browser moves it after this).
      buttonRef.current?.focus();
      setOpen(false);
      return;
    }
    const items = [...(e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="menuitem"]'))];
    const to = menuStep(
      items.map((b) => !b.disabled),
      items.indexOf(document.activeElement as HTMLButtonElement),
      e.key,
    );
    if (to === null) return;
    e.preventDefault();
    items[to]!.focus();
  };

  return (
    <div className="menu-root" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-btn toolbar-btn"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={label}
        title={label}
        aria-disabled={disabled || undefined}
        onClick={() => {
          if (!disabled) setOpen((v) => !v);
        }}
      >
        <DocIcon name="tools" size={20} />
      </button>
      {open && (
        <div className="menu" role="menu" id={menuId} aria-label={label} onKeyDown={onMenuKey}>
          {actions.map((a) => (
            <button
              key={a.label}
              type="button"
              role="menuitem"
              className="menu-item"
              disabled={a.disabled}
              onClick={() => {
                // Back on the button first: a dialog the action opens gives the focus back to it.
                buttonRef.current?.focus();
                setOpen(false);
                a.onSelect();
              }}
            >
              {a.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
