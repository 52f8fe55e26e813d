import type { CompanyUser, PendingInvitation } from '../../../../../shared/schemas/team';
import { ROLE_LABELS } from '../../../lib/roles';

/**
 * The role label of a My Team card: the company's creator (an administrator who holds the account) is the
 * Account owner, other administrators are Administrators, everyone else a Basic user.
 */
export function memberRoleLabel(user: Pick<CompanyUser, 'role' | 'is_owner'>): string {
  if (user.role !== 'admin') return ROLE_LABELS.basic;
  return user.is_owner ? ROLE_LABELS.owner : ROLE_LABELS.admin;
}

export const INVITATION_SENT = 'Your invitation has been successfully sent.';
export const DELETE_CONFIRMATION = 'Are you sure you want to delete the selected items?';

/** What Cancel Invitation asks before the link stops working. */
export function cancelQuestion(invitation: Pick<PendingInvitation, 'email'>): string {
  return `Cancel the invitation to ${invitation.email}? The link mailed to them stops working.`;
}
