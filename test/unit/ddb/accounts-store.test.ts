import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddbAccountsStore } from '../../../lambdas/adapters/ddb/accounts-store';
import type { CompanyRecord, MembershipRecord, ProfileRecord } from '../../../lambdas/core/accounts/types';
import { CompanyCodeTaken, CompanyLimitReached } from '../../../lambdas/core/ports';
import { mockDocumentTable } from '../../support/ddb-mock';

const T = 'unit-table';
const ddbMock = mockDocumentTable(T);

const company: CompanyRecord = {
  company_id: 'C2',
  name: 'Ona Bakery',
  code: ' LT 305 123 ',
  unique_name: 'ona-bakery-c2',
  email: 'ona-bakery-c2@in.receipts.local',
  created_at: '2026-12-01T10:00:00.000Z',
  owner: { user_id: 'u1', name: 'Ona', surname: 'Petraite', email: 'ona@example.com' },
  available_documents: 500,
  vat_account: '',
  integrations: {} as CompanyRecord['integrations'],
  google_selected_import_folder_name: null,
  dropbox_selected_import_folder_name: null,
};
const membership: MembershipRecord = { user_id: 'u1', company_id: 'C2', role: 'admin', joined_at: company.created_at };
const guardKey = { pk: 'USER#u1', sk: 'COMPANYCODE#lt305123' };

type TxItem = { Put?: { Item: Record<string, unknown>; ConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown> } };
const txItems = (): TxItem[] => ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems as TxItem[];
const guardPut = () => txItems().find((t) => t.Put?.Item.sk === guardKey.sk)?.Put;

function canceled(codes: string[]) {
  return new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
}


describe('ddb accounts store: the company-code guard (A8, A26, A27)', () => {
  it('A8: puts the creator guard of the normalised code in the company transaction, only while there is none', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await ddbAccountsStore.createCompany(company, membership, 5);
    expect(guardPut()).toEqual({
      TableName: T,
      Item: { ...guardKey, type: 'COMPANY_CODE', user_id: 'u1', code_key: 'lt305123', company_id: 'C2', created_at: company.created_at },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    // company, membership, claim, guard, then the creator count
    expect(txItems()).toHaveLength(5);
  });

  it('A8: replaces a stale guard only while it still names the company it named', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await ddbAccountsStore.createCompany(company, membership, 5, 'C1');
    expect(guardPut()).toMatchObject({
      ConditionExpression: 'attribute_not_exists(pk) OR company_id = :replacing',
      ExpressionAttributeValues: { ':replacing': 'C1' },
    });
  });

  it('A26: a refused guard rejects with CompanyCodeTaken naming the company of the guard there', async () => {
    ddbMock.on(TransactWriteCommand).rejects(canceled(['None', 'None', 'None', 'ConditionalCheckFailed', 'None']));
    ddbMock.on(GetCommand, { TableName: T, Key: guardKey }).resolves({ Item: { ...guardKey, company_id: 'C1' } });
    const error = await ddbAccountsStore.createCompany(company, membership, 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompanyCodeTaken);
    expect((error as CompanyCodeTaken).holder).toBe('C1');
  });

  it('A8: the creator limit still answers CompanyLimitReached', async () => {
    ddbMock.on(TransactWriteCommand).rejects(canceled(['None', 'None', 'None', 'None', 'ConditionalCheckFailed']));
    await expect(ddbAccountsStore.createCompany(company, membership, 5)).rejects.toBeInstanceOf(CompanyLimitReached);
  });

  it('A9: the sign-up puts the guard of its company with the profile', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const profile = { id: 'u1', email: 'ona@example.com', created_at: company.created_at } as ProfileRecord;
    expect(await ddbAccountsStore.provisionUser(profile, company)).toBe(true);
    expect(guardPut()).toMatchObject({ Item: { ...guardKey, company_id: 'C2' }, ConditionExpression: 'attribute_not_exists(pk)' });
  });

  it('A27: deleting the company deletes its creator guard, only while it names this company', async () => {
    ddbMock.on(BatchWriteCommand).resolves({});
    ddbMock.on(DeleteCommand).resolves({});
    await ddbAccountsStore.deleteCompany(company, [membership]);
    const deletes = ddbMock.commandCalls(DeleteCommand).map((c) => c.args[0].input);
    expect(deletes).toEqual([
      { TableName: T, Key: guardKey, ConditionExpression: 'company_id = :company', ExpressionAttributeValues: { ':company': 'C2' } },
    ]);
  });
});

describe('ddb accounts store: companies’ counts and a month’s usage (A6)', () => {
  it('reads the month’s usage with the quota recorded for it; a month without one, or without an item, has none', async () => {
    ddbMock.on(BatchGetCommand).resolves({
      Responses: {
        [T]: [
          { pk: 'COMPANY#C1', sk: 'USAGE#2026-09', used_documents: 180, duplicated_documents: 2, quota_taken: 180, available_documents: 200 },
          { pk: 'COMPANY#C2', sk: 'USAGE#2026-09', used_documents: 7, quota_taken: 7 },
        ],
      },
    });
    const stats = await ddbAccountsStore.getCompanyStats(['C1', 'C2', 'C3'], '2026-09');
    expect(stats.get('C1')!.usage).toEqual({ used_documents: 180, duplicated_documents: 2, available_documents: 200 });
    expect(stats.get('C2')!.usage).toEqual({ used_documents: 7, duplicated_documents: 0 });
    expect(stats.get('C3')!.usage).toEqual({ used_documents: 0, duplicated_documents: 0 });
  });
});

