import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useDialogLayer } from '../../../components/ui/dialog-layer';
import { Icon } from '../../../components/ui/Icon';

/** A panel sliding in from the right (email details, full-picture preview); Escape or the backdrop closes it. A modal dialog like Modal (dialog-layer.ts): it takes the focus, keeps Tab inside and gives the focus back. */
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
  const panelRef = useRef<HTMLElement>(null);
  useDialogLayer(panelRef, onClose, 'container');

  return createPortal(
    <div
      className="side-panel-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <aside ref={panelRef} tabIndex={-1} className={`side-panel ${wide ? 'side-panel-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid={testId}>
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
