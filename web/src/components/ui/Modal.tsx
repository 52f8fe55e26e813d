import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useDialogLayer } from './dialog-layer';
import { Icon } from './Icon';

export interface ModalProps {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  /** Omit to make the modal non-dismissible (no close button, Escape and backdrop do nothing). */
  onClose?: () => void;
  size?: 'sm' | 'md' | 'lg';
  testId?: string;
  /**
   * false: the screen behind is dimmed, not blurred. A blurred backdrop is drawn again with every frame the dialog
   * changes (about 100 ms a frame where the browser composites in software): a dialog typed in (the edit screen's
   * Lines pop-up) goes without it.
   */
  blur?: boolean;
  /** Asked when the modal closes: where the focus goes (else back to what opened it; dialog-layer.ts). */
  returnFocus?: () => HTMLElement | null | undefined;
}

export function Modal({ title, children, footer, onClose, size = 'md', testId, blur = true, returnFocus }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useDialogLayer(dialogRef, onClose, 'first', returnFocus);

  return createPortal(
    <div
      className="modal-backdrop"
      style={blur ? undefined : { backdropFilter: 'none' }}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose?.();
      }}
    >
      <div
        ref={dialogRef}
        className={`modal modal-${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
      >
        <div className="modal-header">
          <h2 id={titleId} className="modal-title">
            {title}
          </h2>
          {onClose && (
            <button type="button" className="icon-btn" aria-label="Close" onClick={onClose} data-modal-close>
              <Icon name="close" size={18} />
            </button>
          )}
        </div>
        <div className="modal-body">{children}</div>
        {footer && <div className="modal-footer">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
