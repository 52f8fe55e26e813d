import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { CompanyUser, PendingInvitation } from '../../../../../shared/schemas/team';
import { useAuth } from '../../../app/auth';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { LeaveForDashboard } from '../../../components/ui/LeaveForDashboard';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { LoadingBlock } from '../../../components/ui/Spinner';
import { messageOf } from '../../../lib/api-error';
import { adminScreenNotice } from '../../../lib/roles';
import { useActiveCompany } from '../../companies/api/companies';
import { companyChoiceLabel } from '../../companies/lib/company-label';
import { useCancelInvitation, useInvite, usePendingInvitations, useTeams } from '../api/team';
import { cancelQuestion, INVITATION_SENT } from '../lib/labels';
import { canMakeAccountOwner } from '../lib/owner';
import { AddUserModal } from './AddUserModal';
import { DeleteUserModal } from './DeleteUserModal';
import { EditUserModal } from './EditUserModal';
import { InvitationCard } from './InvitationCard';
import { MakeOwnerModal } from './MakeOwnerModal';
import { UserCard } from './UserCard';

/** /my-team and /fields-configuration are for company admins only: others (and unknown roles) go to the dashboard, told why. */
export function RequireCompanyAdmin({ screen, children }: { screen: string; children: React.ReactNode }) {
  const view = useActiveCompany();
  if (view.isLoading) return <LoadingBlock label="Loading" />;
  if (!view.isCompanyAdmin) return <LeaveForDashboard notice={adminScreenNotice(screen, view)} />;
  return <>{children}</>;
}

/**
 * My Team: ADD A USER and a card per member, then the invitations not accepted yet (Send Again, Cancel
 * Invitation). In the all-companies view the members of every company the user administers are grouped under the
 * company's name. Navigation state `addUser` opens the add-user pop-up. The account owner of a company finds "Make
 * Account Owner" on its other administrators' cards (lib/owner.ts).
 */
export function MyTeamPage() {
  const view = useActiveCompany();
  const location = useLocation();
  const navigate = useNavigate();
  const companies = useMemo(
    () => (view.allCompanies ? view.companies.filter((c) => c.role === 'admin') : view.active?.role === 'admin' ? [view.active] : []),
    [view.allCompanies, view.companies, view.active],
  );
  const teams = useTeams(companies.map((c) => c.company_id));
  const invitations = usePendingInvitations(companies.map((c) => c.company_id));
  const invite = useInvite();
  const cancel = useCancelInvitation();
  const info = useInfoPopup();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<CompanyUser | null>(null);
  const [deleting, setDeleting] = useState<CompanyUser | null>(null);
  const [makingOwner, setMakingOwner] = useState<{ user: CompanyUser; companyName: string } | null>(null);
  // Cancel Invitation asks first, as Delete User does: the link mailed stops working for good
  const [cancelling, setCancelling] = useState<PendingInvitation | null>(null);
  // The signed-in user's id (the token's sub, the user_id of their card): the account owner may hand the company over.
  const callerId = useAuth().user?.userId;

  // The dashboard's "Add a Company Employee" card: open the pop-up at once, then drop the state (no reopen on reload).
  useEffect(() => {
    if ((location.state as { addUser?: boolean } | null)?.addUser) {
      setAdding(true);
      navigate(location.pathname, { replace: true, state: null });
    }
  }, [location.state, location.pathname, navigate]);

  // One invitation action at a time: a second click before the card shows it works (a double-click) sends nothing,
  // or Send Again would mail two links of which only the second works.
  const invitationAction = useRef(false);
  const once = async (act: () => Promise<void>) => {
    if (invitationAction.current) return;
    invitationAction.current = true;
    try {
      await act();
    } catch (err) {
      info.show(messageOf(err), 'error');
    } finally {
      invitationAction.current = false;
    }
  };
  const resend = (i: PendingInvitation) =>
    once(async () => {
      await invite.mutateAsync({ companyId: i.company_id, input: { name: i.name, surname: i.surname, email: i.email, role: i.role, message: i.message } });
      info.show(INVITATION_SENT, 'success');
    });
  const cancelInvitation = (i: PendingInvitation) =>
    once(async () => {
      try {
        await cancel.mutateAsync({ companyId: i.company_id, id: i.id });
        info.show(`The invitation to ${i.email} has been cancelled.`, 'success');
      } finally {
        setCancelling(null);
      }
    });

  const grouped = view.allCompanies;
  return (
    <div className="team-page">
      <section className="section" aria-labelledby="team-heading">
        <div className="section-head">
          <h2 id="team-heading">Users</h2>
          <div className="section-actions">
            <Button icon={<Icon name="userPlus" size={18} />} onClick={() => setAdding(true)} disabled={companies.length === 0}>
              ADD A USER
            </Button>
          </div>
        </div>
        {companies.map((company, i) => {
          const team = teams[i];
          return (
            <div key={company.company_id} className="team-group" data-testid="team-group">
              {/* two companies of one name are told apart by their codes, as in the lists to choose from */}
              {grouped && <h3 className="team-group-title">{companyChoiceLabel(company, companies)}</h3>}
              {!team || team.isPending ? (
                <LoadingBlock label="Loading users" />
              ) : team.isError ? (
                <p className="notice notice-error">Something went wrong</p>
              ) : (
                <div className="card-grid">
                  {(team.data ?? []).map((user) => (
                    <UserCard
                      key={user.user_id}
                      user={user}
                      onEdit={() => setEditing(user)}
                      onDelete={() => setDeleting(user)}
                      onMakeOwner={
                        canMakeAccountOwner(team.data ?? [], callerId, user) ? () => setMakingOwner({ user, companyName: company.name }) : undefined
                      }
                    />
                  ))}
                </div>
              )}
              {(invitations[i]?.data ?? []).length > 0 && (
                <>
                  <h4 className="team-pending-title">Pending invitations</h4>
                  <div className="card-grid" data-testid="pending-invitations">
                    {invitations[i]!.data!.map((invitation) => (
                      <InvitationCard
                        key={invitation.id}
                        invitation={invitation}
                        busy={invite.isPending || cancel.isPending}
                        onResend={() => void resend(invitation)}
                        onCancel={() => setCancelling(invitation)}
                      />
                    ))}
                  </div>
                </>
              )}
            </div>
          );
        })}
      </section>
      {adding && companies.length > 0 && (
        <AddUserModal
          companies={companies}
          defaultCompanyId={view.active && companies.some((c) => c.company_id === view.active!.company_id) ? view.active.company_id : companies[0]!.company_id}
          onClose={() => setAdding(false)}
        />
      )}
      {editing && <EditUserModal user={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteUserModal user={deleting} onClose={() => setDeleting(null)} />}
      {cancelling && (
        <Modal title="Cancel Invitation" size="sm" onClose={cancel.isPending ? undefined : () => setCancelling(null)} testId="cancel-invitation-modal">
          <p className="modal-text">{cancelQuestion(cancelling)}</p>
          <div className="modal-actions">
            <Button variant="secondary" onClick={() => setCancelling(null)} disabled={cancel.isPending}>
              Back
            </Button>
            <Button variant="danger" onClick={() => void cancelInvitation(cancelling)} loading={cancel.isPending}>
              Cancel Invitation
            </Button>
          </div>
        </Modal>
      )}
      {makingOwner && <MakeOwnerModal user={makingOwner.user} companyName={makingOwner.companyName} onClose={() => setMakingOwner(null)} />}
    </div>
  );
}
