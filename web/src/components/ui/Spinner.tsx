export function Spinner({ size = 'md', label = 'Loading' }: { size?: 'sm' | 'md' | 'lg'; label?: string }) {
  return (
    <span className={`spinner spinner-${size}`} role="status" aria-label={label} data-testid="spinner">
      <span className="spinner-ring" aria-hidden="true" />
    </span>
  );
}

/** A centred loading indicator for a list or a page section while its request is pending. */
export function LoadingBlock({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading-block">
      <Spinner size="lg" label={label} />
    </div>
  );
}
