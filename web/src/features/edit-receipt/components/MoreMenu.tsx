import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { menuStep } from '../../receipts/components/ToolsMenu';
import { EditIcon } from './EditIcons';

export interface MoreAction {
  label: string;
  onSelect(): void;
  disabled?: boolean;
  tone?: 'danger';
  /** Something to look at (duplicates found): marked in the menu, and a dot on the More button. */
  warn?: boolean;
}

/**
 * The edit screen's overflow menu on narrow screens (the documents list's Tools menu pattern): a More button and its
 * list of actions; closes on a choice, a tap or click outside, Escape and Tab. Arrows, Home and End move among the
 * enabled actions; Escape and a choice give the focus back to the button.
 */
export function MoreMenu({ actions }: { actions: MoreAction[] }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

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

  return (
    <div className="menu-root er-more" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-btn"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label="More"
        title="More"
        data-testid="more-actions"
        onClick={() => setOpen((v) => !v)}
      >
        <EditIcon name="more" strokeWidth={3} />
        {actions.some((a) => a.warn) && <span className="er-more-dot" aria-hidden="true" />}
      </button>
      {open && (
        <div className="menu er-more-menu" role="menu" id={menuId} aria-label="More" onKeyDown={onMenuKey}>
          {actions.map((a) => (
            <button
              key={a.label}
              type="button"
              role="menuitem"
              className={`menu-item ${a.tone === 'danger' ? 'er-more-danger' : ''} ${a.warn ? 'is-warn' : ''}`}
              disabled={a.disabled}
              onClick={() => {
                // Back on the button first: a dialog the action opens gives the focus back to it.
                buttonRef.current?.focus();
                setOpen(false);
                a.onSelect();
              }}
            >
              {a.label}
              {a.warn && <span className="er-more-dot" aria-hidden="true" />}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