describe('ddb accounts store: an account deleted (A25 without a kept company, A30)', () => {
  it('A25: a company deleted with its only member’s account is conditioned on its META item only', async () => {
    ddbMock.on(DeleteCommand).resolvesOnce({}).rejectsOnce(new ConditionalCheckFailedException({ message: 'gone', $metadata: {} }));
    expect(await ddbAccountsStore.deleteCompanyRecord('C2', null)).toBeUndefined();
    expect(await ddbAccountsStore.deleteCompanyRecord('C2', null)).toBe('gone');
    expect(ddbMock.commandCalls(DeleteCommand)[0]!.args[0].input).toEqual({
      TableName: T,
      Key: { pk: 'COMPANY#C2', sk: 'META' },
      ConditionExpression: 'attribute_exists(pk)',
    });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('A30: deletes every item of the user’s own partition, read page by page', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ pk: 'USER#u1', sk: 'PROFILE' }, { pk: 'USER#u1', sk: 'COMPANYCODE#lt305123' }], LastEvaluatedKey: { pk: 'USER#u1', sk: 'COMPANYCODE#lt305123' } })
      .resolvesOnce({ Items: [{ pk: 'USER#u1', sk: 'DOCCOUNTS#receipt' }] });
    ddbMock.on(BatchWriteCommand).resolves({});
    await ddbAccountsStore.deleteUserItems('u1');
    const query = ddbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query).toMatchObject({ TableName: T, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'USER#u1' }, ProjectionExpression: 'pk, sk' });
    const deleted = ddbMock.commandCalls(BatchWriteCommand).flatMap((c) => (c.args[0].input.RequestItems![T] ?? []).map((r) => r.DeleteRequest!.Key));
    expect(deleted).toEqual([
      { pk: 'USER#u1', sk: 'PROFILE' },
      { pk: 'USER#u1', sk: 'COMPANYCODE#lt305123' },
      { pk: 'USER#u1', sk: 'DOCCOUNTS#receipt' },
    ]);
  });
});

describe('ddb accounts store: a company handed over (A31)', () => {
  const partner = { user_id: 'u2', name: 'Jonas', surname: 'Jonaitis', email: 'jonas@example.com' };
  type Tx = Record<string, { Key?: Record<string, unknown>; Item?: Record<string, unknown>; ConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown> }>;
  const tx = (n: number) => ddbMock.commandCalls(TransactWriteCommand)[n]!.args[0].input.TransactItems as Tx[];

  it('sets the owner while the caller owns it, checks the new owner is an admin member, moves the code guard', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await ddbAccountsStore.transferCompanyOwner(company, partner)).toBeUndefined();
    const [meta, member, guard, release] = tx(0);
    expect(meta!.Update).toMatchObject({ Key: { pk: 'COMPANY#C2', sk: 'META' }, ConditionExpression: 'attribute_exists(pk) AND #owner.user_id = :current', ExpressionAttributeValues: { ':owner': partner, ':current': 'u1' } });
    expect(member!.ConditionCheck).toMatchObject({ Key: { pk: 'USER#u2', sk: 'MEMBER#C2' }, ConditionExpression: 'attribute_exists(pk) AND #role = :admin' });
    expect(guard!.Put).toMatchObject({ Item: { pk: 'USER#u2', sk: 'COMPANYCODE#lt305123', user_id: 'u2', company_id: 'C2' }, ConditionExpression: 'attribute_not_exists(pk) OR company_id = :self' });
    expect(release!.Delete).toMatchObject({ Key: guardKey, ConditionExpression: 'company_id = :self' });
  });

  it('answers what refused it: the owner changed, the member not an admin, a guard of the new owner; an old owner without a guard', async () => {
    ddbMock.on(TransactWriteCommand).rejectsOnce(canceled(['ConditionalCheckFailed', 'None', 'None', 'None'])).rejectsOnce(canceled(['None', 'ConditionalCheckFailed', 'None', 'None']));
    expect(await ddbAccountsStore.transferCompanyOwner(company, partner)).toBe('changed');
    expect(await ddbAccountsStore.transferCompanyOwner(company, partner)).toBe('not-admin');
    ddbMock.reset();
    ddbMock.on(TransactWriteCommand).rejectsOnce(canceled(['None', 'None', 'ConditionalCheckFailed', 'None']));
    ddbMock.on(GetCommand).resolves({ Item: { company_id: 'C9' } });
    await expect(ddbAccountsStore.transferCompanyOwner(company, partner)).rejects.toEqual(new CompanyCodeTaken('C9'));
    ddbMock.reset();
    ddbMock.on(TransactWriteCommand).rejectsOnce(canceled(['None', 'None', 'None', 'ConditionalCheckFailed'])).resolves({});
    expect(await ddbAccountsStore.transferCompanyOwner(company, partner, 'C7')).toBeUndefined();
    expect(tx(1)).toHaveLength(3);
    expect(tx(1)[2]!.Put!.ExpressionAttributeValues).toEqual({ ':self': 'C2', ':replacing': 'C7' });
  });
});
