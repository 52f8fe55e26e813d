import { formatDistance } from 'date-fns';
import { Link } from 'react-router-dom';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { Icon } from '../../../components/ui/Icon';
import { messageOf } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { documentTarget, noDocumentReason } from '../../settings/lib/mail-received';
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

/**
 * The email a document arrived with: subject, from, arrival time, attached documents (each opens its edit screen),
 * what was not taken and why (its parts, its sender, no attachment: as Settings' Mail received says it), message text
 * (as text, never HTML). `onOpenDocument`: a document link was followed.
 */
export function EmailPanel({ emailId, companyId, onClose, onOpenDocument }: { emailId: string; companyId: string | undefined; onClose(): void; onOpenDocument?(): void }) {
  const email = useEmail(emailId, companyId);
  const data = email.data;
  const files = data?.files ?? [];
  const rejected = data?.rejected_files ?? [];
  const documentsCompany = data?.company_id ?? companyId;
  // a refused sender's mail without parts says why alone (with parts, each part says it), as does one without attachments
  const refusedSender = data?.sender_refused && rejected.length === 0 ? data.sender_refused : null;
  const noDocument = data ? noDocumentReason({ state: data.state ?? 'done', files, rejected_files: rejected, sender_refused: data.sender_refused ?? null, auth: data.auth ?? null }) : null;
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
              {files.map((f) => {
                const name = f.original_file_name || f.receipt_id;
                const target = documentsCompany ? documentTarget(f.receipt_id, documentsCompany) : null;
                return (
                  <li key={f.receipt_id}>
                    <DocIcon name="file" size={16} />
                    {target ? (
                      <Link to={{ pathname: target.pathname, search: target.search }} state={target.state} onClick={onOpenDocument}>
                        {name}
                      </Link>
                    ) : (
                      <span>{name}</span>
                    )}
                    {f.failed && <span className="email-file-failed">Failed: {f.failed}</span>}
                  </li>
                );
              })}
            </ul>
            {(refusedSender || noDocument) && (
              <p className="muted" data-testid="email-not-taken">
                {refusedSender ?? noDocument}
              </p>
            )}
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
