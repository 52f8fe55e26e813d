import { describe, expect, it } from 'vitest';
import { DETAILS_MAX, type DetailsResponse, type ReceiptSummary } from '../../../shared/schemas/receipts';
import { loadForExport } from '../../../web/src/features/export/api/export';
import { ApiError, networkError } from '../../../web/src/lib/api-error';
import { receipt } from './receipt-fixture';

type Call = { path: string; body: { receipt_ids: string[] }; companyId: unknown };
type Answer = (call: Call) => DetailsResponse | Promise<DetailsResponse>;

/** An API whose POST /receipts/details answers with `answer` (default: every id found, with one content line); GET is not there. */
function fakeApi(answer?: Answer) {
  const calls: Call[] = [];
  const found: Answer = ({ body }) => ({
    items: body.receipt_ids.map((id) => ({ ...receipt({ receipt_id: id }), content: [{ id: `c-${id}` }] }) as unknown as DetailsResponse['items'][number]),
    not_found: [],
    remaining: [],
  });
  const api = {
    post: async (path: string, body: { receipt_ids: string[] }, opts: { query: { company_id: unknown } }) => {
      const call = { path, body, companyId: opts.query.company_id };
      calls.push(call);
      return (answer ?? found)(call);
    },
  } as unknown as Parameters<typeof loadForExport>[0];
  return { api, calls };
}

const row = (i: number, company: string | null): ReceiptSummary => receipt({ receipt_id: `R${i}`, company_id: company });

describe('loadForExport: the documents of the CSV and PDF exports', () => {
  it('reads list rows with one call per company and per 100 documents, in the order of the selection', async () => {
    // 150 of c1, 90 of c2 and 10 unassigned ones, mixed as an all-companies list shows them.
    const rows = Array.from({ length: 250 }, (_, i) => row(i, i % 5 === 4 ? (i < 50 ? null : 'c2') : i % 5 < 3 ? 'c1' : 'c2'));
    const counts = new Map<string | null, number>();
    for (const r of rows) counts.set(r.company_id, (counts.get(r.company_id) ?? 0) + 1);
    expect([counts.get('c1'), counts.get('c2'), counts.get(null)]).toEqual([150, 90, 10]);
    const { api, calls } = fakeApi();
    const docs = await loadForExport(api, rows);
    expect(docs.map((d) => d.receipt_id)).toEqual(rows.map((r) => r.receipt_id));
    expect(docs.every((d) => Array.isArray(d.content) && d.content.length === 1)).toBe(true);
    expect(calls.every((c) => c.path === '/receipts/details')).toBe(true);
    expect(calls.map((c) => [c.companyId, c.body.receipt_ids.length]).sort()).toEqual([
      ['NONE', 10],
      ['c1', 100],
      ['c1', 50],
      ['c2', 90],
    ]);
    for (const c of calls) expect(c.body.receipt_ids.length).toBeLessThanOrEqual(DETAILS_MAX);
    const c1 = calls.filter((c) => c.companyId === 'c1').flatMap((c) => c.body.receipt_ids);
    expect(c1).toEqual(rows.filter((r) => r.company_id === 'c1').map((r) => r.receipt_id));
  });

  it('keeps documents that already carry their content as they are, and asks nothing for them', async () => {
    const open = { ...row(1, 'c1'), content: [], pages: [], related_documents: [], available_template: false, history: [] };
    const { api, calls } = fakeApi();
    const docs = await loadForExport(api, [row(0, 'c1'), open, row(2, 'c1')]);
    expect(docs[1]).toBe(open);
    expect(docs.map((d) => d.receipt_id)).toEqual(['R0', 'R1', 'R2']);
    expect(calls.map((c) => c.body.receipt_ids)).toEqual([['R0', 'R2']]);
    expect((await loadForExport(fakeApi().api, [open]))[0]).toBe(open);
  });

  it('asks again for the documents an answer had no room for', async () => {
    const { api, calls } = fakeApi(({ body }) => ({
      items: body.receipt_ids.slice(0, 2).map((id) => ({ ...receipt({ receipt_id: id }), content: [] }) as unknown as DetailsResponse['items'][number]),
      not_found: [],
      remaining: body.receipt_ids.slice(2),
    }));
    const rows = Array.from({ length: 5 }, (_, i) => row(i, 'c1'));
    const docs = await loadForExport(api, rows);
    expect(docs.map((d) => d.receipt_id)).toEqual(['R0', 'R1', 'R2', 'R3', 'R4']);
    expect(calls.map((c) => c.body.receipt_ids)).toEqual([['R0', 'R1', 'R2', 'R3', 'R4'], ['R2', 'R3', 'R4'], ['R4']]);
  });

  it('stops the export with the message of a single read when a document is not found', async () => {
    const { api } = fakeApi(({ body }) => ({ items: [], not_found: body.receipt_ids.slice(0, 1), remaining: [] }));
    const failure = loadForExport(api, [row(0, 'c1'), row(1, 'c1')]);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 404, message: 'Document not found' });
  });

  it('stops the export with the error of a call that failed', async () => {
    const { api } = fakeApi(() => {
      throw networkError();
    });
    await expect(loadForExport(api, [row(0, 'c1')])).rejects.toMatchObject({ status: 0, message: 'No connection to the internet' });
  });

  it('does not loop on an answer that gives nothing back', async () => {
    const { api, calls } = fakeApi(({ body }) => ({ items: [], not_found: [], remaining: body.receipt_ids }));
    await expect(loadForExport(api, [row(0, 'c1')])).rejects.toThrow('Something went wrong');
    expect(calls).toHaveLength(1);
  });
});
