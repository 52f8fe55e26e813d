import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { EMAIL_IN_DOMAIN } from '../../../shared/constants';
import { companyCodeKey } from '../../core/accounts/companies';
import { countsFromItem } from '../../core/accounts/counts';
import type { CompanyRecord, MembershipRecord, ProfileRecord, UsageRecord } from '../../core/accounts/types';
import { CompanyCodeTaken, CompanyLimitReached, type AccountsStore } from '../../core/ports';
import { ddb } from './client';
import { keys } from './keys';
import { batchDelete, batchGet, batchWrite, queryAll, stripKeys, tableName, writeIf } from './table-ops';
import { releasedClaimItem } from './team-store';

/** True when a cancelled transaction failed on the condition of its item at `index`. */
export function cancelledAt(error: unknown, index: number): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return reasons?.[index]?.Code === 'ConditionalCheckFailed';
}

/**
 * A month's usage item as read (A6, P7): missing counters are 0; the month's recorded quota only when the item has one
 * (items written before it was kept, or only by a reset, have none).
 */
export function usageRecordOf(item: Record<string, unknown> | undefined): UsageRecord {
  const usage: UsageRecord = {
    used_documents: Number(item?.used_documents ?? 0),
    duplicated_documents: Number(item?.duplicated_documents ?? 0),
  };
  if (typeof item?.available_documents === 'number') usage.available_documents = item.available_documents;
  return usage;
}

const isConditionFailure = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'ConditionalCheckFailedException' ||
    (error.name === 'TransactionCanceledException' && /ConditionalCheckFailed/.test(error.message)));

function membershipItem(m: MembershipRecord) {
  return {
    ...keys.membership(m.user_id, m.company_id),
    ...keys.memberOfCompanyIndex(m.company_id, m.user_id),
    type: 'MEMBERSHIP',
    ...m,
  };
}

function companyItem(c: CompanyRecord) {
  return { ...keys.company(c.company_id), ...keys.companiesIndex(c.created_at, c.company_id), type: 'COMPANY', ...c };
}

/** The key of the creator's company-code guard of a company (A8, A26). */
export function companyCodeGuardKey(company: Pick<CompanyRecord, 'owner' | 'code'>) {
  return keys.companyCodeGuard(company.owner.user_id, companyCodeKey(company.code));
}

/** The creator's company-code guard item of a company: one company per code and creator (A8). */
export function companyCodeGuardItem(company: Pick<CompanyRecord, 'company_id' | 'owner' | 'code' | 'created_at'>) {
  return {
    ...companyCodeGuardKey(company),
    type: 'COMPANY_CODE',
    user_id: company.owner.user_id,
    code_key: companyCodeKey(company.code),
    company_id: company.company_id,
    created_at: company.created_at,
  };
}

/** Where the guard Put stands in `companyWrites`. */
const GUARD_INDEX = 3;

/**
 * The company, its first admin's membership, its Email-in claim and its creator's company-code guard: the guard only
 * while there is none, or (`replacing`) while the one there names that company.
 */
function companyWrites(company: CompanyRecord, membership: MembershipRecord, replacing?: string) {
  return [
    { Put: { TableName: tableName(), Item: companyItem(company), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: tableName(), Item: membershipItem(membership), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.emailIn(company.email), type: 'EMAILIN', company_id: company.company_id, address: company.email },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: companyCodeGuardItem(company),
        ...(replacing
          ? { ConditionExpression: 'attribute_not_exists(pk) OR company_id = :replacing', ExpressionAttributeValues: { ':replacing': replacing } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    },
  ];
}

/** The company a creator's company-code guard names (A26), read after the guard refused a create or a code change. */
export async function guardHolder(company: Pick<CompanyRecord, 'owner' | 'code'>): Promise<string | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: companyCodeGuardKey(company), ConsistentRead: true }));
  return typeof res.Item?.company_id === 'string' ? res.Item.company_id : undefined;
}

