/**
 * What the export job leaves on the document: each target's failure stays visible until that target succeeds, and
 * a confirm whose queue write fails carries the export error instead of being left archived and silently unsent.
 */
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newCompanyRecord } from '../../../lambdas/core/accounts/companies';
import type { CompanyRecord } from '../../../lambdas/core/accounts/types';
import { toStored } from '../../../lambdas/core/content/service';
import type { DocumentRecord } from '../../../lambdas/core/documents/types';
import {
  CONFIRMED_NOT_SENT,
  exportErrorAfter,
  runExport,
  sendConfirmed,
  type ExportDeps,
} from '../../../lambdas/core/integrations/export';
import { TargetError, type ExportMessage, type ServerLogin, type StoredCredentials } from '../../../lambdas/core/integrations/ports';
import type { ExportTarget } from '../../../shared/schemas/integrations';
import { liveRecorder, memoryAccounts, MemoryDocuments, MemoryFiles } from '../documents/fakes';
import { exportDoc } from './fixtures';

const clock = { now: () => new Date('2026-03-10T10:00:00Z') };
const ids = { newId: () => ulid() };
const silent = { info: () => undefined, warn: () => undefined };
/** The server said '530 Login incorrect.': its full stop is left out, failures of several targets are joined by '; '. */
const FTP_530 = 'Export to FTP failed: 530 Login incorrect';

function companyWith(targets: ExportTarget[]): CompanyRecord {
  const created = newCompanyRecord({ name: 'Acme', code: '1' }, { id: 'u1', name: 'Ona', surname: 'O', email: 'o@x' }, ids, clock);
  return { ...created, integrations: { ...created.integrations!, ...Object.fromEntries(targets.map((t) => [t, true])) } };
}

/** Export deps with in-memory stores: each target's server is `<target>.example`; `refusing` ones answer 530. */
function exportDeps(company: CompanyRecord, refusing: Set<string>) {
  const documents = new MemoryDocuments();
  const files = new MemoryFiles();
  const credentials = new Map<string, StoredCredentials>();
  for (const target of ['ftp_export', 'nsoft_export'] as const) {
    const login: ServerLogin = { host: `${target}.example`, user: 'acme', password: 'secret' };
    credentials.set(target, { company_id: company.company_id, type: target, sealed: { alg: 'local-aes-256-gcm', key_id: 'k', ciphertext: JSON.stringify({ kind: 'server', login }) }, updated_at: '' });
  }
  const markers = new Map<string, Awaited<ReturnType<ExportDeps['integrations']['getExportMarker']>>>();
  const deps: ExportDeps = {
    documents,
    files,
    store: memoryAccounts(company),
    live: liveRecorder(),
    clock,
    ids,
    integrations: {
      getCredentials: async (_c, type) => credentials.get(type),
      putCredentials: async () => undefined,
      deleteCredentials: async () => undefined,
      setFlag: async () => undefined,
      getExportMarker: async (id, target) => markers.get(`${id}|${target}`),
      putExportMarker: async (m) => {
        markers.set(`${m.receipt_id}|${m.target}`, m);
        return true;
      },
    },
    secrets: { seal: async () => ({ alg: 'local-aes-256-gcm', key_id: 'k', ciphertext: '' }), open: async (sealed) => sealed.ciphertext },
    fileDrop: {
      test: async () => undefined,
      upload: async (login) => {
        if (refusing.has(login.host)) throw new TargetError('530 Login incorrect.', false);
      },
    },
    rivile: { call: async () => ({}) },
    queue: { send: async () => undefined },
    retry: { maxAttempts: 1, baseSeconds: 1 },
  };
  return { deps, documents, files };
}

async function archivedDocument(documents: MemoryDocuments, files: MemoryFiles, company: CompanyRecord, id: string) {
  const content = exportDoc({ fields: { issue_date: '2026-03-01', supplier_name: 'UAB Popierius' } }).content;
  await files.put(`content/${id}.json`, new TextEncoder().encode(JSON.stringify(toStored(content))));
  documents.docs.set(id, {
    receipt_id: id,
    company_id: company.company_id,
    user_id: 'u1',
    user: { name: 'Ona', surname: 'O' },
    receipt_type: 'receipt',
    status: 'archive',
    original_file_name: 'invoice.pdf',
    content_key: `content/${id}.json`,
    issue_date: '2026-03-01',
    error_message: null,
    created_at: '2026-03-01T08:00:00.000Z',
    pages: [],
    version: 1,
  } as unknown as DocumentRecord);
}

