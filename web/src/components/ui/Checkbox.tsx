import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'name'> {
  name: string;
  label: ReactNode;
  error?: string;
}

export function Checkbox({ name, label, error, className, ...rest }: CheckboxProps) {
  const id = useId();
  return (
    <div className={['checkbox-field', error ? 'has-error' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="checkbox">
        <input id={id} type="checkbox" name={name} aria-invalid={error ? true : undefined} {...rest} />
        <span className="checkbox-box" aria-hidden="true" />
        <span className="checkbox-label">{label}</span>
      </label>
      {error && (
        <p className="field-error" role="alert" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}
