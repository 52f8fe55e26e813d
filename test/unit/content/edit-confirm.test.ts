/**
 * CONFIRM (applyEditAction with the send flag) that the documents domain refuses — a stale version, an archived or
 * busy document — is refused before anything is written: no supplier is created or linked, the document keeps its
 * version, and the read-only 409 comes before the content's 422.
 */
import { describe, expect, it } from 'vitest';
import { applyEditAction, type ConfirmLearning } from '../../../lambdas/core/content/edit';
import type { EditMasterData } from '../../../lambdas/core/content/edit-master-data';
import type { ContentPorts } from '../../../lambdas/core/content/ports';
import { companySchema } from '../../../lambdas/core/content/schema';
import { toStored } from '../../../lambdas/core/content/service';
import { emptyContent, setValues } from '../../../lambdas/core/content/tree';
import { MESSAGES, nextStatus, toWorkflowAction } from '../../../lambdas/core/documents/status-machine';
import type { DocumentRecord } from '../../../lambdas/core/documents/types';
import { toSummary } from '../../../lambdas/core/documents/views';
import type { StatusAction } from '../../../shared/schemas/receipts';
import { AppError, conflict } from '../../../shared/errors';
import type { CreateStakeholderInput } from '../../../shared/schemas/master-data';
import { countingStore, stakeholderRecord } from '../../support/master-data-records';
import { memoryLayouts } from '../documents/fakes';

const VALID = { supplier_name: 'Omega Trading UAB', supplier_code: '304050607', supplier_vat_id: 'LT119511515', document_id: 'HF-100', issue_date: '2024-03-04', amount_total: '99.10' };

function record(overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    receipt_id: 'r1', scope: 'C#c1', company_id: 'c1', company_name: 'Mano UAB', company_code: '300000001', user_id: 'u1',
    user: { name: 'Ona', surname: 'Onaitė' }, receipt_type: 'receipt', status: 'review', flag: false, notes: '', category: null,
    original_file_name: 'invoice.pdf', email_id: null, duplicate_id: null, stakeholder_id: null, counterparty_name: '',
    document_number: '', issue_date: null, total: null, currency: null, search_text: '', key_digest: null, can_be_restarted: false,
    error_message: null, created_at: '2025-05-01T10:00:00.000Z', updated_at: '2025-05-01T10:00:00.000Z', version: 3, upload_id: null,
    mode: 'single', split_page: null, upload_type: null, process_rows: false, source: null,
    pages: [{ page: 1, document: 'invoice.pdf', image_key: 'p1.jpg', status: 'processed', width: 1000, height: 1400 }],
    content_key: 'content/r1.json', boxes_key: null, related_documents: [], charged_month: null, processing_run: 1,
    ...overrides,
  };
}

