import { BatchGetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddbSupplierLayouts } from '../../../lambdas/adapters/ddb/layout-store';
import type { StoredSupplierLayout } from '../../../lambdas/core/recognition/ports';
import { mockDocumentTable } from '../../support/ddb-mock';

const ddbMock = mockDocumentTable();

const layout = (receipt: string, at: string): StoredSupplierLayout => ({
  hint: { supplier: { vat_id: 'LT119511515', name: 'Acme UAB' }, dateFormat: 'MM/DD/YYYY', fields: [{ field: 'document_id', page: 1, box: { left: 0.6, top: 0.1, width: 0.1, height: 0.01 }, labelWords: ['our', 'ref'], labelOffset: { dx: 0.08, dy: 0 }, kind: 'code' }] },
  source_receipt_id: receipt,
  learned_at: at,
  learned_by: 'u1',
});
const item = (companyId: string, sk: string, l: StoredSupplierLayout) => ({ pk: `COMPANY#${companyId}`, sk, type: 'SUPPLIER_LAYOUT', company_id: companyId, supplier_key: sk.slice(7), ...l });

describe('ddb supplier layouts (C3, C4, C7)', () => {
  it('C3: writes the layout under each supplier key of the company in one transaction', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const l = layout('r1', '2026-01-01T00:00:00.000Z');
    await ddbSupplierLayouts.put('c1', [{ kind: 'VAT', value: 'LT119511515' }, { kind: 'NAME', value: 'ACME' }, { kind: 'VAT', value: 'LT119511515' }], l);
    const calls = ddbMock.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input.TransactItems).toEqual([
      { Put: { TableName: 'unit-table', Item: { ...item('c1', 'LAYOUT#VAT#LT119511515', l), gsi1pk: 'LAYOUTSRC#c1#r1', gsi1sk: 'VAT#LT119511515' } } },
      { Put: { TableName: 'unit-table', Item: { ...item('c1', 'LAYOUT#NAME#ACME', l), gsi1pk: 'LAYOUTSRC#c1#r1', gsi1sk: 'NAME#ACME' } } },
    ]);
  });

  it('C7: the keys holding what one document taught, by gsi1; items of another company and unknown keys are dropped', async () => {
    ddbMock.on(QueryCommand).resolves({
      Items: [
        { company_id: 'c1', supplier_key: 'VAT#LT119511515' },
        { company_id: 'c1', supplier_key: 'NAME#ACME # CO' },
        { company_id: 'c2', supplier_key: 'CODE#304567891' },
        { company_id: 'c1', supplier_key: 'ODD#X' },
        { company_id: 'c1', supplier_key: 'NAME#' },
      ],
    });
    expect(await ddbSupplierLayouts.taughtBy('c1', 'r1')).toEqual([
      { kind: 'VAT', value: 'LT119511515' },
      { kind: 'NAME', value: 'ACME # CO' },
    ]);
    const calls = ddbMock.commandCalls(QueryCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toMatchObject({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': 'LAYOUTSRC#c1#r1' } });
  });

  it('C3: writes nothing without keys', async () => {
    await ddbSupplierLayouts.put('c1', [], layout('r1', '2026-01-01T00:00:00.000Z'));
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it('C4: one BatchGet of the company\'s keys; a layout stored under several keys comes once, newest first', async () => {
    const older = layout('r1', '2026-01-01T00:00:00.000Z');
    const newer = layout('r2', '2026-03-01T00:00:00.000Z');
    ddbMock.on(BatchGetCommand).resolves({
      Responses: { 'unit-table': [item('c1', 'LAYOUT#NAME#ACME', older), item('c1', 'LAYOUT#VAT#LT119511515', newer), item('c1', 'LAYOUT#CODE#304567891', newer)] },
    });
    const found = await ddbSupplierLayouts.find('c1', [{ kind: 'VAT', value: 'LT119511515' }, { kind: 'CODE', value: '304567891' }, { kind: 'NAME', value: 'ACME' }, { kind: 'NAME', value: 'ACME' }]);
    expect(found).toEqual([newer, older]);
    const calls = ddbMock.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input.RequestItems!['unit-table']!.Keys).toEqual([
      { pk: 'COMPANY#c1', sk: 'LAYOUT#VAT#LT119511515' },
      { pk: 'COMPANY#c1', sk: 'LAYOUT#CODE#304567891' },
      { pk: 'COMPANY#c1', sk: 'LAYOUT#NAME#ACME' },
    ]);
  });

  it('C4: reads nothing without keys; drops items of another company or without a hint', async () => {
    expect(await ddbSupplierLayouts.find('c1', [])).toEqual([]);
    expect(ddbMock.calls()).toHaveLength(0);
    ddbMock.on(BatchGetCommand).resolves({
      Responses: { 'unit-table': [item('c2', 'LAYOUT#VAT#LT119511515', layout('r9', '2026-01-01T00:00:00.000Z')), { pk: 'COMPANY#c1', sk: 'LAYOUT#NAME#ACME', company_id: 'c1', hint: { fields: 'broken' } }] },
    });
    expect(await ddbSupplierLayouts.find('c1', [{ kind: 'VAT', value: 'LT119511515' }, { kind: 'NAME', value: 'ACME' }])).toEqual([]);
  });

  it('C4: retries the keys DynamoDB left unprocessed', async () => {
    const l = layout('r1', '2026-01-01T00:00:00.000Z');
    ddbMock
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { 'unit-table': [] }, UnprocessedKeys: { 'unit-table': { Keys: [{ pk: 'COMPANY#c1', sk: 'LAYOUT#VAT#LT119511515' }] } } })
      .resolvesOnce({ Responses: { 'unit-table': [item('c1', 'LAYOUT#VAT#LT119511515', l)] } });
    expect(await ddbSupplierLayouts.find('c1', [{ kind: 'VAT', value: 'LT119511515' }])).toEqual([l]);
    expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(2);
  });
});
