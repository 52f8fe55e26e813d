/** In-memory stand-ins of the documents ports, with the store's atomic commit and its conditions. */
import { PDFDocument } from 'pdf-lib';
import { countsFromItem } from '../../../lambdas/core/accounts/counts';
import type { CompanyRecord } from '../../../lambdas/core/accounts/types';
import { sortKeyOf, type StreamSpec } from '../../../lambdas/core/documents/list';
import { CommitConflict, ObjectChanged, ObjectTooLarge, type DocumentsStore, type FileStore, type GetOptions, type OfficeConverter, type PageRenderer } from '../../../lambdas/core/documents/ports';
import { sumMoves, type ScopeTally } from '../../../lambdas/core/documents/sums';
import type { DocumentChange, DocumentLeftovers, DocumentRecord, HistoryRecord, ReceiptType, ScopeKey, UploadRecord, UsageDelta } from '../../../lambdas/core/documents/types';
import type { AccountsStore, LiveEventName } from '../../../lambdas/core/ports';
import type { SupplierKey } from '../../../lambdas/core/recognition/layout-keys';
import type { StoredSupplierLayout, SupplierLayouts } from '../../../lambdas/core/recognition/ports';
import type { AnalyzeExpenseResult, Recogniser } from '../../../lambdas/core/recognition/types';

export class MemoryDocuments implements DocumentsStore {
  docs = new Map<string, DocumentRecord>();
  uploads = new Map<string, UploadRecord>();
  historyItems: HistoryRecord[] = [];
  markerItems = new Map<string, Set<string>>();
  counters = new Map<string, Record<string, number>>();
  usageItems = new Map<string, Record<string, number>>();
  commits = 0;

