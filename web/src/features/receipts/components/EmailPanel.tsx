import { formatDistance } from 'date-fns';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { Icon } from '../../../components/ui/Icon';
import { messageOf } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useEmail } from '../api/receipts';
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

/** The email a document arrived with: subject, from, arrival time, attached documents, message text. */
export function EmailPanel({ emailId, companyId, onClose }: { emailId: string; companyId: string | undefined; onClose(): void }) {
  const email = useEmail(emailId, companyId);
  const data = email.data;
  const files = data?.files ?? [];
  return (
    <SidePanel title="Email" onClose={onClose} testId="email-panel">
      {email.isPending ? (
        <LoadingBlock label="Loading email" />
      ) : email.isError ? (
        <p className="notice notice-error">{messageOf(email.error)}</p>
      ) : (
        <div className="email-detail">
          <h3 className="email-subject">{data?.subject || '(no subject)'}</h3>
          <dl className="facts email-facts">
            <dt>From</dt>
            <dd>{data?.from || '—'}</dd>
            <dt>Arrived</dt>
            <dd>{arrivalText(data?.arrived_at) || '—'}</dd>
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
          </section>
          {data?.text ? <div className="email-text">{data.text}</div> : <p className="muted">No message text</p>}
        </div>
      )}
    </SidePanel>
  );
}
