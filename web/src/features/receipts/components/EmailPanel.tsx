import { formatDistance } from 'date-fns';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { Icon } from '../../../components/ui/Icon';
import { messageOf } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useEmail } from '../api/receipts';
import type { EmailRecord } from '../api/types';
import { DocIcon } from './DocIcon';
import { SidePanel } from './SidePanel';

/** 'DD MMM YY HH:mm (3 hours ago)'; '' when unknown. */
export function arrivalText(arrivedAt: string | null | undefined, now: Date = new Date()): string {
  if (!arrivedAt) return '';
  const d = new Date(arrivedAt);
  if (Number.isNaN(d.getTime())) return '';
  const relative = formatDistance(d, now, { addSuffix: true });
  return `${formatDateTime(arrivedAt)} (${relative})`;
}

/** 'SPF pass · DKIM none · DMARC none'; '' when the mail server reported nothing. */
export function checksText(auth: EmailRecord['auth']): string {
  if (!auth) return '';
  const parts = [
    ['SPF', auth.spf],
    ['DKIM', auth.dkim],
    ['DMARC', auth.dmarc],
  ].filter(([, v]) => v && v !== 'unknown');
  return parts.map(([k, v]) => `${k} ${v}`).join(' · ');
}

/** The email a document arrived with: subject, from, arrival time, attached documents, message text (as text, never HTML). */
export function EmailPanel({ emailId, companyId, onClose }: { emailId: string; companyId: string | undefined; onClose(): void }) {
  const email = useEmail(emailId, companyId);
  const data = email.data;
  const files = data?.files ?? [];
  const rejected = data?.rejected_files ?? [];
  const checks = checksText(data?.auth);
  const warning = data?.auth?.warning;
  return (
    <SidePanel title="Email" onClose={onClose} testId="email-panel">
      {email.isPending ? (
        <LoadingBlock label="Loading email" />
      ) : email.isError ? (
        <p className="notice notice-error">{messageOf(email.error)}</p>
      ) : (
        <div className="email-detail">
          <h3 className="email-subject">{data?.subject || '(no subject)'}</h3>
          {warning && (
            <p className="notice notice-error email-warning" role="alert" data-testid="email-sender-warning">
              {warning}
            </p>
          )}
          <dl className="facts email-facts">
            <dt>From</dt>
            <dd className={warning ? 'email-from-untrusted' : undefined}>{data?.from || '—'}</dd>
            {data?.to && (
              <>
                <dt>To</dt>
                <dd>{data.to}</dd>
              </>
            )}
            <dt>Arrived</dt>
            <dd>{arrivalText(data?.arrived_at) || '—'}</dd>
            {checks && (
              <>
                <dt>Sender checks</dt>
                <dd>{checks}</dd>
              </>
            )}
          </dl>
          <section className="email-files" aria-label="Attached documents">
            <h4>
              <Icon name="mail" size={16} /> {files.length} {files.length === 1 ? 'attached document' : 'attached documents'}
            </h4>
            <ul>
              {files.map((f) => (
                <li key={f.receipt_id}>
                  <DocIcon name="file" size={16} />
                  <span>{f.original_file_name || f.receipt_id}</span>
                </li>
              ))}
            </ul>
            {rejected.length > 0 && (
              <>
                <h4>Not taken from this email</h4>
                <ul className="email-rejected">
                  {rejected.map((f, i) => (
                    <li key={`${f.original_file_name}-${i}`}>
                      <span>{f.original_file_name}</span>
                      <span className="muted">{f.reason}</span>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </section>
          {data?.text ? <div className="email-text">{data.text}</div> : <p className="muted">No message text</p>}
        </div>
      )}
    </SidePanel>
  );
}