  async get(id: string) {
    const d = this.docs.get(id);
    return d ? structuredClone(d) : undefined;
  }
  async getMany(ids: string[]) {
    return ids.map((id) => this.docs.get(id)).filter((d): d is DocumentRecord => !!d).map((d) => structuredClone(d));
  }
  async read(stream: StreamSpec) {
    const items = [...this.docs.values()]
      .filter((d) => d.scope === stream.scope && (stream.by === 'scope' || d.receipt_type === stream.receipt_type) && (stream.by !== 'type-status' || d.status === stream.status))
      .filter((d) => stream.by === 'type-status' || !stream.except_status || d.status !== stream.except_status)
      .sort((a, b) => (sortKeyOf(a) < sortKeyOf(b) ? 1 : -1));
    return { items };
  }
  async commit(change: DocumentChange) {
    // All conditions first, then all writes: nothing is written when one fails.
    for (const d of change.puts) if (this.docs.has(d.receipt_id)) throw new CommitConflict('exists', d.receipt_id);
    for (const { before } of change.updates) if (this.docs.get(before.receipt_id)?.version !== before.version) throw new CommitConflict('version', before.receipt_id);
    for (const d of change.deletes) if (this.docs.get(d.receipt_id)?.version !== d.version) throw new CommitConflict('version', d.receipt_id);
    const u = change.usage;
    const usageKey = u ? `${u.companyId}|${u.month}` : '';
    if (u && u.limit !== undefined && (u.limit < 0 || (this.usageItems.get(usageKey)?.quota_taken ?? 0) > u.limit)) throw new CommitConflict('quota');
    // notBelowZero: each lowered counter holds at least what is taken off (missing = 0), as the table's condition.
    const counters = ['quota_taken', 'used_documents', 'reserved_documents', 'duplicated_documents'] as const;
    if (u?.notBelowZero && counters.some((f) => u[f] < 0 && (this.usageItems.get(usageKey)?.[f] ?? 0) < -u[f])) throw new CommitConflict('quota');
    if (change.upload && this.uploads.get(change.upload.upload.upload_id)?.state !== change.upload.upload.state) throw new CommitConflict('upload-state');
    this.commits += 1;
    for (const d of change.puts) this.docs.set(d.receipt_id, structuredClone(d));
    for (const { after } of change.updates) this.docs.set(after.receipt_id, structuredClone(after));
    for (const d of change.deletes) this.docs.delete(d.receipt_id);
    for (const c of change.counts) {
      const key = `${c.scope}|${c.receipt_type}`;
      const item = this.counters.get(key) ?? {};
      item[c.status] = (item[c.status] ?? 0) + c.delta;
      this.counters.set(key, item);
    }
    // The sums of totals live on the same counts items (`total_cents`), as in the table.
    for (const m of sumMoves(change)) {
      const key = `${m.scope}|${m.receipt_type}`;
      const item = this.counters.get(key) ?? {};
      item.total_cents = (item.total_cents ?? 0) + m.cents;
      this.counters.set(key, item);
    }
    if (u) {
      const item = this.usageItems.get(usageKey) ?? {};
      for (const f of ['quota_taken', 'used_documents', 'reserved_documents', 'duplicated_documents'] as const) item[f] = (item[f] ?? 0) + u[f];
      this.usageItems.set(usageKey, item);
    }
    if (change.upload) {
      const up = this.uploads.get(change.upload.upload.upload_id)!;
      this.uploads.set(up.upload_id, { ...up, state: change.upload.to, document_ids: change.upload.document_ids ?? up.document_ids });
    }
    for (const m of change.markers.delete) this.markerItems.get(`${m.kind}|${m.scope}|${m.value}`)?.delete(m.receipt_id);
    for (const m of change.markers.put) {
      const key = `${m.kind}|${m.scope}|${m.value}`;
      if (!this.markerItems.has(key)) this.markerItems.set(key, new Set());
      this.markerItems.get(key)!.add(m.receipt_id);
    }
    this.historyItems.push(...change.history);
    for (const l of change.leftovers ?? []) this.leftoverItems.set(l.receipt_id, structuredClone(l));
  }
  /** Leftovers items of deleted documents (D17), by receipt id. */
  leftoverItems = new Map<string, DocumentLeftovers>();
  async pendingLeftovers(dueBefore: string, limit: number) {
    const key = (l: DocumentLeftovers) => `${l.retry_at ?? l.deleted_at}#${l.receipt_id}`;
    return [...this.leftoverItems.values()].filter((l) => key(l) < dueBefore).sort((a, b) => (key(a) < key(b) ? -1 : 1)).slice(0, limit).map((l) => structuredClone(l));
  }
  async dropLeftovers(id: string) {
    this.leftoverItems.delete(id);
  }
  async postponeLeftovers(id: string, retryAt: string) {
    const l = this.leftoverItems.get(id);
    if (l) this.leftoverItems.set(id, { ...l, retry_at: retryAt, attempts: (l.attempts ?? 0) + 1 });
  }
  async history(id: string) {
    return this.historyItems.filter((h) => h.receipt_id === id);
  }
  async deleteHistory(id: string) {
    this.historyItems = this.historyItems.filter((h) => h.receipt_id !== id);
  }
  /** Documents whose export markers were deleted, in order. */
  exportMarkersDeleted: string[] = [];
  async deleteExportMarkers(id: string) {
    this.exportMarkersDeleted.push(id);
  }
  async copyHistory(from: string, to: string) {
    // As the table's: an item copied again overwrites itself (its key is the new id and its own id).
    const copies = this.historyItems.filter((h) => h.receipt_id === from).map((h) => ({ ...h, receipt_id: to }));
    const key = (h: HistoryRecord) => `${h.receipt_id}#${h.id}`;
    const fresh = new Set(copies.map(key));
    this.historyItems = [...this.historyItems.filter((h) => !fresh.has(key(h))), ...copies];
  }
  async markers(kind: string, scope: string, value: string) {
    return [...(this.markerItems.get(`${kind}|${scope}|${value}`) ?? [])];
  }
  async counts(scope: string) {
    return { receipt: countsFromItem(this.counters.get(`${scope}|receipt`)), invoice: countsFromItem(this.counters.get(`${scope}|invoice`)) };
  }
  async tallies(scopes: ScopeKey[]) {
    const tally = (scope: ScopeKey, type: ReceiptType): ScopeTally => {
      const item = this.counters.get(`${scope}|${type}`);
      return { counts: countsFromItem(item), total_cents: item?.total_cents ?? 0 };
    };
    return new Map(scopes.map((s) => [s, { receipt: tally(s, 'receipt'), invoice: tally(s, 'invoice') }] as const));
  }
  async putUpload(upload: UploadRecord, reserve?: UsageDelta) {
    if (reserve) {
      const key = `${reserve.companyId}|${reserve.month}`;
      if (reserve.limit !== undefined && (reserve.limit < 0 || (this.usageItems.get(key)?.quota_taken ?? 0) > reserve.limit)) throw new CommitConflict('quota');
      const item = this.usageItems.get(key) ?? {};
      for (const f of ['quota_taken', 'used_documents', 'reserved_documents', 'duplicated_documents'] as const) item[f] = (item[f] ?? 0) + reserve[f];
      this.usageItems.set(key, item);
    }
    this.uploads.set(upload.upload_id, structuredClone(upload));
  }
  async getUpload(id: string) {
    const u = this.uploads.get(id);
    return u ? structuredClone(u) : undefined;
  }
  async expiredUploads() {
    return [];
  }
  async releaseUpload() {
    return false;
  }
  async usage(companyId: string, month: string) {
    const item = this.usageItems.get(`${companyId}|${month}`) ?? {};
    return { used_documents: item.used_documents ?? 0, reserved_documents: item.reserved_documents ?? 0, quota_taken: item.quota_taken ?? 0 };
  }
}

