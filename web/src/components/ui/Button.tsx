import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from './Spinner';
import './a11y.css';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'link';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Working on it: a spinner; like `busy`. */
  loading?: boolean;
  /**
   * Unavailable for a moment while something works: the button says so (aria-disabled, aria-busy) and ignores
   * clicks, but keeps the focus (a natively disabled button drops it to <body>). `disabled`: not available at all.
   */
  busy?: boolean;
  block?: boolean;
  icon?: ReactNode;
}

export function Button({
  variant = 'primary',
  loading = false,
  busy = false,
  block = false,
  icon,
  className,
  children,
  disabled,
  type = 'button',
  onClick,
  ...rest
}: ButtonProps) {
  const waiting = loading || busy;
  const classes = ['btn', `btn-${variant}`, block ? 'btn-block' : '', loading ? 'is-loading' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled}
      aria-disabled={waiting || undefined}
      aria-busy={waiting || undefined}
      {...rest}
      onClick={(e) => {
        // a form's submit button too: no second submit while the first works
        if (waiting) e.preventDefault();
        else onClick?.(e);
      }}
    >
      {loading ? <Spinner size="sm" label="Please wait" /> : icon}
      {children !== undefined && <span className="btn-label">{children}</span>}
    </button>
  );
}
