import type { CompanyRole } from '../../../shared/schemas';
import type { MembershipRecord, ProfileRecord } from '../accounts/types';

/** A membership as the team area reads it: the company's own name for the member and their Email-in prefix. */
export interface MemberRecord extends MembershipRecord {
  /** The part before '@' of the member's personal Email-in address; absent for the company's creator until set. */
  email_prefix?: string;
  /** Name and surname as this company knows the member (edited on My Team); the profile's when absent. */
  name?: string;
  surname?: string;
}

/** An invitation; `id` is the SHA-256 (hex) of the token sent by mail. The token itself is never stored. */
export interface InvitationRecord {
  id: string;
  company_id: string;
  email: string;
  name: string;
  surname: string;
  role: CompanyRole;
  message: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields, e.g. `Auto-Submitted: auto-generated` on the email-in notices (RFC 3834). */
  headers?: Record<string, string>;
}

/** The invitation that is valid now for one company and e-mail address (T11): the one sent last. */
export interface CurrentInvitation {
  invitation_id: string;
  created_at: string;
}

/**
 * Why an accept/update transaction did not commit; 'company': the invitation's company was deleted (T4);
 * 'inviter': the invitation's sender is no longer an administrator member of the company (T4).
 */
export type TeamWriteFailure = 'invitation' | 'company' | 'inviter' | 'member' | 'prefix' | 'profile';

export interface AcceptInvitationWrite {
  invitationId: string;
  userId: string;
  now: string;
  /** The invitation's sender: the acceptance holds only while they are an administrator member of the company. */
  inviterId: string;
  member: MemberRecord;
  /** The member's Email-in address claimed with the membership. */
  emailInAddress: string;
  /** New accounts: the profile is created in the same transaction. */
  profile?: ProfileRecord;
}

export interface TeamStore {
  putInvitation(invitation: InvitationRecord): Promise<void>;
  getInvitation(id: string): Promise<InvitationRecord | undefined>;
  deleteInvitation(id: string): Promise<void>;
  /** Access pattern T2: every invitation of a company still stored (used and expired ones too), oldest first. */
  listInvitations(companyId: string): Promise<InvitationRecord[]>;
  /** Deletes the company's invitation if it has not been used (T10); false when it is gone, used or another company's. */
  cancelInvitation(id: string, companyId: string): Promise<boolean>;
  /** Access pattern T11: which invitation of the company to this address is the valid one, if one was recorded. */
  getCurrentInvitation(companyId: string, email: string): Promise<CurrentInvitation | undefined>;
  /**
   * T12: records `invitation` as the valid one of its company and address, only while `previousId` still is (none:
   * while none is recorded), and deletes that previous invitation in the same transaction unless it was accepted.
   * False when another invitation was recorded meanwhile (nothing written).
   */
  makeCurrentInvitation(invitation: InvitationRecord, previousId: string | undefined): Promise<boolean>;
  /**
   * T13: counts one invitation the company mails on `day` (UTC, `YYYY-MM-DD`), only while fewer than `limit` were
   * counted that day; false when the cap is reached (nothing written).
   */
  countInvitationMailed(companyId: string, day: string, limit: number): Promise<boolean>;
  /** T13's count given back: the invitation counted on `day` was not mailed after all. */
  uncountInvitationMailed(companyId: string, day: string): Promise<void>;
  /** Access pattern A2: the profile of an e-mail address, if that person has an account. */
  findProfileByEmail(email: string): Promise<ProfileRecord | undefined>;
  putProfile(profile: ProfileRecord): Promise<boolean>;
  listMembers(companyId: string): Promise<MemberRecord[]>;
  getMember(companyId: string, userId: string): Promise<MemberRecord | undefined>;
  /**
   * Marks the invitation used (if unused and unexpired), adds the membership and its Email-in claim [and profile],
   * atomically, only while the invitation's company still exists ('company' when it was deleted) and its sender is
   * still an administrator of it ('inviter' when lowered to Basic or removed); 'prefix' when the address is taken or
   * was released by another company.
   */
  acceptInvitation(write: AcceptInvitationWrite): Promise<TeamWriteFailure | undefined>;
  /**
   * Changes role/name/surname and, when given, moves the Email-in claim from `oldAddress` (left released: never
   * another company's) to `newAddress` (free, or released by this company), atomically.
   */
  updateMember(
    companyId: string,
    userId: string,
    changes: Partial<Pick<MemberRecord, 'role' | 'name' | 'surname' | 'email_prefix'>>,
    claim?: { oldAddress?: string; newAddress: string },
  ): Promise<TeamWriteFailure | undefined>;
  /** Removes the membership and releases the member's Email-in claim (never another company's); the profile and documents stay. */
  removeMember(companyId: string, userId: string, claimAddress?: string): Promise<TeamWriteFailure | undefined>;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId?: string }>;
}
