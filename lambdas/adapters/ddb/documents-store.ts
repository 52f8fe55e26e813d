/**
 * The documents store on the single table (docs/data-model.md, "Documents"). A DocumentChange is one
 * TransactWriteItems: documents (conditional on not existing / on their version), status counts (ADD),
 * the month's usage (ADD, conditional on the quota), the upload's state, markers, history and the leftovers of
 * deleted documents.
 */
import {
  DeleteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { countsFromItem } from '../../core/accounts/counts';
import { sortKeyOf, type ListFilter, type StreamSpec } from '../../core/documents/list';
import { CommitConflict, type ConflictReason, type DocumentsStore } from '../../core/documents/ports';
import { documentSearchBuckets, SEARCH_INDEX_VERSION, searchTokenString } from '../../core/documents/search';
import { sumMoves, type ScopeTally, type SumDelta } from '../../core/documents/sums';
import type {
  CountDelta,
  DocumentChange,
  DocumentLeftovers,
  DocumentRecord,
  HistoryRecord,
  Marker,
  ReceiptType,
  ScopeKey,
  UploadRecord,
  UsageDelta,
} from '../../core/documents/types';
import { scopeCompanyId, scopeUserId } from '../../core/documents/types';
import { ddb } from './client';
import { keys, type Key } from './keys';
import { batchGet, batchWrite, queryAll, stripKeys, tableName, writeIf } from './table-ops';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** The stored item of a document: the record plus its key and its three list-index keys. */
export function documentItem(doc: DocumentRecord): Item {
  return {
    ...keys.document(doc.receipt_id),
    ...keys.documentLists(doc.scope, doc.receipt_type, doc.status, sortKeyOf(doc)),
    ...doc,
    type: 'DOCUMENT',
  };
}

/**
 * Attributes of stored document and search-index items that are not part of the record: the index version, the
 * search words, and the item's kind (a record read from one item and written as another keeps no kind of its own).
 */
const STORE_ONLY = ['siv', 't', 'type'] as const;

/** A stored document or search-index item → the document record. */
export function toRecord(item: Item): DocumentRecord {
  const record = stripKeys<Item>(item);
  for (const name of STORE_ONLY) delete record[name];
  return record as unknown as DocumentRecord;
}

/**
 * The search-index items of a document (docs/data-model.md, "Document search index"): one per bucket,
 * a copy of the document plus `t`, its words.
 */
export function searchItems(doc: DocumentRecord): Item[] {
  const tokens = searchTokenString(doc);
  return documentSearchBuckets(doc).map((bucket) => ({
    ...keys.documentSearch(doc.scope, bucket, doc.receipt_type, doc.status, sortKeyOf(doc)),
    ...doc,
    type: 'DOC_SEARCH',
    t: tokens,
    siv: SEARCH_INDEX_VERSION,
  }));
}

function searchKeys(doc: DocumentRecord): Key[] {
  return documentSearchBuckets(doc).map((bucket) => keys.documentSearchKey(doc.scope, bucket, sortKeyOf(doc)));
}

/** The document item as written by a commit: with its search items, marked with the index version (`siv`). */
export function indexedDocumentItem(doc: DocumentRecord): Item {
  return { ...documentItem(doc), siv: SEARCH_INDEX_VERSION };
}

/** A document's item and its search items, for bulk writes (seeding, benchmarks). */
export function documentItemsWithIndex(doc: DocumentRecord): Item[] {
  return [indexedDocumentItem(doc), ...searchItems(doc)];
}

/**
 * The search-index writes of a change, for the same transaction as the document writes: new
 * documents put their items; an update puts the items of the new version and deletes the buckets the
 * old one had and the new one has not; a deleted document deletes its items.
 */
export function searchIndexWrites(change: Pick<DocumentChange, 'puts' | 'updates' | 'deletes'>): TransactItem[] {
  const out: TransactItem[] = [];
  const put = (doc: DocumentRecord) => {
    for (const item of searchItems(doc)) out.push({ Put: { TableName: tableName(), Item: item } });
  };
  const remove = (list: Key[]) => {
    for (const key of list) out.push({ Delete: { TableName: tableName(), Key: key } });
  };
  for (const doc of change.puts) put(doc);
  for (const { before, after } of change.updates) {
    put(after);
    const kept = new Set(searchKeys(after).map((k) => `${k.pk}|${k.sk}`));
    remove(searchKeys(before).filter((k) => !kept.has(`${k.pk}|${k.sk}`)));
  }
  for (const doc of change.deletes) remove(searchKeys(doc));
  return out;
}

export function historyItem(h: HistoryRecord): Item {
  return { ...keys.documentHistory(h.receipt_id, h.date, h.id), type: 'DOC_HISTORY', ...h };
}

function markerItem(m: Marker): Item {
  return { ...keys.documentMarker(m.kind, m.scope, m.value, m.receipt_id), type: 'DOC_MARKER', receipt_id: m.receipt_id };
}

/** A deleted document's leftovers item (D17), listed for the sweeper by the time of the delete. */
function leftoversItem(l: DocumentLeftovers): Record<string, unknown> {
  return { ...keys.documentLeftovers(l.receipt_id), ...keys.leftoversIndex(l.deleted_at, l.receipt_id), type: 'DOC_LEFTOVERS', ...l };
}

/** Upload items outlive their reservation by SQS's longest retention, so a late duplicate event still finds them. */
const UPLOAD_ITEM_LIFETIME_SECONDS = 14 * 24 * 3600;

/** The expiry index of a pending upload: of its company, or (all-companies view) of the user it is held by. */
function pendingIndex(u: UploadRecord): Item {
  if (u.state !== 'pending') return {};
  if (u.company_id) return keys.pendingUploadIndex(u.company_id, u.expires_at, u.upload_id);
  return u.held_by ? keys.pendingUserUploadIndex(u.held_by, u.expires_at, u.upload_id) : {};
}

/** The item counting the outstanding uploads a pending upload is held against (none for an unheld upload). */
function holdKey(u: UploadRecord): Key | undefined {
  if (!u.held_by) return undefined;
  return u.company_id ? keys.uploadHolds(u.company_id, u.held_by) : keys.userUploadHolds(u.held_by);
}

function uploadItem(u: UploadRecord): Item {
  const pending = pendingIndex(u);
  const ttl = Math.floor(Date.parse(u.expires_at) / 1000) + UPLOAD_ITEM_LIFETIME_SECONDS;
  return { ...keys.upload(u.upload_id), ...pending, type: 'UPLOAD', ...u, ttl };
}

/** Gives back the user's outstanding-reservation count held by a pending upload that leaves `pending`. */
function holdRelease(upload: UploadRecord): TransactItem | undefined {
  const key = holdKey(upload);
  if (upload.state !== 'pending' || !key) return undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD outstanding :minus',
      ExpressionAttributeValues: { ':minus': -1 },
    },
  };
}