export const ddbAccountsStore: AccountsStore = {
  async getProfile(userId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.userProfile(userId) }));
    return res.Item ? stripKeys<ProfileRecord & { type?: string }>(res.Item) : undefined;
  },

  async getProfiles(userIds) {
    const items = await batchGet(userIds.map((id) => keys.userProfile(id)));
    return items.map((i) => stripKeys<ProfileRecord>(i));
  },

  async updateProfile(userId, changes) {
    const entries = Object.entries(changes).filter(([k, v]) => v !== undefined && k !== 'id' && k !== 'email');
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets = entries.map(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:v${i}`] = v;
      return `#f${i} = :v${i}`;
    });
    const res = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.userProfile(userId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<ProfileRecord>(res.Attributes ?? {});
  },

  async getMembership(userId, companyId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.membership(userId, companyId) }));
    return res.Item ? stripKeys<MembershipRecord>(res.Item) : undefined;
  },

  async listMembershipsOfUser(userId) {
    const k = keys.membershipsOfUser(userId);
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix },
    });
    return items.map((i) => stripKeys<MembershipRecord>(i));
  },

  async listMembersOfCompany(companyId) {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.memberOfCompanyIndex(companyId, '').gsi1pk },
    });
    return items.map((i) => stripKeys<MembershipRecord>(i));
  },

  async getCompanies(companyIds, options) {
    const items = await batchGet(companyIds.map((id) => keys.company(id)), options);
    return items.map((i) => stripKeys<CompanyRecord>(i));
  },

  async getCompanyStats(companyIds, month) {
    const keyList = companyIds.flatMap((id) => [
      keys.companyCounts(id, 'receipt'),
      keys.companyCounts(id, 'invoice'),
      keys.companyUsage(id, month),
    ]);
    const items = await batchGet(keyList);
    const byKey = new Map(items.map((i) => [`${i.pk}|${i.sk}`, i]));
    const at = (k: { pk: string; sk: string }) => byKey.get(`${k.pk}|${k.sk}`);
    return new Map(
      companyIds.map((id) => {
        const usageItem = at(keys.companyUsage(id, month));
        const usage = usageRecordOf(usageItem);
        return [
          id,
          {
            counts: {
              receipt: countsFromItem(at(keys.companyCounts(id, 'receipt'))),
              invoice: countsFromItem(at(keys.companyCounts(id, 'invoice'))),
            },
            usage,
          },
        ];
      }),
    );
  },

  async provisionUser(profile, company) {
    const membership: MembershipRecord = {
      user_id: profile.id,
      company_id: company.company_id,
      role: 'admin',
      joined_at: profile.created_at,
    };
    try {
      await ddb().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName(),
                // The first company counts towards the user's limit of created companies.
                Item: { ...keys.userProfile(profile.id), ...keys.userByEmailIndex(profile.email), type: 'PROFILE', ...profile, companies_created: 1 },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...companyWrites(company, membership),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async createCompany(company, membership, maxCreated, replacing) {
    const writes = companyWrites(company, membership, replacing);
    try {
      await ddb().send(
        new TransactWriteCommand({
          TransactItems: [
            ...writes,
            {
              Update: {
                TableName: tableName(),
                Key: keys.userProfile(membership.user_id),
                UpdateExpression: 'ADD companies_created :one',
                ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(companies_created) OR companies_created < :max)',
                ExpressionAttributeValues: { ':one': 1, ':max': maxCreated },
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (cancelledAt(error, writes.length)) throw new CompanyLimitReached(maxCreated);
      if (cancelledAt(error, GUARD_INDEX)) throw new CompanyCodeTaken(await guardHolder(company));
      throw error;
    }
  },

  async deleteCompanyRecord(companyId, kept) {
    if (!kept) {
      // The company goes with its only member's account: no company is kept.
      const deleted = await writeIf(
        new DeleteCommand({ TableName: tableName(), Key: keys.company(companyId), ConditionExpression: 'attribute_exists(pk)' }),
      );
      return deleted ? undefined : 'gone';
    }
    // The caller keeps a company: the check of the kept one and the delete of this one commit together, so two
    // deletes of a user's two companies at once cannot both pass (each checks the META item the other deletes).
    try {
      await ddb().send(
        new TransactWriteCommand({
          TransactItems: [
            { ConditionCheck: { TableName: tableName(), Key: keys.membership(kept.userId, kept.companyId), ConditionExpression: 'attribute_exists(pk)' } },
            { ConditionCheck: { TableName: tableName(), Key: keys.company(kept.companyId), ConditionExpression: 'attribute_exists(pk)' } },
            { Delete: { TableName: tableName(), Key: keys.company(companyId), ConditionExpression: 'attribute_exists(pk)' } },
          ],
        }),
      );
      return undefined;
    } catch (error) {
      if (cancelledAt(error, 2)) return 'gone';
      if (cancelledAt(error, 0) || cancelledAt(error, 1)) return 'kept';
      throw error;
    }
  },

  async deleteUserItems(userId) {
    // A30: the user's own partition is bounded (profile, memberships, company-code guards, counts, holds).
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.userProfile(userId).pk },
      ProjectionExpression: 'pk, sk',
    });
    await batchDelete(items.map((item) => ({ pk: item.pk as string, sk: item.sk as string })));
  },

  async deleteCompany(company, members) {
    // Team and invitations: the members' own Email-in addresses are released, never given to another company
    // (suppliers may go on mailing them; mail to them is not taken).
    const memberAddresses = members.flatMap((m) => {
      const prefix = (m as { email_prefix?: string }).email_prefix;
      return prefix ? [`${prefix}@${EMAIL_IN_DOMAIN}`] : [];
    });
    await batchWrite(memberAddresses.map((address) => ({ PutRequest: { Item: releasedClaimItem(address, company.company_id) } })));
    await batchDelete([
      ...members.map((m) => keys.membership(m.user_id, m.company_id)),
      keys.emailIn(company.email),
      keys.companyCounts(company.company_id, 'receipt'),
      keys.companyCounts(company.company_id, 'invoice'),
      keys.company(company.company_id), // already gone (A25); a no-op
      // Integrations: the company's sealed credentials go with it.
      ...['ftp_export', 'nsoft_export', 'rivile_export'].map((t) => keys.integrationCredentials(company.company_id, t)),
      // Google Drive and Dropbox imports: the grants and the import records (which the schedule lists) go too.
      ...['google_drive_import', 'dropbox_import'].map((t) => keys.integrationCredentials(company.company_id, t)),
      ...['google', 'dropbox'].map((service) => keys.driveImport(company.company_id, service)),
      // Master-data imports: their credentials and state.
      ...['sql_import', 'rivile_import'].flatMap((t) => [keys.integrationCredentials(company.company_id, t), keys.syncState(company.company_id, t)]),
    ]);
    // The creator's company-code guard, whoever deletes the company: only while it names this company (a guard of
    // another company of the creator with that code, from before the guard, stays).
    await writeIf(
      new DeleteCommand({
        TableName: tableName(),
        Key: companyCodeGuardKey(company),
        ConditionExpression: 'company_id = :company',
        ExpressionAttributeValues: { ':company': company.company_id },
      }),
    );
  },

  async renameCompanyOwner(companyId, ownerId, { name, surname }) {
    // P6: only while the company is there and this user still owns it (otherwise nothing is written).
    await writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.company(companyId),
        UpdateExpression: 'SET #owner.#name = :name, #owner.surname = :surname',
        ConditionExpression: '#owner.user_id = :owner',
        ExpressionAttributeNames: { '#owner': 'owner', '#name': 'name' },
        ExpressionAttributeValues: { ':name': name, ':surname': surname, ':owner': ownerId },
      }),
    );
  },

  async transferCompanyOwner(company, newOwner, replacing) {
    const self = company.company_id;
    const meta = {
      Update: {
        TableName: tableName(),
        Key: keys.company(self),
        UpdateExpression: 'SET #owner = :owner',
        ConditionExpression: 'attribute_exists(pk) AND #owner.user_id = :current',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': newOwner, ':current': company.owner.user_id },
      },
    };
    // The new owner is an administrator member at the moment of the change (an owner stays an administrator).
    const member = {
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.membership(newOwner.user_id, self),
        ConditionExpression: 'attribute_exists(pk) AND #role = :admin',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':admin': 'admin' },
      },
    };
    // A31: the company-code guard moves to the new owner, while they have none for this code (or it names this
    // company, or `replacing` the stale one there); the old owner's is released only while it names this company.
    const moved = { ...company, owner: newOwner };
    const guard = {
      Put: {
        TableName: tableName(),
        Item: companyCodeGuardItem(moved),
        ConditionExpression: `attribute_not_exists(pk) OR company_id = :self${replacing ? ' OR company_id = :replacing' : ''}`,
        ExpressionAttributeValues: { ':self': self, ...(replacing ? { ':replacing': replacing } : {}) },
      },
    };
    const release = {
      Delete: {
        TableName: tableName(),
        Key: companyCodeGuardKey(company),
        ConditionExpression: 'company_id = :self',
        ExpressionAttributeValues: { ':self': self },
      },
    };
    for (const withRelease of [true, false]) {
      try {
        await ddb().send(new TransactWriteCommand({ TransactItems: withRelease ? [meta, member, guard, release] : [meta, member, guard] }));
        return undefined;
      } catch (error) {
        if (cancelledAt(error, 0)) return 'changed';
        if (cancelledAt(error, 1)) return 'not-admin';
        if (cancelledAt(error, 2)) throw new CompanyCodeTaken(await guardHolder(moved));
        // The old owner has no guard of this company (older companies, older duplicates): the change goes without.
        if (withRelease && cancelledAt(error, 3)) continue;
        throw error;
      }
    }
    return undefined;
  },
};
