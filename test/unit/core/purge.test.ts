/**
 * The purge of a deleted company (lambdas/core/accounts/purge.ts) with in-memory ports: what goes, in which order,
 * what stays, hand-overs (time, pages, documents in processing, late upload files) and redelivery.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFER_SECONDS, MIN_REMAINING_MS, runPurge, type PurgeDeps } from '../../../lambdas/core/accounts/purge';
import { firstPurgeMessage, parsePurgeMessage, PURGE_STEPS, type PurgeMessage } from '../../../lambdas/core/accounts/purge-message';
import { sortKeyOf, type StreamSpec } from '../../../lambdas/core/documents/list';
import { documentKeys } from '../../../lambdas/core/documents/files';
import type { DocumentRecord } from '../../../lambdas/core/documents/types';
import type { CompanyPurgeStore, PurgeEmail } from '../../../lambdas/core/ports';
import type { MemberRecord } from '../../../lambdas/core/team/types';
import { STUCK_PROCESSING_AFTER_MS } from '../../../shared/processing-limits';
import { seededDocument } from '../../support/document-records';
import { FakeMasterDataStore } from '../../support/fake-master-data-store';
import { categoryRecord, itemRecord, seed, stakeholderRecord } from '../../support/master-data-records';
import { MemoryDocuments, MemoryFiles } from '../documents/fakes';

const GONE = 'C-GONE';
const KEPT = 'C-KEPT';
const NOW = new Date('2026-11-21T10:00:00Z');

/** MemoryDocuments whose list reads are paged like the table's (newest first; continuation = the last key read). */
class PagedDocuments extends MemoryDocuments {
  override async read(stream: StreamSpec, opts?: { limit: number; continuation?: unknown }) {
    const after = opts?.continuation as string | undefined;
    const all = (await super.read(stream)).items.filter((d) => after === undefined || sortKeyOf(d) < after);
    const limit = opts?.limit ?? all.length;
    const items = all.slice(0, limit);
    return { items, continuation: all.length > limit ? sortKeyOf(items.at(-1)!) : undefined };
  }
}

/** The purge store over plain maps: uploads, other items of documents' partitions, emails, invitations, the company's partition. */
function memoryPurgeStore() {
  const pendingUploads = new Map<string, { company_id: string; expires_at: string }>();
  const uploads = new Map<string, { company_id: string | null }>();
  const documentItems = new Map<string, string[]>();
  const emails = new Map<string, { company_id: string } & Partial<PurgeEmail>>();
  const emailOf = (id: string, e: { company_id: string } & Partial<PurgeEmail>): PurgeEmail => ({ email_id: id, raw_key: '', message_id: null, content_hash: '', ...e });
  const invitations = new Map<string, { company_id: string }>();
  const companyItems = new Map<string, string[]>();
  /** Companies whose META item is there (a delete that did not happen). */
  const existing = new Set<string>();
  const page = <T>(list: T[], cursor: string | null, limit: number) => {
    const from = Number(cursor ?? 0);
    return { items: list.slice(from, from + limit), next: from + limit < list.length ? String(from + limit) : null };
  };
  const store: CompanyPurgeStore = {
    async companyExists(companyId) {
      return existing.has(companyId);
    },
    async deletePendingUploads(companyId, cursor, limit) {
      const mine = [...pendingUploads.entries()].filter(([, u]) => u.company_id === companyId);
      // Deleted items leave the index: the next page starts after the ones already read.
      const p = page(mine, null, limit);
      for (const [id] of p.items) pendingUploads.delete(id);
      void cursor;
      const latest = p.items.map(([, u]) => u.expires_at).sort().at(-1) ?? null;
      return { deleted: p.items.length, next: mine.length > limit ? 'more' : null, latest_expiry: latest };
    },
    async deleteUpload(uploadId, companyId) {
      if (uploads.get(uploadId)?.company_id === companyId) uploads.delete(uploadId);
    },
    async deleteDocumentItems(receiptId) {
      documentItems.delete(receiptId);
    },
    async deleteEmail(emailId, companyId) {
      if (emails.get(emailId)?.company_id !== companyId) return false;
      return emails.delete(emailId);
    },
    async getEmail(emailId) {
      const e = emails.get(emailId);
      return e ? emailOf(emailId, e) : undefined;
    },
    async companyEmails(companyId, cursor, limit) {
      const mine = [...emails.entries()].filter(([, e]) => e.company_id === companyId).map(([id, e]) => emailOf(id, e));
      // The purge deletes what it read: the next page starts after the ones already read.
      void cursor;
      return { items: mine.slice(0, limit), next: mine.length > limit ? 'more' : null };
    },
    async deleteInvitations(companyId, cursor, limit) {
      const mine = [...invitations.entries()].filter(([, i]) => i.company_id === companyId);
      const p = page(mine, null, limit);
      for (const [id] of p.items) invitations.delete(id);
      void cursor;
      return { deleted: p.items.length, next: mine.length > limit ? 'more' : null };
    },
    async deleteCompanyItems(companyId, cursor, limit) {
      const items = companyItems.get(companyId) ?? [];
      const p = page(items, null, limit);
      companyItems.set(companyId, items.slice(p.items.length));
      void cursor;
      if (companyItems.get(companyId)!.length === 0) companyItems.delete(companyId);
      return { deleted: p.items.length, next: items.length > limit ? 'more' : null };
    },
  };
  return { store, pendingUploads, uploads, documentItems, emails, invitations, companyItems, existing };
}