function countsKey(scope: ScopeKey, type: ReceiptType): Key {
  return scope.startsWith('C#') ? keys.companyCounts(scope.slice(2), type) : keys.userDocumentCounts(scope.slice(2), type);
}

/** The attribute of a counts item that keeps the sum of its documents' totals (sums.ts). */
const SUM_ATTRIBUTE = 'total_cents';

/** ADD on the counts items: one Update per item, its status numbers and its sum of totals together. */
function countUpdates(deltas: CountDelta[], sums: SumDelta[] = []): TransactItem[] {
  const byItem = new Map<string, { key: Key; adds: Map<string, number> }>();
  const addTo = (scope: ScopeKey, type: ReceiptType, attribute: string, delta: number) => {
    const key = countsKey(scope, type);
    const id = `${key.pk}|${key.sk}`;
    if (!byItem.has(id)) byItem.set(id, { key, adds: new Map() });
    const adds = byItem.get(id)!.adds;
    adds.set(attribute, (adds.get(attribute) ?? 0) + delta);
  };
  for (const d of deltas) addTo(d.scope, d.receipt_type, d.status, d.delta);
  for (const s of sums) addTo(s.scope, s.receipt_type, SUM_ATTRIBUTE, s.cents);
  const out: TransactItem[] = [];
  for (const { key, adds } of byItem.values()) {
    const entries = [...adds.entries()].filter(([, v]) => v !== 0);
    if (entries.length === 0) continue;
    const names: Record<string, string> = {};
    const values: Record<string, number> = {};
    const parts = entries.map(([attribute, delta], i) => {
      names[`#s${i}`] = attribute;
      values[`:d${i}`] = delta;
      return `#s${i} :d${i}`;
    });
    out.push({
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: `ADD ${parts.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    });
  }
  return out;
}

/** A counts item read back: its status numbers and its sum of totals. */
function tallyOf(item: Record<string, unknown> | undefined): ScopeTally {
  const sum = item?.[SUM_ATTRIBUTE];
  return { counts: countsFromItem(item), total_cents: typeof sum === 'number' && Number.isFinite(sum) ? sum : 0 };
}

/**
 * ADD on the month's usage item; with a limit, conditional on quota_taken ≤ limit (missing counts as 0); with
 * notBelowZero, on each lowered counter holding at least what is taken off. With the quota the limit came from, also
 * SET available_documents to it: the month keeps the quota it was counted against after the company's changes.
 */
function usageUpdate(u: UsageDelta): TransactItem | undefined {
  const fields: [string, number][] = (
    [
      ['quota_taken', u.quota_taken],
      ['used_documents', u.used_documents],
      ['reserved_documents', u.reserved_documents],
      ['duplicated_documents', u.duplicated_documents],
    ] as [string, number][]
  ).filter(([, v]) => v !== 0);
  if (fields.length === 0 && u.limit === undefined) return undefined;
  if (fields.length === 0) fields.push(['quota_taken', 0]);
  const values: Record<string, unknown> = Object.fromEntries(fields.map(([name, v]) => [`:${name}`, v]));
  let expression = `ADD ${fields.map(([name]) => `${name} :${name}`).join(', ')}`;
  if (u.quota !== undefined) {
    expression += ' SET available_documents = :quota';
    values[':quota'] = u.quota;
  }
  const update: TransactItem['Update'] = {
    TableName: tableName(),
    Key: keys.companyUsage(u.companyId, u.month),
    UpdateExpression: expression,
    ExpressionAttributeValues: values,
  };
  const conditions: string[] = [];
  if (u.limit !== undefined) {
    conditions.push('(attribute_not_exists(quota_taken) OR quota_taken <= :limit)');
    values[':limit'] = u.limit;
  }
  if (u.notBelowZero) {
    // A missing counter fails the comparison, as 0 would.
    for (const [name, v] of fields.filter(([, d]) => d < 0)) {
      conditions.push(`${name} >= :${name}_off`);
      values[`:${name}_off`] = -v;
    }
  }
  if (conditions.length) update.ConditionExpression = conditions.join(' AND ');
  return { Update: update };
}

function reasonOf(error: unknown, labels: { reason: ConflictReason; receiptId?: string }[]): CommitConflict | undefined {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[]; message?: string };
  if (e?.name !== 'TransactionCanceledException') return undefined;
  const reasons = e.CancellationReasons ?? [];
  const index = reasons.findIndex((r) => r?.Code === 'ConditionalCheckFailed');
  if (index < 0) return undefined;
  const label = labels[index] ?? { reason: 'unknown' as const };
  return new CommitConflict(label.reason, label.receiptId);
}

async function transact(items: TransactItem[], labels: { reason: ConflictReason; receiptId?: string }[]): Promise<void> {
  if (items.length === 0) return;
  if (items.length > 100) throw new Error(`A document change of ${items.length} items is over the transaction limit of 100`);
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const conflict = reasonOf(error, labels);
    if (conflict) throw conflict;
    throw error;
  }
}

const ATTR = { table: 'sk', gsi1: 'gsi1sk', gsi2: 'gsi2sk', gsi3: 'gsi3sk' } as const;
const PK = { table: 'pk', gsi1: 'gsi1pk', gsi2: 'gsi2pk', gsi3: 'gsi3pk' } as const;

function streamKey(stream: StreamSpec): { index: keyof typeof ATTR; pk: string } {
  switch (stream.by) {
    case 'search':
      return keys.documentSearchStream(stream.scope, stream.bucket, stream.receipt_type, stream.status);
    case 'scope':
      return keys.documentsOfScope(stream.scope);
    case 'type':
      return keys.documentsByType(stream.scope, stream.receipt_type);
    default:
      return keys.documentsByTypeAndStatus(stream.scope, stream.receipt_type, stream.status);
  }
}

/** The list query of one stream: key condition on the sort key range, the filters as a FilterExpression. */
export function listQueryInput(
  stream: StreamSpec,
  opts: { lower?: string; upper?: string; limit: number; filter: ListFilter | null; continuation?: unknown },
): Omit<QueryCommandInput, 'TableName'> {
  const { index, pk } = streamKey(stream);
  const names: Record<string, string> = { '#pk': PK[index] };
  if (opts.lower !== undefined || opts.upper !== undefined) names['#sk'] = ATTR[index];
  const values: Record<string, unknown> = { ':pk': pk };
  let condition = '#pk = :pk';
  if (opts.lower !== undefined && opts.upper !== undefined) {
    condition += ' AND #sk BETWEEN :lo AND :hi';
    values[':lo'] = opts.lower;
    values[':hi'] = opts.upper;
  } else if (opts.upper !== undefined) {
    condition += ' AND #sk <= :hi';
    values[':hi'] = opts.upper;
  } else if (opts.lower !== undefined) {
    condition += ' AND #sk >= :lo';
    values[':lo'] = opts.lower;
  }
  const filters: string[] = [];
  if (stream.by !== 'type-status' && stream.except_status) {
    filters.push('#status <> :except');
    names['#status'] = 'status';
    values[':except'] = stream.except_status;
  }
  const f = opts.filter;
  // A term too short for the index: every word starts a word of the document (`search_text` is ` word1 word2 …`).
  (f?.search ?? []).forEach((w, i) => {
    filters.push(`contains(search_text, :q${i})`);
    values[`:q${i}`] = ` ${w}`;
  });
  if (stream.by === 'search') {
    // Every word of the term starts a word of the document (`t` is ` word1 word2 …`).
    (f?.words ?? []).forEach((w, i) => {
      filters.push(`contains(t, :w${i})`);
      values[`:w${i}`] = ` ${w}`;
    });
  }
  if (f?.issueFrom) {
    filters.push('issue_date >= :if');
    values[':if'] = f.issueFrom;
  }
  if (f?.issueTo) {
    filters.push('issue_date <= :it');
    values[':it'] = f.issueTo;
  }
  if (f?.duplicatesOnly) {
    // a copy of the same file, or of the same document (counterparty, number and total; checked again by the core)
    filters.push('(attribute_type(duplicate_id, :str) OR same_document = :same)');
    values[':str'] = 'S';
    values[':same'] = true;
  }
  if (f?.duplicateOf) {
    filters.push('(duplicate_id = :dup OR receipt_id = :dup)');
    values[':dup'] = f.duplicateOf;
  }
  return {
    ...(index === 'table' ? {} : { IndexName: index }),
    KeyConditionExpression: condition,
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
    Limit: opts.limit,
    ...(opts.continuation ? { ExclusiveStartKey: opts.continuation as Record<string, unknown> } : {}),
  };
}

export const ddbDocumentsStore: DocumentsStore = {
  async get(receiptId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.document(receiptId), ConsistentRead: true }));
    return res.Item ? (toRecord(res.Item) as DocumentRecord & { type?: string }) : undefined;
  },

  async getMany(receiptIds, options) {
    if (receiptIds.length === 0) return [];
    const items = await batchGet([...new Set(receiptIds)].map((id) => keys.document(id)), { consistent: options?.consistent === true });
    return items.map(toRecord);
  },

  async read(stream, opts) {
    const input = listQueryInput(stream, opts);
    const res = await ddb().send(new QueryCommand({ ...input, TableName: tableName() }));
    const last = res.LastEvaluatedKey;
    return {
      items: (res.Items ?? []).map(toRecord),
      continuation: last,
      reachedKey: last ? String(last[ATTR[streamKey(stream).index]]) : undefined,
    };
  },

  async commit(change: DocumentChange) {
    const items: TransactItem[] = [];
    const labels: { reason: ConflictReason; receiptId?: string }[] = [];
    const add = (item: TransactItem, reason: ConflictReason, receiptId?: string) => {
      items.push(item);
      labels.push({ reason, receiptId });
    };
    for (const doc of change.puts) {
      add({ Put: { TableName: tableName(), Item: indexedDocumentItem(doc), ConditionExpression: 'attribute_not_exists(pk)' } }, 'exists', doc.receipt_id);
    }
    for (const { before, after } of change.updates) {
      add(
        {
          Put: {
            TableName: tableName(),
            Item: indexedDocumentItem(after),
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': before.version },
          },
        },
        'version',
        before.receipt_id,
      );
    }
    for (const doc of change.deletes) {
      add(
        {
          Delete: {
            TableName: tableName(),
            Key: keys.document(doc.receipt_id),
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': doc.version },
          },
        },
        'version',
        doc.receipt_id,
      );
    }
    for (const item of searchIndexWrites(change)) add(item, 'unknown');
    for (const item of countUpdates(change.counts, sumMoves(change))) add(item, 'unknown');
    if (change.usage) {
      if (change.usage.limit !== undefined && change.usage.limit < 0) throw new CommitConflict('quota');
      const item = usageUpdate(change.usage);
      if (item) add(item, 'quota');
    }
    if (change.upload) {
      const { upload, to, document_ids } = change.upload;
      add(
        {
          Update: {
            TableName: tableName(),
            Key: keys.upload(upload.upload_id),
            UpdateExpression: 'SET #state = :to, document_ids = :ids REMOVE gsi1pk, gsi1sk',
            ConditionExpression: '#state = :from',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':to': to, ':from': upload.state, ':ids': document_ids ?? upload.document_ids },
          },
        },
        'upload-state',
      );
      const held = to !== 'pending' ? holdRelease(upload) : undefined;
      if (held) add(held, 'unknown');
    }
    for (const m of change.markers.delete) add({ Delete: { TableName: tableName(), Key: keys.documentMarker(m.kind, m.scope, m.value, m.receipt_id) } }, 'unknown');
    for (const m of change.markers.put) add({ Put: { TableName: tableName(), Item: markerItem(m) } }, 'unknown');
    for (const h of change.history) add({ Put: { TableName: tableName(), Item: historyItem(h) } }, 'unknown');
    for (const l of change.leftovers ?? []) add({ Put: { TableName: tableName(), Item: leftoversItem(l) } }, 'unknown');
    await transact(items, labels);
  },

  async pendingLeftovers(dueBefore, limit) {
    // D18: the one gsi1 partition of leftovers, the earliest due first, up to the given time.
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
        ExpressionAttributeValues: { ':pk': keys.leftoversIndex('', '').gsi1pk, ':before': dueBefore },
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map((i) => {
      const { type: _type, ...rest } = stripKeys<DocumentLeftovers & { type?: string }>(i);
      return rest;
    });
  },

  async dropLeftovers(receiptId) {
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.documentLeftovers(receiptId) }));
  },

  async postponeLeftovers(receiptId, retryAt) {
    // Only an item still there (the request may have dropped it meanwhile): an update would otherwise create one.
    await writeIf(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.documentLeftovers(receiptId),
        UpdateExpression: 'SET gsi1sk = :sk, retry_at = :at ADD attempts :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':sk': keys.leftoversIndex(retryAt, receiptId).gsi1sk, ':at': retryAt, ':one': 1 },
      }),
    );
  },

  async history(receiptId) {
    const k = keys.documentHistoryOf(receiptId);
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix },
    });
    return items.map((i) => stripKeys<HistoryRecord>(i));
  },

  async deleteHistory(receiptId) {
    const entries = await this.history(receiptId);
    await batchWrite(entries.map((h) => ({ DeleteRequest: { Key: keys.documentHistory(h.receipt_id, h.date, h.id) } })));
  },

  async deleteExportMarkers(receiptId) {
    // X7: the document's export markers, by their key prefix.
    const k = keys.exportMarkersOf(receiptId);
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix },
      ProjectionExpression: 'pk, sk',
    });
    await batchWrite(items.map((i) => ({ DeleteRequest: { Key: { pk: String(i.pk), sk: String(i.sk) } } })));
  },

  async copyHistory(fromReceiptId, toReceiptId) {
    const entries = await this.history(fromReceiptId);
    await batchWrite(entries.map((h) => ({ PutRequest: { Item: historyItem({ ...h, receipt_id: toReceiptId }) } })));
  },

  async markers(kind, scope, value) {
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.documentMarkersOf(kind, scope, value).pk },
        // Duplicates are decided on these: a marker written a moment ago counts.
        ConsistentRead: true,
        Limit: 50,
      }),
    );
    return (res.Items ?? []).map((i) => String(i.receipt_id));
  },

  async counts(scope) {
    const [receipt, invoice] = await Promise.all(
      (['receipt', 'invoice'] as const).map((t) => ddb().send(new GetCommand({ TableName: tableName(), Key: countsKey(scope, t) }))),
    );
    return { receipt: countsFromItem(receipt!.Item), invoice: countsFromItem(invoice!.Item) };
  },

  async tallies(scopes) {
    const wanted = [...new Set(scopes)];
    const items = await batchGet(wanted.flatMap((scope) => [countsKey(scope, 'receipt'), countsKey(scope, 'invoice')]));
    const byKey = new Map(items.map((i) => [`${i.pk}|${i.sk}`, i]));
    const at = (k: Key) => byKey.get(`${k.pk}|${k.sk}`);
    return new Map(
      wanted.map((scope) => [scope, { receipt: tallyOf(at(countsKey(scope, 'receipt'))), invoice: tallyOf(at(countsKey(scope, 'invoice'))) }] as const),
    );
  },

  async putUpload(upload, reserve, hold) {
    const items: TransactItem[] = [{ Put: { TableName: tableName(), Item: uploadItem(upload), ConditionExpression: 'attribute_not_exists(pk)' } }];
    const labels: { reason: ConflictReason }[] = [{ reason: 'exists' }];
    if (reserve) {
      if (reserve.limit !== undefined && reserve.limit < 0) throw new CommitConflict('quota');
      const item = usageUpdate(reserve);
      if (item) {
        items.push(item);
        labels.push({ reason: 'quota' });
      }
    }
    const held = hold ? holdKey(upload) : undefined;
    if (hold && held) {
      items.push({
        Update: {
          TableName: tableName(),
          Key: held,
          UpdateExpression: 'ADD outstanding :one',
          ConditionExpression: 'attribute_not_exists(outstanding) OR outstanding < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': hold.maxOutstanding },
        },
      });
      labels.push({ reason: 'held' });
    }
    await transact(items, labels);
  },

  async getUpload(uploadId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.upload(uploadId), ConsistentRead: true }));
    return res.Item ? stripKeys<UploadRecord>(res.Item) : undefined;
  },

  async expiredUploads(scope, nowIso, limit) {
    const companyId = scopeCompanyId(scope);
    const userId = scopeUserId(scope);
    const res = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :now',
        ExpressionAttributeValues: {
          ':pk': companyId !== null ? keys.pendingUploadIndex(companyId, '', '').gsi1pk : keys.pendingUserUploadIndex(userId!, '', '').gsi1pk,
          ':now': nowIso,
        },
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map((i) => stripKeys<UploadRecord>(i));
  },

  async releaseUpload(upload) {
    if (upload.state !== 'pending') return false;
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.upload(upload.upload_id),
          UpdateExpression: 'SET #state = :released REMOVE gsi1pk, gsi1sk',
          ConditionExpression: '#state = :pending',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':released': 'released', ':pending': 'pending' },
        },
      },
    ];
    if (upload.company_id && upload.month) {
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.companyUsage(upload.company_id, upload.month),
          UpdateExpression: 'ADD quota_taken :minus, reserved_documents :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      });
    }
    const held = holdRelease(upload);
    if (held) items.push(held);
    try {
      await transact(items, [{ reason: 'upload-state' }, { reason: 'unknown' }, { reason: 'unknown' }]);
      return true;
    } catch (error) {
      if (error instanceof CommitConflict) return false;
      throw error;
    }
  },

  async usage(companyId, month) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.companyUsage(companyId, month), ConsistentRead: true }));
    const item = res.Item ?? {};
    return {
      used_documents: Number(item.used_documents ?? 0),
      reserved_documents: Number(item.reserved_documents ?? 0),
      quota_taken: Number(item.quota_taken ?? 0),
    };
  },
};

