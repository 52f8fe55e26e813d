import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TTL_ATTRIBUTE } from '../../../shared/table';
import type { ProfileRecord } from '../../core/accounts/types';
import type { CurrentInvitation, InvitationRecord, MemberRecord, TeamStore, TeamWriteFailure } from '../../core/team/types';
import { ddb } from './client';
import { keys } from './keys';
import { queryAll, stripKeys, tableName, writeIf } from './table-ops';

/** A day's invitation counter leaves the table two days after its day ended (the cap reads only today's). */
function invitationsMailedExpiry(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 3 * 86_400;
}

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** The failure of the first item whose condition failed, or undefined when the error is not a condition failure. */
function failureOf<L extends string>(error: unknown, labels: L[]): L | undefined {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e?.name === 'ConditionalCheckFailedException') return labels[0];
  if (e?.name !== 'TransactionCanceledException') return undefined;
  const index = (e.CancellationReasons ?? []).findIndex((r) => r?.Code === 'ConditionalCheckFailed');
  return index >= 0 ? labels[index] : undefined;
}

async function transact<L extends string = TeamWriteFailure>(items: TransactItem[], labels: L[]): Promise<L | undefined> {
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
    return undefined;
  } catch (error) {
    const failure = failureOf(error, labels);
    if (failure) return failure;
    throw error;
  }
}

function memberItem(m: MemberRecord) {
  return { ...keys.membership(m.user_id, m.company_id), ...keys.memberOfCompanyIndex(m.company_id, m.user_id), type: 'MEMBERSHIP', ...m };
}

function claimItem(address: string, companyId: string, userId: string) {
  return { ...keys.emailIn(address), type: 'EMAILIN', kind: 'member', company_id: companyId, user_id: userId, address };
}

/**
 * What stays of a member's address once released (member deleted, prefix changed): the company it belonged to and
 * no `company_id`, so mail to it is not taken (E1 finds no claim) and no other company is ever given it — suppliers
 * may go on mailing it. The same company may claim it again (data-model.md, "member email-in claim").
 */
export function releasedClaimItem(address: string, companyId: string) {
  return { ...keys.emailIn(address), type: 'EMAILIN', kind: 'released', released_company_id: companyId, address };
}

/** A member's claim is written where no claim is, or over the address its own company released. */
function putClaim(address: string, companyId: string, userId: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: claimItem(address, companyId, userId),
      ConditionExpression: 'attribute_not_exists(pk) OR (kind = :released AND released_company_id = :company)',
      ExpressionAttributeValues: { ':released': 'released', ':company': companyId },
    },
  };
}

/** Releases the member's claim (a tombstone in its place), if it is theirs. */
function releaseClaim(address: string, companyId: string, userId: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: releasedClaimItem(address, companyId),
      ConditionExpression: 'attribute_not_exists(pk) OR user_id = :user',
      ExpressionAttributeValues: { ':user': userId },
    },
  };
}

function profileItem(p: ProfileRecord) {
  return { ...keys.userProfile(p.id), ...keys.userByEmailIndex(p.email), type: 'PROFILE', ...p };
}

/**
 * How long an invitation is kept after it expired: DynamoDB's TTL removes it only then, so that its link goes on
 * answering 'This invitation has expired' (not 'Invitation not found') for a month. Reads check `expires_at`
 * themselves.
 */
export const INVITATION_KEPT_AFTER_EXPIRY_SECONDS = 30 * 24 * 3600;

/** An invitation as stored (T1's item, in T2's index). */
export function invitationItem(invitation: InvitationRecord) {
  const { used_at, used_by, ...rest } = invitation;
  return {
    ...keys.invitation(invitation.id),
    ...keys.invitationOfCompanyIndex(invitation.company_id, invitation.created_at, invitation.id),
    type: 'INVITATION',
    ...rest,
    ...(used_at ? { used_at, used_by } : {}),
    ttl: Math.floor(Date.parse(invitation.expires_at) / 1000) + INVITATION_KEPT_AFTER_EXPIRY_SECONDS,
  };
}

