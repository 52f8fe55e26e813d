import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { badRequest } from '../../../shared/errors';
import type { CompanyRecord } from '../../core/accounts/types';
import type { CompanyAdminStore } from '../../core/admin/ports';
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
  async listCompanies(limit, next) {
    const index = keys.companiesIndex('', '');
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': index.gsi2pk },
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

  setAvailableDocuments(companyId, available, expected) {
    return setOnCompany(companyId, { available_documents: available }, expected === undefined ? undefined : { field: 'available_documents', value: expected });
  },

  setVatAccount(companyId, vatAccount) {
    return setOnCompany(companyId, { vat_account: vatAccount });
  },

  setNameAndCode(companyId, name, code) {
    return setOnCompany(companyId, { name, code });
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
};
