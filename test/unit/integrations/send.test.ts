/** The list's Send: documents confirmed before an unexpected failure are still queued for the export targets. */
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import type { DocumentRecord } from '../../../lambdas/core/documents/types';
import { CONFIRMED_NOT_SENT, failedTargets, NO_EXPORT_TARGET, SEND_TIME_UP, sendDocuments, type SendConfirm } from '../../../lambdas/core/integrations/export';
import { API_HANDLER_TIMEOUT_SECONDS, BULK_SEND_BUDGET_MS } from '../../../shared/processing-limits';
import type { ExportMessage } from '../../../lambdas/core/integrations/ports';
import type { ReceiptSummary } from '../../../shared/schemas/receipts';
import { memoryAccounts, MemoryDocuments, MemoryFiles } from '../documents/fakes';

describe("the list's Send", () => {
  it('queues the documents it confirmed even when a later one fails unexpectedly (none is left archived and unsent)', async () => {
    const clock = { now: () => new Date('2026-03-10T10:00:00Z') };
    const created = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Ona', surname: 'O', email: 'o@x' }, { newId: () => ulid() }, clock);
    const company = { ...created, integrations: { ...created.integrations!, ftp_export: true } };
    const documents = new MemoryDocuments();
    for (const id of ['D1', 'D2', 'D3']) documents.docs.set(id, { receipt_id: id, company_id: company.company_id, status: 'review', version: 1 } as DocumentRecord);
    const sent: ExportMessage[] = [];
    const confirm: SendConfirm = {
      confirm: async (_caller, id) => {
        if (id === 'D2') throw new Error('S3 is down');
        return { receipt_id: id, status: 'archive' } as ReceiptSummary;
      },
      check: async () => undefined,
    };
    const deps = { documents, files: new MemoryFiles(), store: memoryAccounts(company), live: { publish: async () => undefined, publishToUser: async () => undefined }, clock, ids: { newId: () => ulid() }, queue: { send: async (m: ExportMessage[]) => void sent.push(...m) } };
    await expect(sendDocuments(deps, confirm, { userId: 'u1', companyId: company.company_id }, ['D1', 'D2', 'D3'])).rejects.toThrow('S3 is down');
    expect(sent.map((m) => [m.receipt_id, m.target])).toEqual([['D1', 'ftp_export']]);
  });

  it('refuses with a clear message, confirming nothing, when the company has no export target switched on', async () => {
    const clock = { now: () => new Date('2026-03-10T10:00:00Z') };
    const company = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Ona', surname: 'O', email: 'o@x' }, { newId: () => ulid() }, clock);
    const documents = new MemoryDocuments();
    documents.docs.set('D1', { receipt_id: 'D1', company_id: company.company_id, status: 'archive', version: 1 } as DocumentRecord);
    const confirmed: string[] = [];
    const confirm: SendConfirm = {
      confirm: async (_caller, id) => {
        confirmed.push(id);
        return { receipt_id: id, status: 'archive' } as ReceiptSummary;
      },
      check: async (_caller, id) => void confirmed.push(id),
    };
    const sent: ExportMessage[] = [];
    const deps = { documents, files: new MemoryFiles(), store: memoryAccounts(company), live: { publish: async () => undefined, publishToUser: async () => undefined }, clock, ids: { newId: () => ulid() }, queue: { send: async (m: ExportMessage[]) => void sent.push(...m) } };
    await expect(sendDocuments(deps, confirm, { userId: 'u1', companyId: company.company_id }, ['D1'])).rejects.toMatchObject({ statusCode: 409, message: NO_EXPORT_TARGET });
    expect(confirmed).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('answers the confirmed documents as not sent, each with the export error on it, when the export queue fails', async () => {
    const clock = { now: () => new Date('2026-03-10T10:00:00Z') };
    const created = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Ona', surname: 'O', email: 'o@x' }, { newId: () => ulid() }, clock);
    const company = { ...created, integrations: { ...created.integrations!, nsoft_export: true } };
    const documents = new MemoryDocuments();
    documents.docs.set('D1', { receipt_id: 'D1', company_id: company.company_id, status: 'review', version: 1, error_message: null, user: { name: 'Ona', surname: 'O' }, pages: [] } as unknown as DocumentRecord);
    const confirm: SendConfirm = { confirm: async (_caller, id) => ({ receipt_id: id, status: 'archive' }) as ReceiptSummary, check: async () => undefined };
    const deps = { documents, files: new MemoryFiles(), store: memoryAccounts(company), live: { publish: async () => undefined, publishToUser: async () => undefined }, clock, ids: { newId: () => ulid() }, queue: { send: async () => Promise.reject(new Error('SQS is down')) } };
    const answer = await sendDocuments(deps, confirm, { userId: 'u1', companyId: company.company_id }, ['D1']);
    expect(answer).toEqual({ results: [{ receipt_id: 'D1', ok: false, status: 500, message: CONFIRMED_NOT_SENT, receipt: expect.anything() }] });
    expect(documents.docs.get('D1')!.error_message).toBe('Export to NSOFT failed: the export queue could not be reached');
  });

  it('sending a confirmed document again dismisses the failure of a target switched off since, and keeps the others', async () => {
    const clock = { now: () => new Date('2026-03-10T10:00:00Z') };
    const created = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Ona', surname: 'O', email: 'o@x' }, { newId: () => ulid() }, clock);
    // NSOFT failed, then was switched off; FTP is on and failed too
    const company = { ...created, integrations: { ...created.integrations!, ftp_export: true, nsoft_export: false } };
    const error = 'Export to NSOFT failed: 530 Login incorrect.; Export to FTP failed: connect ETIMEDOUT';
    expect(failedTargets(error)).toEqual(['ftp_export', 'nsoft_export']);
    expect(failedTargets('The page was not processed')).toEqual([]);
    const documents = new MemoryDocuments();
    documents.docs.set('D1', { receipt_id: 'D1', company_id: company.company_id, status: 'archive', version: 3, error_message: error, user: { name: 'Ona', surname: 'O' }, pages: [] } as unknown as DocumentRecord);
    const sent: ExportMessage[] = [];
    const confirm: SendConfirm = { confirm: async () => Promise.reject(new Error('an archived document is not confirmed again')), check: async () => undefined };
    const deps = { documents, files: new MemoryFiles(), store: memoryAccounts(company), live: { publish: async () => undefined, publishToUser: async () => undefined }, clock, ids: { newId: () => ulid() }, queue: { send: async (m: ExportMessage[]) => void sent.push(...m) } };
    const answer = await sendDocuments(deps, confirm, { userId: 'u1', companyId: company.company_id }, ['D1']);
    expect(sent.map((m) => [m.receipt_id, m.target])).toEqual([['D1', 'ftp_export']]);
    expect(documents.docs.get('D1')!.error_message).toBe('Export to FTP failed: connect ETIMEDOUT');
    expect(documents.historyItems.map((h) => h.name)).toEqual(['Export to NSOFT not tried again: the NSOFT integration is switched off']);
    // the answer carries the document as it is now (the screens drop the dismissed failure at once)
    expect(answer.results[0]).toMatchObject({ ok: true, receipt: { receipt_id: 'D1', error: { message: 'Export to FTP failed: connect ETIMEDOUT' } } });

    // only the switched-off target failed: the error is gone
    documents.docs.set('D2', { receipt_id: 'D2', company_id: company.company_id, status: 'archive', version: 1, error_message: 'Export to NSOFT failed: 530 Login incorrect.', user: { name: 'Ona', surname: 'O' }, pages: [] } as unknown as DocumentRecord);
    await sendDocuments(deps, confirm, { userId: 'u1', companyId: company.company_id }, ['D2']);
    expect(documents.docs.get('D2')!.error_message).toBeNull();
  });

  it('stops taking documents when its time is up, answers the rest as not sent, and queues those it confirmed', async () => {
    // Each confirm takes 6 s of the function's time: documents started at 0, 6, 12 and 18 s are confirmed.
    let now = Date.parse('2026-03-10T10:00:00Z');
    const clock = { now: () => new Date(now) };
    const created = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Ona', surname: 'O', email: 'o@x' }, { newId: () => ulid() }, clock);
    const company = { ...created, integrations: { ...created.integrations!, ftp_export: true } };
    const documents = new MemoryDocuments();
    const ids = ['D1', 'D2', 'D3', 'D4', 'D5', 'D6'];
    for (const id of ids) documents.docs.set(id, { receipt_id: id, company_id: company.company_id, status: 'review', version: 1 } as DocumentRecord);
    const sent: ExportMessage[] = [];
    const confirm: SendConfirm = {
      confirm: async (_caller, id) => {
        now += 6_000;
        return { receipt_id: id, status: 'archive' } as ReceiptSummary;
      },
      check: async () => undefined,
    };
    const deps = { documents, files: new MemoryFiles(), store: memoryAccounts(company), live: { publish: async () => undefined, publishToUser: async () => undefined }, clock, ids: { newId: () => ulid() }, queue: { send: async (m: ExportMessage[]) => void sent.push(...m) } };
    const answer = await sendDocuments(deps, confirm, { userId: 'u1', companyId: company.company_id }, ids);
    expect(answer.results.map((r) => [r.receipt_id, r.ok, r.status, r.message])).toEqual([
      ['D1', true, 200, undefined],
      ['D2', true, 200, undefined],
      ['D3', true, 200, undefined],
      ['D4', true, 200, undefined],
      ['D5', false, 503, SEND_TIME_UP],
      ['D6', false, 503, SEND_TIME_UP],
    ]);
    expect(sent.map((m) => m.receipt_id)).toEqual(['D1', 'D2', 'D3', 'D4']);
    // The last document started before the budget ends, and the function still has time to finish it and queue.
    expect(BULK_SEND_BUDGET_MS + 6_000).toBeLessThan(API_HANDLER_TIMEOUT_SECONDS * 1000);
  });
});