export class MemoryFiles implements FileStore {
  objects = new Map<string, { bytes: Uint8Array; etag: string }>();
  bucket = () => 'documents';
  async get(key: string, opts: GetOptions = {}) {
    const o = this.objects.get(key);
    if (!o) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey' });
    if (opts.ifMatch && opts.ifMatch !== o.etag) throw new ObjectChanged(key);
    if (opts.maxBytes !== undefined && o.bytes.length > opts.maxBytes) throw new ObjectTooLarge(key);
    return { bytes: o.bytes, etag: o.etag, size: o.bytes.length };
  }
  async head(key: string) {
    const o = this.objects.get(key);
    return o ? { etag: o.etag, size: o.bytes.length } : undefined;
  }
  async put(key: string, bytes: Uint8Array, _contentType?: string) {
    this.objects.set(key, { bytes, etag: `etag-${bytes.length}-${key.length}` });
  }
  async getJson<T>(key: string) {
    const o = this.objects.get(key);
    return o ? (JSON.parse(new TextDecoder().decode(o.bytes)) as T) : undefined;
  }
  async putJson(key: string, value: unknown) {
    await this.put(key, new TextEncoder().encode(JSON.stringify(value)));
  }
  async delete(keys: string[]) {
    for (const k of keys) this.objects.delete(k);
  }
  async deletePrefix(prefix: string) {
    for (const k of [...this.objects.keys()]) if (k.startsWith(prefix)) this.objects.delete(k);
  }
  async presignPut(key: string) {
    return `memory://put/${key}`;
  }
  async presignGet(key: string) {
    return `memory://get/${key}`;
  }
}

export function memoryAccounts(company: CompanyRecord): AccountsStore {
  const profile = (id: string) => ({ id, email: `${id}@x`, name: 'Test', surname: 'User', phone: '', address: '', city: '', country: '', post_code: '', is_admin: false, created_at: '', last_login: null });
  return {
    getProfile: async (id) => profile(id),
    getProfiles: async (ids) => ids.map(profile),
    updateProfile: async () => {
      throw new Error('not used');
    },
    getMembership: async (userId, companyId) => (companyId === company.company_id ? { user_id: userId, company_id: companyId, role: 'admin', joined_at: '' } : undefined),
    listMembershipsOfUser: async (userId) => [{ user_id: userId, company_id: company.company_id, role: 'admin', joined_at: '' }],
    listMembersOfCompany: async () => [],
    getCompanies: async (ids) => (ids.includes(company.company_id) ? [company] : []),
    getCompanyStats: async () => new Map(),
    provisionUser: async () => true,
    createCompany: async () => undefined,
    deleteCompanyRecord: async () => undefined,
    deleteCompany: async () => undefined,
    deleteUserItems: async () => undefined,
    transferCompanyOwner: async () => undefined,
    renameCompanyOwner: async () => undefined,
  };
}

export function liveRecorder() {
  const events: { companyId: string; event: LiveEventName; payload: unknown }[] = [];
  return {
    events,
    publish: async (companyId: string, event: LiveEventName, payload: unknown) => void events.push({ companyId, event, payload }),
    publishToUser: async (userId: string, event: LiveEventName, payload: unknown) =>
      void events.push({ companyId: `user:${userId}`, event, payload }),
  };
}

/** A recogniser answering a fixed AnalyzeExpense result; `failures` first calls throw. */
export function scriptedRecogniser(result: AnalyzeExpenseResult, failures = 0): Recogniser & { calls: number } {
  const r = {
    calls: 0,
    async analyzeExpense() {
      r.calls += 1;
      if (r.calls <= failures) throw new Error(`recogniser crashed (call ${r.calls})`);
      return result;
    },
  };
  return r;
}