function setup() {
  const documents = new PagedDocuments();
  const files = new MemoryFiles();
  const masterData = new FakeMasterDataStore();
  const purge = memoryPurgeStore();
  const members: MemberRecord[] = [{ user_id: 'late', company_id: GONE, role: 'basic', joined_at: '', email_prefix: 'late.member' }];
  const removed: { companyId: string; userId: string; claim?: string }[] = [];
  const unsubscribed: string[] = [];
  const queued: { message: PurgeMessage; delay: number }[] = [];
  let now = NOW;
  const deps: PurgeDeps = {
    purge: purge.store,
    documents,
    files,
    masterData,
    team: {
      listMembers: async (companyId) => members.filter((m) => m.company_id === companyId),
      removeMember: async (companyId, userId, claim) => {
        removed.push({ companyId, userId, claim });
        members.splice(members.findIndex((m) => m.user_id === userId && m.company_id === companyId), 1);
        return undefined;
      },
    },
    connections: { unsubscribeCompany: async (companyId) => void unsubscribed.push(companyId) },
    queue: { send: async (message, delay = 0) => void queued.push({ message, delay }) },
    clock: { now: () => now },
    log: { info: () => undefined, warn: () => undefined },
  };
  return { deps, documents, files, masterData, purge, removed, unsubscribed, queued, setNow: (d: Date) => (now = d) };
}

/** A processed document with files, markers, history and optional upload and email records. */
async function addDocument(
  s: ReturnType<typeof setup>,
  companyId: string,
  id: string,
  extra: Partial<DocumentRecord> = {},
): Promise<DocumentRecord> {
  const doc = seededDocument({
    receipt_id: id,
    scope: `C#${companyId}`,
    created_at: `2026-11-20T10:00:${id.slice(-2).padStart(2, '0')}Z`,
    upload_id: `up-${id}`,
    key_digest: `digest-${id}`,
    source: { key: `uploads/${companyId}/u/up-${id}/${id}.pdf`, mime: 'application/pdf', size: 3, sha256: `sha-${id}`, file_hash: `sha-${id}`, etag: 'e', kind: 'pdf' },
    pages: [{ page: 1, image_key: documentKeys.pageImage(id, 1, 1), status: 'processed', width: 1, height: 1 } as DocumentRecord['pages'][number]],
    content_key: documentKeys.content(id, 'x'),
    ...extra,
  });
  const change = { puts: [doc], updates: [], deletes: [], counts: [], markers: { put: [{ kind: 'hash' as const, scope: doc.scope, value: `sha-${id}`, receipt_id: id }, { kind: 'key' as const, scope: doc.scope, value: `digest-${id}`, receipt_id: id }], delete: [] }, history: [{ id: `h-${id}`, receipt_id: id, date: doc.created_at, name: 'Uploaded', user_id: 'u', user: { name: 'A', surname: 'B' } }] };
  await s.documents.commit(change);
  for (const key of [doc.source!.key, doc.pages[0]!.image_key!, doc.content_key!, documentKeys.boxes(id, 1), `jobs/process/${id}/1.json`]) await s.files.put(key, new Uint8Array([1]), 'application/octet-stream');
  s.purge.documentItems.set(id, [`HIST#${id}`, `EXPORT#ftp_export`]);
  s.purge.uploads.set(`up-${id}`, { company_id: companyId });
  if (doc.email_id) s.purge.emails.set(doc.email_id, { company_id: companyId });
  return doc;
}

