import { useEffect, useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from '../../../components/ui/Icon';

/** A panel sliding in from the right (email details, full-picture preview); Escape or the backdrop closes it. */
export function SidePanel({
  title,
  onClose,
  children,
  wide = false,
  testId,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  wide?: boolean;
  testId?: string;
}) {
  const titleId = useId();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return createPortal(
    <div
      className="side-panel-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <aside className={`side-panel ${wide ? 'side-panel-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid={testId}>
        <div className="side-panel-head">
          <h2 id={titleId} className="side-panel-title">
            {title}
          </h2>
          <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
            <Icon name="close" size={18} />
          </button>
        </div>
        <div className="side-panel-body">{children}</div>
      </aside>
    </div>,
    document.body,
  );
}
