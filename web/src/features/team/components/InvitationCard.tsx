import { useRef } from 'react';
import type { PendingInvitation } from '../../../../../shared/schemas/team';
import { Pill } from '../../../components/ui/Badge';
import { Button } from '../../../components/ui/Button';
import { EmailAddress } from '../../../components/ui/EmailAddress';
import { useFocusNeighbourOnRemove } from '../../../components/ui/focus';
import { Icon } from '../../../components/ui/Icon';
import { formatDate, fullName } from '../../../lib/format';
import { ROLE_LABELS } from '../../../lib/roles';

/**
 * A pending invitation on My Team: who was invited, with which role, by whom and until when the link works;
 * Send Again mails a new link (the old one stops working), Cancel Invitation (after My Team's question) makes the link stop working. While
 * one works both say so but keep the focus; a cancelled card gives it to the next card's (else the previous one's)
 * same button, else to the page's title.
 */
export function InvitationCard(props: { invitation: PendingInvitation; busy: boolean; onResend(): void; onCancel(): void }) {
  const { invitation, busy } = props;
  const name = fullName(invitation) || invitation.email;
  const ref = useRef<HTMLElement>(null);
  useFocusNeighbourOnRemove(ref);
  return (
    <article ref={ref} className="card team-card team-card-pending" data-testid="invitation-card" data-invitation-id={invitation.id}>
      <div className="team-card-head">
        <span className="team-avatar team-avatar-pending" aria-hidden="true">
          {(invitation.name.charAt(0) ?? '').toUpperCase()}
          {(invitation.surname.charAt(0) ?? '').toUpperCase()}
        </span>
        <div className="team-ident">
          <h3 className="team-name">{name}</h3>
          <Pill tone="neutral">
            <span data-testid="role-label">{ROLE_LABELS[invitation.role]}</span>
          </Pill>
        </div>
      </div>
      <dl className="facts team-facts">
        <dt>Login email</dt>
        <dd data-testid="invited-email">
          <EmailAddress value={invitation.email} />
        </dd>
        <dt>Invited</dt>
        <dd>
          {formatDate(invitation.created_at)}
          {invitation.invited_by ? ` by ${fullName(invitation.invited_by)}` : ''}
        </dd>
        <dt>Link valid until</dt>
        <dd>{formatDate(invitation.expires_at)}</dd>
      </dl>
      <div className="team-actions">
        <Button variant="secondary" className="btn-sm" icon={<Icon name="mail" size={16} />} onClick={props.onResend} busy={busy}>
          Send Again
        </Button>
        <Button variant="ghost" className="btn-sm text-danger" icon={<Icon name="trash" size={16} />} onClick={props.onCancel} busy={busy}>
          Cancel Invitation
        </Button>
      </div>
    </article>
  );
}
