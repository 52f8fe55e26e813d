import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { Icon } from './Icon';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name'> {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Text after the input that is part of the value's meaning and stays in sight with an error (an address's domain). */
  suffix?: string;
}

export function TextField({ name, label, error, hint, suffix, type = 'text', className, ...rest }: TextFieldProps) {
  const id = useId();
  const [reveal, setReveal] = useState(false);
  const isPassword = type === 'password';
  const errorId = `${id}-error`;
  return (
    <div className={['field', error ? 'has-error' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className={suffix ? 'field-control field-control-suffixed' : 'field-control'}>
        <input
          id={id}
          name={name}
          type={isPassword && reveal ? 'text' : type}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="input"
          {...rest}
        />
        {suffix && (
          <span className="field-suffix" aria-hidden="true">
            {suffix}
          </span>
        )}
        {isPassword && (
          <button
            type="button"
            className="field-reveal"
            onClick={() => setReveal((v) => !v)}
            aria-label={reveal ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          >
            <Icon name={reveal ? 'eyeOff' : 'eye'} size={18} />
          </button>
        )}
      </div>
      {error ? (
        <p id={errorId} className="field-error" role="alert" data-testid={`error-${name}`}>
          {error}
        </p>
      ) : (
        hint && <p className="field-hint">{hint}</p>
      )}
    </div>
  );
}
