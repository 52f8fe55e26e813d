import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { badRequest } from '../../../shared/errors';
import { companyCodeKey } from '../../core/accounts/companies';
import type { CompanyRecord, UsageRecord } from '../../core/accounts/types';
import type { CompanyAdminStore } from '../../core/admin/ports';
import { CompanyCodeTaken } from '../../core/ports';
import { cancelledAt, companyCodeGuardItem, companyCodeGuardKey, guardHolder, usageRecordOf } from './accounts-store';
import { ddb } from './client';
import { keys } from './keys';
import { isConditionFailure, stripKeys, tableName } from './table-ops';

/** The cursor of A7 is the last company's index key, base64url JSON; anything else is refused. */
export function encodeCompaniesCursor(lastKey: Record<string, unknown> | undefined): string | null {
  if (!lastKey) return null;
  return Buffer.from(JSON.stringify({ pk: lastKey.pk, sk: lastKey.sk, gsi2sk: lastKey.gsi2sk }), 'utf8').toString('base64url');
}

export function decodeCompaniesCursor(next: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(next, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('Invalid cursor');
  }
  const c = parsed as { pk?: unknown; sk?: unknown; gsi2sk?: unknown } | null;
  if (
    !c ||
    typeof c.pk !== 'string' ||
    typeof c.sk !== 'string' ||
    typeof c.gsi2sk !== 'string' ||
    !c.pk.startsWith('COMPANY#') ||
    c.sk !== 'META'
  ) {
    throw badRequest('Invalid cursor');
  }
  const index = keys.companiesIndex('', '');
  return { pk: c.pk, sk: c.sk, gsi2pk: index.gsi2pk, gsi2sk: c.gsi2sk };
}

