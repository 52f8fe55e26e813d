import { Fragment } from 'react';

/**
 * An e-mail address that may wrap in a narrow card: it breaks before the '@' and after the dots of its domain (where
 * a reader expects a break), not in the middle of a word. The text is the address as it is (copying it copies it).
 */
export function EmailAddress({ value }: { value: string }) {
  const at = value.lastIndexOf('@');
  if (at <= 0) return <>{value}</>;
  const domain = value.slice(at + 1).split('.');
  return (
    <>
      {value.slice(0, at)}
      <wbr />@
      {domain.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <>
              .<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
    </>
  );
}
