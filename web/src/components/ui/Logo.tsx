export function Logo({ compact = false, inverted = false }: { compact?: boolean; inverted?: boolean }) {
  return (
    <span className={`logo ${inverted ? 'logo-inverted' : ''}`} aria-label="Receipts Capture">
      <svg className="logo-mark" width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#2563eb" />
        <path d="M10 7h12v18l-3-2-3 2-3-2-3 2z" fill="#fff" />
        <path d="M13 12h6M13 15.5h6M13 19h3.5" stroke="#2563eb" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      {!compact && (
        <span className="logo-text">
          Receipts<span className="logo-text-accent">Capture</span>
        </span>
      )}
    </span>
  );
}