async function seedCompanies(s: ReturnType<typeof setup>) {
  for (const companyId of [GONE, KEPT]) {
    await addDocument(s, companyId, `${companyId}-D01`, { email_id: `mail-${companyId}` });
    await addDocument(s, companyId, `${companyId}-D02`);
    await addDocument(s, companyId, `${companyId}-D03`);
    seed(s.masterData, {
      stakeholders: [
        stakeholderRecord(companyId, { id: `${companyId}-s1`, name: 'Trade UAB', type: 'supplier' }),
        stakeholderRecord(companyId, { id: `${companyId}-s2`, name: 'Buyer UAB', type: 'customer' }),
      ],
      categories: [categoryRecord(companyId, { id: `${companyId}-c1`, name: 'Fuel' })],
      items: [itemRecord(companyId, 'Coffee beans', ['coffee'])],
    });
    s.purge.invitations.set(`inv-${companyId}`, { company_id: companyId });
    s.purge.companyItems.set(companyId, ['META', 'COUNTS#receipt', 'USAGE#2026-11', 'CONTENT_SCHEMA', 'LAYOUT#VAT#LT1']);
    await s.files.put(`uploads/${companyId}/u/loose/late.pdf`, new Uint8Array([1]), 'application/pdf');
  }
}

const docsOf = (s: ReturnType<typeof setup>, companyId: string) => [...s.documents.docs.values()].filter((d) => d.company_id === companyId);
const objectsOf = (s: ReturnType<typeof setup>, companyId: string) => [...s.files.objects.keys()].filter((k) => k.includes(companyId));

/** Runs the purge from its first message, following the hand-overs, until done. */
async function purgeAll(s: ReturnType<typeof setup>, opts: { maxPages?: number; pageSize?: number } = {}) {
  let msg: PurgeMessage | undefined = firstPurgeMessage(GONE, NOW);
  let runs = 0;
  while (msg) {
    runs += 1;
    if (runs > 100) throw new Error('the purge does not end');
    const outcome = await runPurge(s.deps, msg, { remainingMs: () => 10 * 60_000, ...opts });
    msg = outcome.state === 'continued' ? outcome.message : undefined;
  }
  return runs;
}

