import { describe, expect, it } from 'vitest';
import { bulkBodySchema } from '../../../shared/schemas/receipts';
import { exportedVersions, loadForExport } from '../../../web/src/features/export/api/export';
import { bulkCallBody } from '../../../web/src/features/receipts/api/receipts';
import { receipt } from './receipt-fixture';

/**
 * "Move items to archive after export": the move names the version of each document the file holds, so the server
 * refuses (409) a document a colleague changed after the export read it instead of archiving a version the file
 * does not hold.
 */
describe('the versions the export moves to archive', () => {
  it('CSV and PDF: the versions the export read, not the ones the selection showed', async () => {
    const rows = [receipt({ receipt_id: 'R1', version: 3 }), receipt({ receipt_id: 'R2', version: 5 })];
    // The details read for the file: R2 was saved by a colleague after the list showed it (version 6)
    const api = {
      post: async (_path: string, body: { receipt_ids: string[] }) => ({
        items: body.receipt_ids.map((id) => ({ ...receipt({ receipt_id: id, version: id === 'R2' ? 6 : 3 }), content: [] })),
        not_found: [],
        remaining: [],
      }),
    } as unknown as Parameters<typeof loadForExport>[0];
    const docs = await loadForExport(api, rows);
    expect([...exportedVersions(rows, docs)]).toEqual([
      ['R1', 3],
      ['R2', 6],
    ]);
  });

  it('XML, Rivile EIP and i.SAF (made by the server): the versions of the selection', () => {
    const rows = [receipt({ receipt_id: 'R1', version: 3 }), receipt({ receipt_id: 'R2', version: 5 })];
    expect([...exportedVersions(rows)]).toEqual([
      ['R1', 3],
      ['R2', 5],
    ]);
  });

  it('each bulk call names the versions of its own documents, in the shape the server takes', () => {
    const versions = new Map([
      ['R1', 3],
      ['R2', 6],
      ['R3', 1],
    ]);
    const body = bulkCallBody({ action: 'status', status: 'archive', versions }, ['R1', 'R2']);
    expect(body).toEqual({ action: 'status', status: 'archive', receipt_ids: ['R1', 'R2'], versions: { R1: 3, R2: 6 } });
    expect(bulkBodySchema.parse(body)).toEqual(body);
  });

  it('the list buttons status change names no versions (the documents as they stand)', () => {
    const body = bulkCallBody({ action: 'status', status: 'archive' }, ['R1']);
    expect(JSON.parse(JSON.stringify(body))).toEqual({ action: 'status', status: 'archive', receipt_ids: ['R1'] });
    expect(JSON.parse(JSON.stringify(bulkCallBody({ action: 'flag', flag: true }, ['R1'])))).toEqual({ action: 'flag', flag: true, receipt_ids: ['R1'] });
  });
});
