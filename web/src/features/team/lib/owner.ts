import type { CompanyUser } from '../../../../../shared/schemas/team';

/**
 * Whether the signed-in user (`callerId`: their user id, the token's sub) may make `member` the account owner of
 * the company whose members `team` lists: only the account owner may (their own card there carries is_owner), and
 * only another member who is an administrator (a Basic member is made an administrator first).
 */
export function canMakeAccountOwner(
  team: readonly Pick<CompanyUser, 'user_id' | 'is_owner'>[],
  callerId: string | null | undefined,
  member: Pick<CompanyUser, 'user_id' | 'role' | 'is_owner'>,
): boolean {
  if (!callerId || member.user_id === callerId || member.is_owner || member.role !== 'admin') return false;
  return team.some((u) => u.user_id === callerId && u.is_owner);
}

/** The confirmation's question: `Make <name> <surname> the account owner of <company name>?`. */
export function makeOwnerQuestion(memberName: string, companyName: string): string {
  return `Make ${memberName} the account owner of ${companyName}?`;
}

/** The members with `ownerId` as the account owner (and no one else): the cards right after a handover. */
export function withOwner<T extends Pick<CompanyUser, 'user_id' | 'is_owner'>>(team: readonly T[], ownerId: string): T[] {
  return team.map((u) => (u.is_owner === (u.user_id === ownerId) ? u : { ...u, is_owner: u.user_id === ownerId }));
}
