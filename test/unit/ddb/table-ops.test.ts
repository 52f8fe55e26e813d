/**
 * Batch reads and writes: what DynamoDB leaves unprocessed (throttling) is sent again, and an error when it stays so.
 * Conditional writes: refused by their condition is an answer (false), any other failure an error.
 */
import { BatchGetCommand, BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { batchDelete, batchGet, batchWrite, writeIf } from '../../../lambdas/adapters/ddb/table-ops';
import { mockDocumentTable } from '../../support/ddb-mock';

const ddbMock = mockDocumentTable();
const key = (n: number) => ({ pk: `COMPANY#c${n}`, sk: 'COMPANY' });

describe('batch table operations', () => {
  it('reads the keys DynamoDB left unprocessed again, and all items come back', async () => {
    ddbMock
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { 'unit-table': [key(1)] }, UnprocessedKeys: { 'unit-table': { Keys: [key(2)] } } })
      .resolvesOnce({ Responses: { 'unit-table': [key(2)] } });
    expect(await batchGet([key(1), key(2)])).toEqual([key(1), key(2)]);
    expect(ddbMock.commandCalls(BatchGetCommand)[1]!.args[0].input.RequestItems!['unit-table']!.Keys).toEqual([key(2)]);
  });

  it('throws when keys stay unprocessed, instead of answering without their items', async () => {
    ddbMock.on(BatchGetCommand).resolves({ Responses: { 'unit-table': [key(1)] }, UnprocessedKeys: { 'unit-table': { Keys: [key(2)] } } });
    await expect(batchGet([key(1), key(2)])).rejects.toThrow('1 reads were not processed');
    expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(8);
  }, 20_000);

  it('throws when deletes or writes stay unprocessed', async () => {
    ddbMock.on(BatchWriteCommand).resolves({ UnprocessedItems: { 'unit-table': [{ DeleteRequest: { Key: key(3) } }] } });
    await expect(batchDelete([key(3)])).rejects.toThrow('1 writes were not processed');
    await expect(batchWrite([{ PutRequest: { Item: key(4) } }])).rejects.toThrow('1 writes were not processed');
  }, 20_000);

  it('writeIf answers whether the conditional write was made, and throws what is not a refused condition', async () => {
    const put = () => new PutCommand({ TableName: 'unit-table', Item: key(5), ConditionExpression: 'attribute_not_exists(pk)' });
    ddbMock
      .on(PutCommand)
      .resolvesOnce({})
      .rejectsOnce(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' }))
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException' }));
    expect(await writeIf(put())).toBe(true);
    expect(await writeIf(put())).toBe(false);
    await expect(writeIf(put())).rejects.toThrow('Rate exceeded');
  });
});