const message = (id: string, company: CompanyRecord, target: ExportTarget): ExportMessage => ({ receipt_id: id, company_id: company.company_id, target, attempt: 1, requested_by: 'u1', requested_at: '' });

describe('export outcomes on the document', () => {
  it("one target's success leaves another target's failure visible (FTP 530 stays when NSOFT succeeds), its own success clears it", async () => {
    const company = companyWith(['ftp_export', 'nsoft_export']);
    const refusing = new Set(['ftp_export.example']);
    const { deps, documents, files } = exportDeps(company, refusing);
    await archivedDocument(documents, files, company, 'D1');
    expect(await runExport(deps, message('D1', company, 'ftp_export'), silent)).toBe('failed');
    expect(await runExport(deps, message('D1', company, 'nsoft_export'), silent)).toBe('done');
    // The edit screen shows Send again while the error starts with 'Export to '.
    expect(documents.docs.get('D1')!.error_message).toBe(FTP_530);
    refusing.clear();
    expect(await runExport(deps, message('D1', company, 'ftp_export'), silent)).toBe('done');
    expect(documents.docs.get('D1')!.error_message).toBeNull();
  });

  it('a document deleted while it was being delivered leaves no export marker behind', async () => {
    const company = companyWith(['ftp_export']);
    const { deps, documents, files } = exportDeps(company, new Set());
    await archivedDocument(documents, files, company, 'D1');
    // The user deletes the document while the file is on its way to the server.
    const upload = deps.fileDrop.upload;
    deps.fileDrop.upload = async (...args) => {
      await upload(...args);
      documents.docs.delete('D1');
    };
    expect(await runExport(deps, message('D1', company, 'ftp_export'), silent)).toBe('done');
    expect(documents.exportMarkersDeleted).toEqual(['D1']);
  });

  it('keeps every open failure readable, one per target, the latest of a target replacing its earlier one', () => {
    const nsoft = 'Export to NSOFT failed: the document has no issue date';
    const both = exportErrorAfter(FTP_530, 'nsoft_export', nsoft);
    expect(both).toBe(`${FTP_530}; ${nsoft}`);
    expect(exportErrorAfter(both, 'ftp_export', 'Export to FTP failed: Connection refused')).toBe(`${nsoft}; Export to FTP failed: Connection refused`);
    expect(exportErrorAfter(both, 'ftp_export', null)).toBe(nsoft);
    expect(exportErrorAfter(both, 'rivile_export', null)).toBe(both);
    // Not an export's error (recognition): a success leaves it, a failure takes its place.
    expect(exportErrorAfter('Recognition failed', 'ftp_export', null)).toBe('Recognition failed');
    expect(exportErrorAfter('Recognition failed', 'ftp_export', FTP_530)).toBe(FTP_530);
  });
});

describe("the edit screen's confirm when the export queue fails", () => {
  it('answers that the document was confirmed but not sent, and leaves each target’s export error on it (Send again)', async () => {
    const company = companyWith(['ftp_export', 'rivile_export']);
    const { deps, documents, files } = exportDeps(company, new Set());
    await archivedDocument(documents, files, company, 'D1');
    const queue = { send: async () => Promise.reject(new Error('SQS is down')) };
    const failure = await sendConfirmed({ ...deps, queue }, { userId: 'u1', companyId: company.company_id }, 'D1').catch((e: unknown) => e);
    expect(failure).toMatchObject({ statusCode: 500, message: CONFIRMED_NOT_SENT });
    expect(documents.docs.get('D1')!.error_message).toBe(
      'Export to FTP failed: the export queue could not be reached; Export to Rivile failed: the export queue could not be reached',
    );
    expect(documents.historyItems.map((h) => h.name)).toEqual([
      'Export to FTP failed: the export queue could not be reached',
      'Export to Rivile failed: the export queue could not be reached',
    ]);
  });

  it('queues one message per target when the queue works, and changes nothing on the document', async () => {
    const company = companyWith(['ftp_export']);
    const { deps, documents, files } = exportDeps(company, new Set());
    await archivedDocument(documents, files, company, 'D1');
    const sent: ExportMessage[] = [];
    await sendConfirmed({ ...deps, queue: { send: async (m) => void sent.push(...m) } }, { userId: 'u1', companyId: company.company_id }, 'D1');
    expect(sent.map((m) => [m.receipt_id, m.target])).toEqual([['D1', 'ftp_export']]);
    expect(documents.docs.get('D1')!.version).toBe(1);
  });
});
