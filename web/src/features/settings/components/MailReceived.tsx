import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { EmailListItem } from '../../../../../shared/schemas/emails';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { arrivalText, EmailPanel } from '../../receipts/components/EmailPanel';
import { useCompanyEmails } from '../api/emails';
import { documentTarget, noDocumentReason, outcomeText, subjectText } from '../lib/mail-received';

export const NO_MAIL = 'No mail received yet. Documents e-mailed to this address appear here.';

function MailRow({ mail, onShow, onOpenDocument }: { mail: EmailListItem; onShow(): void; onOpenDocument(): void }) {
  const subjectId = useId();
  const warning = mail.auth?.warning;
  const noDocument = noDocumentReason(mail);
  return (
    <li className="settings-email" data-testid="settings-email">
      <div className="settings-email-body">
        <div className="settings-email-head">
          <strong id={subjectId} className="settings-email-subject">
            {subjectText(mail)}
          </strong>
          {mail.receipt_type === 'invoice' && <span className="pill pill-blue">Sales</span>}
          {mail.state === 'receiving' && <span className="pill pill-orange">Receiving…</span>}
          <time className="muted settings-email-time" dateTime={mail.arrived_at} title={arrivalText(mail.arrived_at)}>
            {formatDateTime(mail.arrived_at)}
          </time>
        </div>
        <dl className="settings-email-facts">
          <dt>From</dt>
          <dd className={warning ? 'email-from-untrusted' : undefined}>{mail.from || '—'}</dd>
          <dt>To</dt>
          <dd>{mail.to || '—'}</dd>
        </dl>
        {warning && (
          <p className="notice notice-error settings-email-warning" data-testid="settings-email-warning">
            {warning}
          </p>
        )}
        <div className="settings-email-outcome">
          {/* while the mail is being received its documents are still being made: no 'No document' yet */}
          {(mail.state !== 'receiving' || mail.files.length > 0) && (
            <span className="settings-email-count" data-testid="settings-email-outcome">
              {outcomeText(mail.files.length)}
            </span>
          )}
          {mail.files.length > 0 && (
            <ul className="settings-email-docs" aria-label="Documents">
              {mail.files.map((f) => {
                const target = documentTarget(f.receipt_id, mail.company_id);
                return (
                  <li key={f.receipt_id}>
                    <Link to={{ pathname: target.pathname, search: target.search }} state={target.state} onClick={onOpenDocument}>
                      {f.original_file_name || f.receipt_id}
                    </Link>
                    {f.failed && <span className="email-file-failed">Failed: {f.failed}</span>}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        {/* a refused sender's mail without parts: the reason alone (with parts, each part says it) */}
        {mail.sender_refused && mail.rejected_files.length === 0 && (
          <p className="settings-email-refused muted" data-testid="settings-email-refused">
            {mail.sender_refused}
          </p>
        )}
        {noDocument && (
          <p className="settings-email-refused muted" data-testid="settings-email-no-attachment">
            {noDocument}
          </p>
        )}
        {mail.rejected_files.length > 0 && (
          <ul className="settings-email-rejected" aria-label="Not taken from this email">
            {mail.rejected_files.map((f, i) => (
              <li key={`${f.original_file_name}-${i}`} className="muted">
                <span className="settings-email-file">{f.original_file_name}</span>: {f.reason}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="settings-email-actions">
        <Button variant="secondary" icon={<Icon name="mail" size={16} />} aria-describedby={subjectId} onClick={onShow}>
          Show email
        </Button>
      </div>
    </li>
  );
}

/**
 * Settings' "Mail received": what came to the company's Email-in address, newest first — when, from whom, to which
 * address, the documents made from it (each opens its edit screen), the parts not taken and why; Show email opens
 * the mail with its text. `onOpenDocument`: a document link was followed (the page makes the company active).
 */
export function MailReceived({ companyId, onOpenDocument }: { companyId: string; onOpenDocument(): void }) {
  const list = useCompanyEmails(companyId);
  const [shown, setShown] = useState<string | null>(null);
  const mails = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="card settings-emails" data-testid="settings-emails" aria-labelledby="settings-emails-title">
      <div className="card-head">
        <h2 id="settings-emails-title">
          <Icon name="mail" size={18} /> Mail received
        </h2>
      </div>
      {list.isPending ? (
        <LoadingBlock label="Loading mail" />
      ) : list.isError && mails.length === 0 ? (
        <p className="notice notice-error" role="alert">
          {messageOf(list.error)}
        </p>
      ) : mails.length === 0 ? (
        <p className="muted settings-emails-empty" data-testid="settings-emails-empty">
          {NO_MAIL}
        </p>
      ) : (
        <>
          <ul className="settings-emails-list" aria-label="Mail received">
            {mails.map((m) => (
              <MailRow key={m.email_id} mail={m} onShow={() => setShown(m.email_id)} onOpenDocument={onOpenDocument} />
            ))}
          </ul>
          {list.isFetchNextPageError && (
            <p className="notice notice-error settings-emails-more-error" role="alert">
              {messageOf(list.error)}
            </p>
          )}
          {list.hasNextPage && (
            <div className="settings-emails-more">
              <Button variant="secondary" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                Show more
              </Button>
            </div>
          )}
        </>
      )}
      {shown && <EmailPanel emailId={shown} companyId={companyId} onClose={() => setShown(null)} onOpenDocument={onOpenDocument} />}
    </section>
  );
}