describe('runPurge', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(async () => {
    s = setup();
    await seedCompanies(s);
  });

  it('removes everything the company owned and nothing of the other company', async () => {
    expect(await purgeAll(s)).toBe(1);
    // Documents with their markers, history, export markers, upload and email records and files.
    expect(docsOf(s, GONE)).toEqual([]);
    expect([...s.documents.markerItems.entries()].filter(([k, ids]) => k.includes(GONE) && ids.size > 0)).toEqual([]);
    expect(s.documents.historyItems.filter((h) => h.receipt_id.startsWith(GONE))).toEqual([]);
    expect([...s.purge.documentItems.keys()].filter((k) => k.startsWith(GONE))).toEqual([]);
    expect([...s.purge.uploads.values()].filter((u) => u.company_id === GONE)).toEqual([]);
    expect(s.purge.emails.has(`mail-${GONE}`)).toBe(false);
    expect(objectsOf(s, GONE)).toEqual([]);
    // Master data through the store's own deletes.
    for (const map of [s.masterData.stakeholders, s.masterData.categories, s.masterData.items]) {
      expect([...map.values()].filter((r) => r.company_id === GONE)).toEqual([]);
    }
    // Invitations, late members (with their Email-in claim), subscriptions, the company's partition.
    expect([...s.purge.invitations.values()].filter((i) => i.company_id === GONE)).toEqual([]);
    expect(s.removed).toEqual([{ companyId: GONE, userId: 'late', claim: 'late.member@in.receipts.local' }]);
    expect(s.unsubscribed).toEqual([GONE]);
    expect(s.purge.companyItems.has(GONE)).toBe(false);

    // The other company keeps all of it.
    expect(docsOf(s, KEPT)).toHaveLength(3);
    expect(s.documents.historyItems.filter((h) => h.receipt_id.startsWith(KEPT))).toHaveLength(3);
    expect(s.purge.emails.has(`mail-${KEPT}`)).toBe(true);
    expect(objectsOf(s, KEPT)).toHaveLength(3 * 5 + 1);
    expect([...s.masterData.stakeholders.values()].filter((r) => r.company_id === KEPT)).toHaveLength(2);
    expect([...s.masterData.categories.values()].filter((r) => r.company_id === KEPT)).toHaveLength(1);
    expect([...s.masterData.items.values()].filter((r) => r.company_id === KEPT)).toHaveLength(1);
    expect(s.purge.invitations.has(`inv-${KEPT}`)).toBe(true);
    expect(s.purge.companyItems.get(KEPT)).toHaveLength(5);
    expect(s.queued).toEqual([]);
  });

  it('hands over to a new message after its pages, and the chain of messages ends with the same result', async () => {
    const runs = await purgeAll(s, { maxPages: 2, pageSize: 1 });
    expect(runs).toBeGreaterThan(5);
    // Every hand-over went to the queue without a delay, at a step of the purge.
    expect(s.queued.length).toBe(runs - 1);
    expect(s.queued.every((q) => q.delay === 0 && PURGE_STEPS.includes(q.message.step))).toBe(true);
    expect(s.queued.some((q) => q.message.step === 'documents' && q.message.cursor !== null)).toBe(true);
    expect(docsOf(s, GONE)).toEqual([]);
    expect(objectsOf(s, GONE)).toEqual([]);
    expect([...s.masterData.stakeholders.values()].filter((r) => r.company_id === GONE)).toEqual([]);
    expect(docsOf(s, KEPT)).toHaveLength(3);
  });

  it('starts no page when the run has too little time left: everything goes into the next message', async () => {
    const msg = firstPurgeMessage(GONE, NOW);
    const outcome = await runPurge(s.deps, msg, { remainingMs: () => MIN_REMAINING_MS - 1 });
    expect(outcome).toEqual({ state: 'continued', message: msg, delay_seconds: 0 });
    expect(s.queued).toEqual([{ message: msg, delay: 0 }]);
    expect(docsOf(s, GONE)).toHaveLength(3);
  });

  it('leaves a document in processing for a later pass, and deletes it once it is done (or stuck past the bound)', async () => {
    const busy = await addDocument(s, GONE, `${GONE}-D09`, { status: 'processing', updated_at: NOW.toISOString() });
    const outcome = await runPurge(s.deps, firstPurgeMessage(GONE, NOW), { remainingMs: () => 600_000 });
    expect(outcome).toMatchObject({ state: 'continued', delay_seconds: DEFER_SECONDS, message: { step: 'documents', cursor: null, deferred: 0 } });
    expect(docsOf(s, GONE).map((d) => d.receipt_id)).toEqual([busy.receipt_id]);
    expect(objectsOf(s, GONE).filter((k) => k.includes(busy.receipt_id)).length).toBeGreaterThan(0);
    // Nothing after the documents step has started yet.
    expect([...s.masterData.stakeholders.values()].filter((r) => r.company_id === GONE)).toHaveLength(2);

    // Processing ends (the document moves on, with a new version): the next pass deletes it.
    const done = { ...s.documents.docs.get(busy.receipt_id)!, status: 'review' as const, version: 2 };
    s.documents.docs.set(busy.receipt_id, done);
    const next = await runPurge(s.deps, (outcome as { message: PurgeMessage }).message, { remainingMs: () => 600_000 });
    expect(next).toEqual({ state: 'done' });
    expect(docsOf(s, GONE)).toEqual([]);

    // A document in processing for longer than any delivery can take is deleted at once.
    const s2 = setup();
    await addDocument(s2, GONE, `${GONE}-D07`, { status: 'processing', updated_at: new Date(NOW.getTime() - STUCK_PROCESSING_AFTER_MS - 1).toISOString() });
    expect(await purgeAll(s2)).toBe(1);
    expect(docsOf(s2, GONE)).toEqual([]);
  });

  it('reads a document again when it changed since the list was read, and skips one already gone', async () => {
    const listed = docsOf(s, GONE)[0]!;
    // An older copy (the list index is eventually consistent) fails the version condition and is read again.
    s.documents.docs.set(listed.receipt_id, { ...listed, version: listed.version + 1, counterparty_name: 'Edited' });
    const stale = s.documents.read.bind(s.documents);
    s.documents.read = async (stream, opts) => {
      const res = await stale(stream, opts);
      return { ...res, items: res.items.map((d) => (d.receipt_id === listed.receipt_id ? listed : d)) };
    };
    expect(await purgeAll(s)).toBe(1);
    expect(docsOf(s, GONE)).toEqual([]);
    expect(objectsOf(s, GONE)).toEqual([]);
  });

  it('waits for late upload files before it removes the company\'s upload objects', async () => {
    const expires = new Date(NOW.getTime() + 20 * 60_000).toISOString();
    s.purge.pendingUploads.set('pending-1', { company_id: GONE, expires_at: expires });
    const first = await runPurge(s.deps, firstPurgeMessage(GONE, NOW), { remainingMs: () => 600_000 });
    expect(first).toMatchObject({ state: 'continued', delay_seconds: 900, message: { step: 'files', files_after: expires } });
    expect(s.purge.pendingUploads.size).toBe(0);
    expect(objectsOf(s, GONE)).toEqual([`uploads/${GONE}/u/loose/late.pdf`]);
    // After the reservation has ended, the objects go.
    s.setNow(new Date(Date.parse(expires) + 1000));
    expect(await runPurge(s.deps, (first as { message: PurgeMessage }).message, { remainingMs: () => 600_000 })).toEqual({ state: 'done' });
    expect(objectsOf(s, GONE)).toEqual([]);
  });

  it('removes nothing of a company that exists (its delete did not happen after the purge was queued)', async () => {
    s.purge.existing.add(GONE);
    const before = JSON.stringify([docsOf(s, GONE), objectsOf(s, GONE), [...s.purge.companyItems.entries()], [...s.masterData.stakeholders.values()]]);
    expect(await runPurge(s.deps, firstPurgeMessage(GONE, NOW), { remainingMs: () => 600_000 })).toEqual({ state: 'company-exists' });
    // a later step's message too
    expect(await runPurge(s.deps, { ...firstPurgeMessage(GONE, NOW), step: 'company' }, { remainingMs: () => 600_000 })).toEqual({ state: 'company-exists' });
    expect(JSON.stringify([docsOf(s, GONE), objectsOf(s, GONE), [...s.purge.companyItems.entries()], [...s.masterData.stakeholders.values()]])).toBe(before);
    expect(s.queued).toEqual([]);
    expect(s.unsubscribed).toEqual([]);
  });

  it('does no harm when a message is delivered again after the purge ended', async () => {
    await purgeAll(s);
    const keptBefore = JSON.stringify([docsOf(s, KEPT), objectsOf(s, KEPT), [...s.masterData.stakeholders.values()]]);
    expect(await purgeAll(s)).toBe(1);
    expect(JSON.stringify([docsOf(s, KEPT), objectsOf(s, KEPT), [...s.masterData.stakeholders.values()]])).toBe(keptBefore);
  });
});

describe('parsePurgeMessage', () => {
  it('reads a purge message and refuses anything else', () => {
    const msg = firstPurgeMessage(GONE, NOW);
    expect(parsePurgeMessage(JSON.stringify(msg))).toEqual(msg);
    expect(parsePurgeMessage(JSON.stringify({ ...msg, cursor: 'abc', deferred: 2 }))).toEqual({ ...msg, cursor: 'abc', deferred: 2 });
    expect(parsePurgeMessage('not json')).toBeUndefined();
    expect(parsePurgeMessage(JSON.stringify({ company_id: GONE, step: 'everything' }))).toBeUndefined();
    expect(parsePurgeMessage(JSON.stringify({ step: 'uploads' }))).toBeUndefined();
  });
});