/** One document, a workflow that refuses as the documents domain does, and a register that records what is created. */
function setup(doc: Partial<DocumentRecord>, values: Record<string, string> = VALID) {
  let current = record(doc);
  const stored = toStored(setValues(emptyContent(companySchema()), Object.entries(values).map(([id, value]) => ({ id, value }))));
  const writes: string[] = [];
  const ports: ContentPorts = {
    clock: { now: () => new Date('2026-02-01T12:00:00Z') },
    documents: {
      async load(caller, id) {
        if (id !== current.receipt_id || caller.companyId !== current.company_id) throw new AppError('NotFound', 'Document not found');
        return structuredClone(current);
      },
      saveContent: async () => {
        throw new Error('not used: no values are sent');
      },
      loadMany: async () => [],
    },
    blobs: { readContent: async () => structuredClone(stored), writeContent: async () => 'unused', readBoxes: async () => [], writeBoxes: async () => undefined },
    settings: {
      getSchemaOverrides: async () => ({}),
      readSchemaOverrides: async () => ({ overrides: {}, version: 0 }),
      putSchemaOverrides: async () => true,
      getGridTemplate: async () => undefined,
      putGridTemplate: async () => undefined,
      getCompany: async () => undefined,
    },
  };
  const stale = (version?: number) => {
    if (version !== undefined && version !== current.version) throw conflict(MESSAGES.stale, { version: current.version });
  };
  const workflow = {
    async changeStatus(_c: unknown, _id: string, status: StatusAction, version?: number) {
      stale(version);
      let action = toWorkflowAction(status);
      if (action === 'review' && current.status === 'archive') action = 'unarchive';
      current = { ...current, status: nextStatus(current.status, action), version: current.version + 1 };
      writes.push(`status ${status}`);
      return toSummary(current);
    },
  };
  const store = countingStore();
  const created: CreateStakeholderInput[] = [];
  const masterData: EditMasterData = {
    store,
    async setMasterData(_c, _id, patch, history, version) {
      // As setDocumentFields: the version is the condition; the status is not checked there.
      stale(version);
      current = { ...current, stakeholder_id: patch.stakeholder_id ?? current.stakeholder_id, version: current.version + 1 };
      writes.push(history);
      return toSummary(current);
    },
    async ensureStakeholder(companyId, type, input) {
      created.push(input);
      const s = stakeholderRecord(companyId, { id: `new-${created.length}`, type, name: input.name, code: input.code, vat_id: input.vat_id ?? '' });
      await store.putStakeholder(s);
      return { stakeholder: s, created: true };
    },
  };
  const learning: ConfirmLearning = { layouts: memoryLayouts(), log: { info: () => undefined, warn: () => undefined } };
  const confirm = (version: number) => applyEditAction(ports, workflow, { userId: 'u2', companyId: 'c1' }, 'r1', { version }, true, learning, masterData);
  return { confirm, created, writes, current: () => current };
}

describe('a CONFIRM the documents domain refuses writes nothing', () => {
  it('a stale confirm creates no stakeholder', async () => {
    const s = setup({ version: 4 });
    await expect(s.confirm(3)).rejects.toMatchObject({ statusCode: 409, message: 'The document was changed by someone else', details: { version: 4 } });
    expect(s.created).toEqual([]);
    expect(s.writes).toEqual([]);
    expect(s.current()).toMatchObject({ version: 4, stakeholder_id: null, status: 'review' });
  });

  it('confirming an archived document changes nothing', async () => {
    const s = setup({ status: 'archive', version: 8 });
    await expect(s.confirm(8)).rejects.toMatchObject({ statusCode: 409, message: 'Archived documents are read-only' });
    expect(s.created).toEqual([]);
    expect(s.writes).toEqual([]);
    expect(s.current()).toMatchObject({ version: 8, stakeholder_id: null, status: 'archive' });
  });

  it('confirming an incomplete archived document answers the read-only 409', async () => {
    const s = setup({ status: 'archive', version: 8 }, { supplier_name: 'Omega Trading UAB' });
    await expect(s.confirm(8)).rejects.toMatchObject({ statusCode: 409, message: 'Archived documents are read-only' });
    expect(s.created).toEqual([]);
  });

  it('a stale confirm of an archived document answers the stale 409 first, as other edits do', async () => {
    const s = setup({ status: 'archive', version: 9 });
    await expect(s.confirm(8)).rejects.toMatchObject({ statusCode: 409, details: { version: 9 } });
  });

  it('confirming a document being processed answers 409 and creates nothing', async () => {
    const s = setup({ status: 'processing' });
    await expect(s.confirm(3)).rejects.toMatchObject({ statusCode: 409, message: 'The document is being processed' });
    expect(s.created).toEqual([]);
  });

  it('a confirm that goes through creates the supplier, links it, then archives', async () => {
    const s = setup({});
    await expect(s.confirm(3)).resolves.toMatchObject({ status: 'archive', version: 5 });
    expect(s.created).toEqual([expect.objectContaining({ name: 'Omega Trading UAB', code: '304050607' })]);
    expect(s.writes).toEqual(['New stakeholder saved', 'status archive']);
    expect(s.current()).toMatchObject({ stakeholder_id: 'new-1' });
  });
});