/** SET on the company item, only when it exists (and `expected` holds); the whole new item comes back. */
async function setOnCompany(companyId: string, values: Record<string, unknown>, expected?: { field: string; value: unknown }): Promise<CompanyRecord | undefined> {
  const names: Record<string, string> = {};
  const vals: Record<string, unknown> = {};
  let condition = 'attribute_exists(pk)';
  if (expected) {
    names['#expected'] = expected.field;
    vals[':expected'] = expected.value;
    condition += ' AND #expected = :expected';
  }
  const sets = Object.entries(values).map(([k, v], i) => {
    names[`#f${i}`] = k;
    vals[`:v${i}`] = v;
    return `#f${i} = :v${i}`;
  });
  try {
    const res = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.company(companyId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: vals,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return res.Attributes ? stripKeys<CompanyRecord>(res.Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

export const ddbCompanyAdminStore: CompanyAdminStore = {
  async listCompanies(limit, next, createdBefore) {
    const index = keys.companiesIndex('', '');
    // gsi2sk is `<created_at>#<companyId>`: one created at `createdBefore` itself sorts after the bare instant
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: createdBefore ? 'gsi2pk = :pk AND gsi2sk < :before' : 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': index.gsi2pk, ...(createdBefore ? { ':before': createdBefore } : {}) },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: next ? decodeCompaniesCursor(next) : undefined,
      }),
    );
    return {
      items: (res.Items ?? []).map((i) => stripKeys<CompanyRecord>(i)),
      next: encodeCompaniesCursor(res.LastEvaluatedKey),
    };
  },

  async setAvailableDocuments(companyId, available, expected, month) {
    // P4: the quota on the company, and the same quota on the month's usage item (created when the month has none:
    // SET only, so its counters and quota_taken = used + reserved stay as they are), in one transaction.
    const quota = {
      Update: {
        TableName: tableName(),
        Key: keys.company(companyId),
        UpdateExpression: 'SET available_documents = :available',
        ConditionExpression: `attribute_exists(pk)${expected === undefined ? '' : ' AND available_documents = :expected'}`,
        ExpressionAttributeValues: { ':available': available, ...(expected === undefined ? {} : { ':expected': expected }) },
      },
    };
    const monthQuota = {
      Update: {
        TableName: tableName(),
        Key: keys.companyUsage(companyId, month),
        UpdateExpression: 'SET available_documents = :available',
        ExpressionAttributeValues: { ':available': available },
      },
    };
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: [quota, monthQuota] }));
    } catch (error) {
      if (cancelledAt(error, 0)) return undefined;
      throw error;
    }
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.company(companyId), ConsistentRead: true }));
    return res.Item ? stripKeys<CompanyRecord>(res.Item) : undefined;
  },

  setVatAccount(companyId, vatAccount) {
    return setOnCompany(companyId, { vat_account: vatAccount });
  },

  setEmailInSenders(companyId, senders) {
    return setOnCompany(companyId, { email_in_senders: senders });
  },

  async setNameAndCode(current, name, code, replacing) {
    // Only while the code is still the one read: the guards moved below are those of that code.
    const expected = { field: 'code', value: current.code };
    if (companyCodeKey(code) === companyCodeKey(current.code)) return setOnCompany(current.company_id, { name, code }, expected);
    const self = current.company_id;
    const meta = {
      Update: {
        TableName: tableName(),
        Key: keys.company(self),
        UpdateExpression: 'SET #name = :name, #code = :code',
        ConditionExpression: 'attribute_exists(pk) AND #code = :current',
        ExpressionAttributeNames: { '#name': 'name', '#code': 'code' },
        ExpressionAttributeValues: { ':name': name, ':code': code, ':current': current.code },
      },
    };
    // A29: the new code's guard, while there is none, it names this company or (`replacing`) the stale one there.
    const guard = {
      Put: {
        TableName: tableName(),
        Item: companyCodeGuardItem({ ...current, code }),
        ConditionExpression: `attribute_not_exists(pk) OR company_id = :self${replacing ? ' OR company_id = :replacing' : ''}`,
        ExpressionAttributeValues: { ':self': self, ...(replacing ? { ':replacing': replacing } : {}) },
      },
    };
    // The old code's guard, only while it names this company (an older duplicate's guard, or none, stays as it is).
    const release = {
      Delete: {
        TableName: tableName(),
        Key: companyCodeGuardKey(current),
        ConditionExpression: 'company_id = :self',
        ExpressionAttributeValues: { ':self': self },
      },
    };
    for (const withRelease of [true, false]) {
      try {
        await ddb().send(new TransactWriteCommand({ TransactItems: withRelease ? [meta, guard, release] : [meta, guard] }));
      } catch (error) {
        if (cancelledAt(error, 0)) return undefined;
        if (cancelledAt(error, 1)) throw new CompanyCodeTaken(await guardHolder({ owner: current.owner, code }));
        // The old code has no guard of this company: the change goes without releasing one.
        if (withRelease && cancelledAt(error, 2)) continue;
        throw error;
      }
      break;
    }
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.company(self), ConsistentRead: true }));
    return res.Item ? stripKeys<CompanyRecord>(res.Item) : undefined;
  },

  async resetMonthUsage(companyId, month) {
    // One item, one atomic update: reservations taken or released at the same moment are ADDs on the
    // same item, so quota_taken stays = used + reserved.
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.companyUsage(companyId, month),
        UpdateExpression:
          'SET used_documents = :zero, duplicated_documents = :zero, quota_taken = if_not_exists(reserved_documents, :zero)',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
  },

  async listMonthUsage(companyId, from, to) {
    // P7: the usage items sort by month within the company's partition; the range holds a year at most.
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': keys.companyUsage(companyId, from).pk,
          ':from': keys.companyUsage(companyId, from).sk,
          ':to': keys.companyUsage(companyId, to).sk,
        },
        ProjectionExpression: 'sk, used_documents, duplicated_documents, available_documents',
      }),
    );
    const usage = new Map<string, UsageRecord>();
    for (const item of res.Items ?? []) usage.set(String(item.sk).slice('USAGE#'.length), usageRecordOf(item));
    return usage;
  },
};
