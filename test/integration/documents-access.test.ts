/**
 * Tenant isolation of every documents route: a member of another company gets 403 (company named) or
 * 404 (document named), with the same answer for an existing and a non-existing id, and nothing changes.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { registeredUser, startTestStack, uploadDocument, type ApiResponse, type TestStack } from '../support/local-stack';

type Summary = { receipt_id: string; version: number; status: string };

async function pdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 50, y: 700, size: 14, font });
  return doc.save();
}

const MISSING = '01MISSINGDOCUMENT000000000';
/** The answer with the asked-for id blanked out (bulk answers echo the id). */
const answer = (r: ApiResponse, id: string) => ({ status: r.status, body: JSON.parse(JSON.stringify(r.body ?? null).replaceAll(id, '<id>')) as unknown });

describe('documents: another company learns nothing', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers every route the same for another company’s document and a missing one', async () => {
    const victim = await registeredUser(t.stack, 'victim');
    const intruder = await registeredUser(t.stack, 'intruder');
    await uploadDocument(victim.api, { company_id: victim.companyId, original_file_name: 'secret.pdf' }, await pdf('SECRET UAB Total 99.00'));
    await uploadDocument(victim.api, { company_id: 'NONE', original_file_name: 'loose.pdf' }, await pdf('LOOSE UAB Total 1.00'));
    await uploadDocument(intruder.api, { company_id: intruder.companyId, original_file_name: 'mine.pdf' }, await pdf('MINE UAB Total 2.00'));
    await uploadDocument(intruder.api, { company_id: 'NONE', original_file_name: 'my-loose.pdf' }, await pdf('MY LOOSE UAB Total 2.00'));
    await t.stack.jobs.idle();
    const secret = ((await victim.api.get(`/receipts?company_id=${victim.companyId}`)).body as { items: Summary[] }).items[0]!;
    const loose = ((await victim.api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as { items: Summary[] }).items[0]!;
    const mine = ((await intruder.api.get(`/receipts?company_id=${intruder.companyId}`)).body as { items: Summary[] }).items[0]!;
    const myLoose = ((await intruder.api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as { items: Summary[] }).items[0]!;
    const countsBefore = (await victim.api.get(`/receipts/total-documents?company_id=${victim.companyId}`)).body;
    const api = intruder.api;
    const own = `company_id=${intruder.companyId}`;
    const theirs = `company_id=${victim.companyId}`;

    /** Each document route, called with a receipt id. */
    const byId: Record<string, (id: string, q: string) => Promise<ApiResponse>> = {
      'GET /receipts/{id}': (id, q) => api.get(`/receipts/${id}?${q}`),
      'GET /receipts/{id}/history': (id, q) => api.get(`/receipts/${id}/history?${q}`),
      'GET /receipts/{id}/duplicates': (id, q) => api.get(`/receipts/${id}/duplicates?${q}`),
      'POST /receipts/{id}/company': (id, q) => api.post(`/receipts/${id}/company?${q}`, { company_id: intruder.companyId }),
      'POST /receipts/{id}/combine': (id, q) => api.post(`/receipts/${mine.receipt_id}/combine?${q}`, { receipt_id: id }),
      'POST /receipts/{id}/restart': (id, q) => api.post(`/receipts/${id}/restart?${q}`, {}),
      'POST /receipt/{id}/status': (id, q) => api.post(`/receipt/${id}/status?${q}`, { status: 'archive' }),
      'POST /receipt/{id}/flag': (id, q) => api.post(`/receipt/${id}/flag?${q}`, { flag: true }),
      'POST /receipt/{id}/type': (id, q) => api.post(`/receipt/${id}/type?${q}`, { receipt_type: 'invoice' }),
      'PUT /receipt/{id}/notes': (id, q) => api.put(`/receipt/${id}/notes?${q}`, { notes: 'Intruder' }),
      'DELETE /receipt/{id}': (id, q) => api.delete(`/receipt/${id}?${q}`),
      'POST /receipts/export-xml': (id, q) => api.post(`/receipts/export-xml?${q}`, { receipt_ids: [id] }),
      'POST /receipts/export-isaf': (id, q) => api.post(`/receipts/export-isaf?${q}`, { receipt_ids: [id] }),
      'POST /receipts/details': (id, q) => api.post(`/receipts/details?${q}`, { receipt_ids: [id] }),
      'POST /receipts/bulk': (id, q) => api.post(`/receipts/bulk?${q}`, { action: 'status', status: 'archive', receipt_ids: [id] }),
      'GET /upload/document': (id, q) => api.get(`/upload/document?${q}&original_file_name=x.pdf&size=10&receipt_id=${id}`),
    };
    /** Routes that name a company but no document. */
    const byCompany: Record<string, (q: string) => Promise<ApiResponse>> = {
      'GET /receipts': (q) => api.get(`/receipts?${q}`),
      'GET /receipts/total-documents': (q) => api.get(`/receipts/total-documents?${q}`),
      'GET /upload/document': (q) => api.get(`/upload/document?${q}&original_file_name=x.pdf&size=10`),
    };
    // Every route of the documents part (its handlers) is covered here.
    const documentHandlers = /^http\/(receipts\/(get-receipts|get-total-documents|get-receipt|get-history|get-duplicates|post-company|post-combine|post-restart|post-export-xml|post-export-isaf|post-details|post-bulk)|receipt\/(post-status|post-flag|post-type|put-notes|delete-receipt)|upload\/get-upload-document)$/;
    const documentRoutes = routes.filter((r) => documentHandlers.test(r.handler)).map((r) => `${r.method} ${r.path}`);
    expect(documentRoutes).toHaveLength(18);
    for (const route of documentRoutes) expect(route in byId || route in byCompany, `${route} is covered`).toBe(true);

    for (const [route, call] of Object.entries(byId)) {
      // Named in the intruder's own company (or NONE): 404 for the victim's documents and for a missing one alike.
      for (const q of [own, 'company_id=NONE']) {
        const missing = await call(MISSING, q);
        for (const target of [secret.receipt_id, loose.receipt_id]) {
          const res = await call(target, q);
          expect(res.status, `${route} ${q}`).toBe(route === 'POST /receipts/bulk' || route === 'POST /receipts/details' ? 200 : 404);
          expect(answer(res, target), `${route} ${q}`).toEqual(answer(missing, MISSING));
          if (route === 'POST /receipts/bulk') expect(res.body).toMatchObject({ results: [{ ok: false, status: 404, message: 'Document not found' }] });
          else if (route === 'POST /receipts/details') expect(res.body).toEqual({ items: [], not_found: [target], remaining: [] });
          else expect(res.body).toMatchObject({ statusCode: 404, message: 'Document not found' });
          expect(JSON.stringify(res.body)).not.toMatch(/SECRET|LOOSE|secret\.pdf|loose\.pdf/);
        }
      }
      // Named in the victim's company: 403 whatever the id.
      const forbiddenExisting = await call(secret.receipt_id, theirs);
      const forbiddenMissing = await call(MISSING, theirs);
      expect(forbiddenExisting.status, route).toBe(403);
      expect(forbiddenExisting.body).toEqual(forbiddenMissing.body);
    }
    for (const [route, call] of Object.entries(byCompany)) {
      const res = await call(theirs);
      expect(res.status, route).toBe(403);
      expect(res.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'You are not a member of this company' });
    }
    // Nor may the intruder move their own unassigned document into the victim's company.
    const move = await api.post(`/receipts/${myLoose.receipt_id}/company?company_id=NONE`, { company_id: victim.companyId });
    expect(move.status).toBe(403);
    // The intruder's own lists never show the victim's documents.
    const ownList = (await api.get(`/receipts?selected=ALL`)).body as { items: Summary[] };
    expect(ownList.items.map((d) => d.receipt_id)).toEqual([mine.receipt_id]);
    const ownUnassigned = (await api.get('/receipts?company_id=NONE&receipt_status=unassigned')).body as { items: Summary[] };
    expect(ownUnassigned.items.map((d) => d.receipt_id)).toEqual([myLoose.receipt_id]);

    // Nothing of the victim changed.
    const after = (await victim.api.get(`/receipts/${secret.receipt_id}?company_id=${victim.companyId}`)).body as Summary;
    expect(after).toMatchObject({ version: secret.version, status: secret.status });
    const looseAfter = (await victim.api.get(`/receipts/${loose.receipt_id}?company_id=NONE`)).body as Summary;
    expect(looseAfter).toMatchObject({ version: loose.version, status: 'unassigned' });
    expect((await victim.api.get(`/receipts/total-documents?company_id=${victim.companyId}`)).body).toEqual(countsBefore);
  });
});
