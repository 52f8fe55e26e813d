import { useId } from 'react';
import type { CompanyUser } from '../../../../../shared/schemas/team';
import { Pill } from '../../../components/ui/Badge';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { formatDate, formatDateTime, fullName } from '../../../lib/format';
import { memberRoleLabel } from '../lib/labels';
import { EmailAddress } from '../../../components/ui/EmailAddress';

/**
 * One member on My Team: name, created date, last login, login email, Email-in address, role label, actions.
 * `onMakeOwner`: "Make Account Owner" is offered (to the account owner, on another administrator's card).
 */
export function UserCard({ user, onEdit, onDelete, onMakeOwner }: { user: CompanyUser; onEdit(): void; onDelete(): void; onMakeOwner?: () => void }) {
  const name = fullName(user) || user.user.email;
  // the buttons keep the spec's texts and say whose card they act on (read after their name)
  const nameId = useId();
  return (
    <article className="card team-card" data-testid="user-card" data-user-id={user.user_id}>
      <div className="team-card-head">
        <span className="team-avatar" aria-hidden="true">
          {(user.name?.charAt(0) ?? '').toUpperCase()}
          {(user.surname?.charAt(0) ?? '').toUpperCase()}
        </span>
        <div className="team-ident">
          <h3 className="team-name" id={nameId}>
            {name}
          </h3>
          <Pill tone={user.role === 'admin' ? 'blue' : 'neutral'}>
            <span data-testid="role-label">{memberRoleLabel(user)}</span>
          </Pill>
        </div>
      </div>
      <dl className="facts team-facts">
        <dt>Created</dt>
        <dd>{formatDate(user.user.created_at) || '—'}</dd>
        <dt>Last login</dt>
        <dd>{formatDateTime(user.user.last_login) || '—'}</dd>
        <dt>Login email</dt>
        <dd data-testid="login-email">
          <EmailAddress value={user.user.email} />
        </dd>
        <dt>Email-in address</dt>
        <dd data-testid="email-in">
          <EmailAddress value={user.email} />
        </dd>
      </dl>
      <div className="team-actions">
        <Button variant="secondary" className="btn-sm" icon={<Icon name="profile" size={16} />} onClick={onEdit} aria-describedby={nameId}>
          Edit User Details
        </Button>
        {onMakeOwner && (
          <Button variant="secondary" className="btn-sm" icon={<Icon name="admin" size={16} />} onClick={onMakeOwner} aria-describedby={nameId}>
            Make Account Owner
          </Button>
        )}
        {user.can_be_deleted && (
          <Button variant="ghost" className="btn-sm text-danger" icon={<Icon name="trash" size={16} />} onClick={onDelete} aria-describedby={nameId}>
            Delete User
          </Button>
        )}
      </div>
    </article>
  );
}