/** Invitations, members and their Email-in claims in the single table (docs/data-model.md, T1–T12). */
export const ddbTeamStore: TeamStore = {
  async putInvitation(invitation) {
    await ddb().send(new PutCommand({ TableName: tableName(), Item: invitationItem(invitation), ConditionExpression: 'attribute_not_exists(pk)' }));
  },

  async getInvitation(id) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.invitation(id), ConsistentRead: true }));
    if (!res.Item) return undefined;
    const item = stripKeys<InvitationRecord & { type?: string }>(res.Item);
    return { ...item, used_at: item.used_at ?? null, used_by: item.used_by ?? null };
  },

  async deleteInvitation(id) {
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.invitation(id) }));
  },

  async listInvitations(companyId) {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.invitationsOfCompany(companyId).gsi1pk },
    });
    return items.map((i) => {
      const item = stripKeys<InvitationRecord & { type?: string; ttl?: number }>(i);
      const { type: _type, ttl: _ttl, ...record } = item;
      return { ...record, used_at: item.used_at ?? null, used_by: item.used_by ?? null };
    });
  },

  async cancelInvitation(id, companyId) {
    return writeIf(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.invitation(id),
        ConditionExpression: 'company_id = :company AND attribute_not_exists(used_at)',
        ExpressionAttributeValues: { ':company': companyId },
      }),
    );
  },

  async getCurrentInvitation(companyId, email) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.currentInvitation(companyId, email), ConsistentRead: true }));
    if (!res.Item) return undefined;
    return { invitation_id: String(res.Item.invitation_id), created_at: String(res.Item.created_at) } satisfies CurrentInvitation;
  },

  async makeCurrentInvitation(invitation, previousId) {
    // The pointer serialises invitations of one address: each replaces the one it read, or fails and reads again.
    const pointer: TransactItem = {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.currentInvitation(invitation.company_id, invitation.email),
          type: 'INVITEE',
          company_id: invitation.company_id,
          email: invitation.email,
          invitation_id: invitation.id,
          created_at: invitation.created_at,
          ttl: Math.floor(Date.parse(invitation.expires_at) / 1000),
        },
        ...(previousId
          ? { ConditionExpression: 'invitation_id = :previous', ExpressionAttributeValues: { ':previous': previousId } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    };
    if (!previousId) return (await transact([pointer], ['replaced'])) === undefined;
    // The previous link stops working with it; an accepted one stays (used) and only the pointer moves.
    const cancelPrevious: TransactItem = {
      Delete: { TableName: tableName(), Key: keys.invitation(previousId), ConditionExpression: 'attribute_not_exists(used_at)' },
    };
    const failure = await transact([pointer, cancelPrevious], ['replaced', 'used']);
    if (failure === 'used') return (await transact([pointer], ['replaced'])) === undefined;
    return failure === undefined;
  },

  async countInvitationMailed(companyId, day, limit) {
    // T13: the cap is the condition of the count itself, so invitations sent at once never pass it together.
    return writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invitationsMailed(companyId, day),
        UpdateExpression: 'SET #type = :type, company_id = :company, #ttl = if_not_exists(#ttl, :ttl) ADD mailed :one',
        ConditionExpression: 'attribute_not_exists(mailed) OR mailed < :limit',
        ExpressionAttributeNames: { '#type': 'type', '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':type': 'INVITESENT', ':company': companyId, ':ttl': invitationsMailedExpiry(day), ':one': 1, ':limit': limit },
      }),
    );
  },

  async uncountInvitationMailed(companyId, day) {
    await writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invitationsMailed(companyId, day),
        UpdateExpression: 'ADD mailed :minus',
        ConditionExpression: 'mailed > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    );
  },

  async findProfileByEmail(email) {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': keys.userByEmailIndex(email).gsi1pk, ':sk': keys.userByEmailIndex(email).gsi1sk },
    });
    return items[0] ? stripKeys<ProfileRecord>(items[0]) : undefined;
  },

  async putProfile(profile) {
    return writeIf(new PutCommand({ TableName: tableName(), Item: profileItem(profile), ConditionExpression: 'attribute_not_exists(pk)' }));
  },

  async listMembers(companyId) {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.memberOfCompanyIndex(companyId, '').gsi1pk },
    });
    return items.map((i) => stripKeys<MemberRecord>(i));
  },

  async getMember(companyId, userId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.membership(userId, companyId) }));
    return res.Item ? stripKeys<MemberRecord>(res.Item) : undefined;
  },

  async acceptInvitation(w) {
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.invitation(w.invitationId),
          UpdateExpression: 'SET used_at = :now, used_by = :user',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(used_at) AND expires_at > :now',
          ExpressionAttributeValues: { ':now': w.now, ':user': w.userId },
        },
      },
      // The company is still there: a deleted company's invitations (left for the purge, A21) join no one.
      { ConditionCheck: { TableName: tableName(), Key: keys.company(w.member.company_id), ConditionExpression: 'attribute_exists(pk)' } },
      // The sender is still an administrator of it: one lowered to Basic or removed grants no one a role (T4).
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.membership(w.inviterId, w.member.company_id),
          ConditionExpression: 'attribute_exists(pk) AND #role = :admin',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':admin': 'admin' },
        },
      },
      { Put: { TableName: tableName(), Item: memberItem(w.member), ConditionExpression: 'attribute_not_exists(pk)' } },
      putClaim(w.emailInAddress, w.member.company_id, w.member.user_id),
    ];
    const labels: TeamWriteFailure[] = ['invitation', 'company', 'inviter', 'member', 'prefix'];
    if (w.profile) {
      items.push({ Put: { TableName: tableName(), Item: profileItem(w.profile), ConditionExpression: 'attribute_not_exists(pk)' } });
      labels.push('profile');
    }
    return transact(items, labels);
  },

  async updateMember(companyId, userId, changes, claim) {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets = entries.map(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:v${i}`] = v;
      return `#f${i} = :v${i}`;
    });
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.membership(userId, companyId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    ];
    const labels: TeamWriteFailure[] = ['member'];
    if (claim) {
      items.push(putClaim(claim.newAddress, companyId, userId));
      labels.push('prefix');
      if (claim.oldAddress) {
        items.push(releaseClaim(claim.oldAddress, companyId, userId));
        labels.push('member');
      }
    }
    return transact(items, labels);
  },

  async removeMember(companyId, userId, claimAddress) {
    const items: TransactItem[] = [
      { Delete: { TableName: tableName(), Key: keys.membership(userId, companyId), ConditionExpression: 'attribute_exists(pk)' } },
    ];
    const labels: TeamWriteFailure[] = ['member'];
    if (claimAddress) {
      items.push(releaseClaim(claimAddress, companyId, userId));
      labels.push('member');
    }
    return transact(items, labels);
  },
};
