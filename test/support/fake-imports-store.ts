/** In-memory ImportsStore and FileStore for unit tests of the XLSX/XLS import (same conditions as the DynamoDB adapter). */
import { createHash } from 'node:crypto';
import type { FileStore, PutBinding, StoredObject } from '../../lambdas/core/documents/ports';
import type { ChunkResult, ImportRecord, ImportsStore } from '../../lambdas/core/master-data/import/ports';
import type { RejectedRow } from '../../lambdas/core/master-data/import/rows';

export class FakeImportsStore implements ImportsStore {
  readonly records = new Map<string, ImportRecord>();
  readonly rejected = new Map<string, Map<number, RejectedRow[]>>();

  async create(record: ImportRecord) {
    if (this.records.has(record.import_id)) throw new Error('exists');
    this.records.set(record.import_id, { ...record });
  }
  async get(importId: string) {
    const r = this.records.get(importId);
    return r && { ...r };
  }
  async rejectedRows(importId: string) {
    const chunks = [...(this.rejected.get(importId) ?? new Map()).entries()].sort((a, b) => a[0] - b[0]);
    return chunks.flatMap(([, rows]) => rows);
  }
  async start(importId: string, etag: string, totalRows: number, nowIso: string) {
    const r = this.records.get(importId);
    if (!r) return undefined;
    if (r.status === 'pending') Object.assign(r, { status: 'processing', source_etag: etag, total_rows: totalRows, updated_at: nowIso });
    else if (!(r.status === 'processing' && r.source_etag === etag)) return undefined;
    return { ...r };
  }
  async commitChunk(importId: string, chunk: ChunkResult, nowIso: string) {
    const r = this.records.get(importId);
    if (!r || r.status !== 'processing' || r.next_row !== chunk.from) return false;
    r.next_row = chunk.to;
    r.created += chunk.created;
    r.updated += chunk.updated;
    r.unchanged = (r.unchanged ?? 0) + chunk.unchanged;
    r.rejected_count += chunk.rejected.length;
    r.updated_at = nowIso;
    if (chunk.rejected.length) {
      const map = this.rejected.get(importId) ?? new Map<number, RejectedRow[]>();
      map.set(chunk.from, chunk.rejected);
      this.rejected.set(importId, map);
    }
    return true;
  }
  async finish(importId: string, status: 'done' | 'failed', message: string | null, nowIso: string) {
    const r = this.records.get(importId);
    if (!r || r.status === 'done' || r.status === 'failed') return;
    Object.assign(r, { status, message, finished_at: nowIso, updated_at: nowIso });
  }
}

export class FakeFileStore implements FileStore {
  readonly objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  /** Every presigned PUT: its key, content type, and what the URL binds (length, write-once). */
  readonly signed: { key: string; contentType: string; bind: PutBinding }[] = [];
  bucket = () => 'test-bucket';
  private etagOf = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
  async get(key: string): Promise<StoredObject> {
    const o = this.objects.get(key);
    if (!o) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey' });
    return { bytes: o.bytes, etag: this.etagOf(o.bytes), size: o.bytes.length, contentType: o.contentType };
  }
  async head(key: string) {
    const o = this.objects.get(key);
    return o ? { etag: this.etagOf(o.bytes), size: o.bytes.length } : undefined;
  }
  async put(key: string, bytes: Uint8Array, contentType: string) {
    this.objects.set(key, { bytes, contentType });
  }
  async getJson<T>(key: string): Promise<T | undefined> {
    const o = this.objects.get(key);
    return o ? (JSON.parse(Buffer.from(o.bytes).toString('utf8')) as T) : undefined;
  }
  async putJson(key: string, value: unknown) {
    this.objects.set(key, { bytes: Buffer.from(JSON.stringify(value)), contentType: 'application/json' });
  }
  async deletePrefix(prefix: string) {
    for (const key of [...this.objects.keys()]) if (key.startsWith(prefix)) this.objects.delete(key);
  }
  async delete(keys: string[]) {
    for (const key of keys) this.objects.delete(key);
  }
  async presignPut(key: string, contentType: string, _expiresInSeconds: number, bind: PutBinding = {}) {
    this.signed.push({ key, contentType, bind });
    return `https://upload.test/${key}`;
  }
  async presignGet(key: string) {
    return `https://download.test/${key}`;
  }
}
