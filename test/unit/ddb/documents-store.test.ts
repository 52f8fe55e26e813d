import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ddbDocumentsStore, documentItem, searchItems, toRecord } from '../../../lambdas/adapters/ddb/documents-store';
import { emptyChange, type UploadRecord } from '../../../lambdas/core/documents/types';
import { reserveOneDocument } from '../../../lambdas/core/documents/upload';
import { mockDocumentTable } from '../../support/ddb-mock';
import { seededDocument } from '../../support/document-records';

const T = 'unit-table';

describe('document items as stored', () => {
  const doc = seededDocument({ receipt_id: 'r1', scope: 'C#co1', created_at: '2026-01-05T10:00:00.000Z', counterparty_name: 'Maxima' });

  it('writes the search items of a document read back from the table as search items', () => {
    const stored = documentItem(doc);
    expect(stored.type).toBe('DOCUMENT');
    const readBack = toRecord(stored);
    expect(readBack).not.toHaveProperty('type');
    const items = searchItems(readBack);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.type).toBe('DOC_SEARCH');
  });

  it('writes a record read from a search item as the document item', () => {
    const fromSearch = toRecord(searchItems(doc)[0]!);
    expect(fromSearch).toEqual(toRecord(documentItem(doc)));
    expect(documentItem(fromSearch).type).toBe('DOCUMENT');
  });
});

describe('ddb documents store: the month’s usage item (D11, D13, D14)', () => {
  const ddbMock = mockDocumentTable(T);
  beforeEach(() => {
    ddbMock.on(TransactWriteCommand).resolves({});
  });

  /** The usage Update of the one transaction sent. */
  const usageUpdate = () => {
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems ?? [];
    return items.find((i) => i.Update && String(i.Update.Key?.sk).startsWith('USAGE#'))?.Update;
  };

  it('a reservation counts against the quota and keeps that quota on the month’s item', async () => {
    const upload = { upload_id: 'up1', company_id: 'co1', state: 'pending', expires_at: '2026-11-21T10:20:00.000Z', month: '2026-11' } as UploadRecord;
    await ddbDocumentsStore.putUpload(upload, reserveOneDocument('co1', '2026-11', 40));
    expect(usageUpdate()).toEqual({
      TableName: T,
      Key: { pk: 'COMPANY#co1', sk: 'USAGE#2026-11' },
      UpdateExpression: 'ADD quota_taken :quota_taken, reserved_documents :reserved_documents SET available_documents = :quota',
      ConditionExpression: '(attribute_not_exists(quota_taken) OR quota_taken <= :limit)',
      ExpressionAttributeValues: { ':quota_taken': 1, ':reserved_documents': 1, ':limit': 39, ':quota': 40 },
    });
  });

  it('a usage change without the quota (a give-back) leaves the month’s quota as it is', async () => {
    const change = emptyChange();
    change.usage = { companyId: 'co1', month: '2026-11', quota_taken: -1, reserved_documents: -1, used_documents: 0, duplicated_documents: 0 };
    await ddbDocumentsStore.commit(change);
    expect(usageUpdate()).toEqual({
      TableName: T,
      Key: { pk: 'COMPANY#co1', sk: 'USAGE#2026-11' },
      UpdateExpression: 'ADD quota_taken :quota_taken, reserved_documents :reserved_documents',
      ExpressionAttributeValues: { ':quota_taken': -1, ':reserved_documents': -1 },
    });
  });
});