/** Renders every page as a 1×1 JPEG-ish placeholder; splits PDFs for real with pdf-lib. */
export const fakeRenderer: PageRenderer = {
  async renderImage() {
    return { jpeg: new Uint8Array([0xff, 0xd8, 0xff]), width: 100, height: 100 };
  },
  async renderPdf(bytes, onPage) {
    const pdf = await PDFDocument.load(bytes);
    const pages = pdf.getPages().map(() => ({ jpeg: new Uint8Array([0xff, 0xd8, 0xff]), width: 100, height: 140 }));
    if (!onPage) return pages;
    for (const [i, p] of pages.entries()) await onPage(p, i);
    return [];
  },
  async firstPages(bytes, maxPages) {
    const src = await PDFDocument.load(bytes);
    const total = src.getPageCount();
    if (total <= maxPages) return { bytes, total };
    const out = await PDFDocument.create();
    for (const p of await out.copyPages(src, Array.from({ length: maxPages }, (_, i) => i))) out.addPage(p);
    return { bytes: await out.save(), total };
  },
  async splitPdf(bytes, maxPages) {
    const src = await PDFDocument.load(bytes);
    if (src.getPageCount() > maxPages) return null;
    const out: Uint8Array[] = [];
    for (let i = 0; i < src.getPageCount(); i++) {
      const one = await PDFDocument.create();
      const [p] = await one.copyPages(src, [i]);
      one.addPage(p);
      out.push(await one.save());
    }
    return out;
  },
};

/** No LibreOffice: office files get no page images. */
export const noOfficeConverter: OfficeConverter = {
  async toPdf() {
    return { pdf: null, reason: 'LibreOffice (soffice) is not installed' };
  },
};

/** A converter answering the given PDF for every office file, recording the files it was given. */
export function pdfOfficeConverter(pdf: Uint8Array): OfficeConverter & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async toPdf(_bytes, fileName) {
      calls.push(fileName);
      return { pdf };
    },
  };
}

/** Learnt supplier layouts by company and key, with the look-ups made; `failing` makes every call throw. */
export function memoryLayouts(opts: { failing?: boolean } = {}): SupplierLayouts & { items: Map<string, StoredSupplierLayout>; lookups: { companyId: string; keys: SupplierKey[] }[] } {
  const items = new Map<string, StoredSupplierLayout>();
  const lookups: { companyId: string; keys: SupplierKey[] }[] = [];
  const id = (companyId: string, k: SupplierKey) => `${companyId}|${k.kind}#${k.value}`;
  return {
    items,
    lookups,
    async put(companyId, keys, layout) {
      if (opts.failing) throw new Error('layout store is down');
      for (const k of keys) items.set(id(companyId, k), structuredClone(layout));
    },
    async find(companyId, keys) {
      lookups.push({ companyId, keys });
      if (opts.failing) throw new Error('layout store is down');
      const found = new Map<string, StoredSupplierLayout>();
      for (const k of keys) {
        const l = items.get(id(companyId, k));
        if (l) found.set(`${l.source_receipt_id}|${l.learned_at}`, structuredClone(l));
      }
      return [...found.values()];
    },
    async forget(companyId, keys, sourceReceiptId) {
      if (opts.failing) throw new Error('layout store is down');
      let deleted = 0;
      for (const k of keys) {
        if (items.get(id(companyId, k))?.source_receipt_id !== sourceReceiptId) continue;
        items.delete(id(companyId, k));
        deleted++;
      }
      return deleted;
    },
    async taughtBy(companyId, sourceReceiptId) {
      if (opts.failing) throw new Error('layout store is down');
      return [...items.entries()]
        .filter(([key, l]) => key.startsWith(`${companyId}|`) && l.source_receipt_id === sourceReceiptId)
        .map(([key]) => {
          const [kind, ...value] = key.slice(companyId.length + 1).split('#');
          return { kind: kind as SupplierKey['kind'], value: value.join('#') };
        });
    },
  };
}

/** A logger that keeps what is warned, for core functions that log instead of failing (leftovers.ts). */
export function warningsLog(): { warnings: { msg: string; data?: Record<string, unknown> }[]; info(): void; warn(msg: string, data?: Record<string, unknown>): void } {
  const warnings: { msg: string; data?: Record<string, unknown> }[] = [];
  return { warnings, info: () => undefined, warn: (msg, data) => void warnings.push({ msg, data }) };
}
