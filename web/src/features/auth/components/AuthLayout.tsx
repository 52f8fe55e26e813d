import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { Logo } from '../../../components/ui/Logo';

const FEATURES: Array<{ icon: IconName; title: string; text: string }> = [
  {
    icon: 'upload',
    title: 'Upload receipts and invoices',
    text: 'Photos, PDFs and office files, from the browser, the mobile app or by email.',
  },
  {
    icon: 'scan',
    title: 'Automatic recognition',
    text: 'Supplier or customer, dates, VAT lines and totals are extracted for you.',
  },
  {
    icon: 'review',
    title: 'Review in one place',
    text: 'Check and correct the fields next to the document, then confirm.',
  },
  {
    icon: 'export',
    title: 'Export to accounting',
    text: 'XML, CSV and PDF exports, or straight into your accounting system.',
  },
];

/** The product pitch shown beside every signed-out screen. */
export function MarketingPanel() {
  return (
    <aside className="marketing" aria-label="About Receipts Capture" data-testid="marketing-panel">
      <div className="marketing-inner">
        <p className="marketing-eyebrow">Document capture for companies and accounting firms</p>
        <h2 className="marketing-title">From a pile of receipts to ready-to-book data.</h2>
        <ul className="marketing-features">
          {FEATURES.map((f) => (
            <li key={f.title}>
              <span className="marketing-icon">
                <Icon name={f.icon} size={20} />
              </span>
              <span>
                <strong>{f.title}</strong>
                <span className="marketing-text">{f.text}</span>
              </span>
            </li>
          ))}
        </ul>
        <div className="marketing-preview" aria-hidden="true">
          <div className="preview-doc">
            <div className="preview-line w80" />
            <div className="preview-line w60" />
            <div className="preview-line w90" />
            <div className="preview-line w40" />
            <div className="preview-line w70" />
            <div className="preview-total" />
          </div>
          <div className="preview-fields">
            <div className="preview-field">
              <span>Supplier</span>
              <b>Office Supplies Ltd</b>
            </div>
            <div className="preview-field">
              <span>Issue date</span>
              <b>12 Mar 25</b>
            </div>
            <div className="preview-field">
              <span>VAT</span>
              <b>21.00 %</b>
            </div>
            <div className="preview-field">
              <span>Total</span>
              <b>148.20 EUR</b>
            </div>
            <span className="preview-status">
              <Icon name="check" size={14} /> Ready
            </span>
          </div>
        </div>
      </div>
    </aside>
  );
}

export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="auth-page">
      <main className="auth-main">
        <div className="auth-box">
          <Logo />
          <h1 className="auth-title">{title}</h1>
          {subtitle && <p className="auth-subtitle">{subtitle}</p>}
          {children}
          {footer && <div className="auth-footer">{footer}</div>}
        </div>
      </main>
      <MarketingPanel />
    </div>
  );
}
