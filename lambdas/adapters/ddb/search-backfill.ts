/**
 * Backfills of the search indexes; maintenance jobs, not request paths: they scan the table.
 *
 * The document search index (docs/data-model.md, S3): documents written before the index
 * (or under an older SEARCH_INDEX_VERSION) get their search items and the search text of the current
 * word rule; search items of an older version
 * are removed. Idempotent and safe next to live writes: a document is indexed in one transaction
 * conditioned on its version (a document changed meanwhile was indexed by that change), and an old
 * search item is deleted only while it still carries the old version. A document written before the record
 * carried its counterparty's company code and VAT ID (index version 4) gets them from its content JSON (read from
 * the documents bucket: DOCUMENTS_BUCKET) in the same update.
 *
 * The master-data name search (M3) and item word index (M10): records written under an older rule
 * (`MASTER_SEARCH_VERSION`, for items `ITEM_SEARCH_VERSION`), and items whose write did not finish its later
 * item-word transactions (`msv` 0), are written again unchanged, conditioned on their version, which puts the current
 * rule's search and item-word items and deletes the former rules' (`writeMasterRecord` told the stored `msv`); a
 * record changed meanwhile was rewritten by that change. Then the search items under the former sort key that are
 * left (a record written by the current code before the backfill ran keeps its former items: a write does not know
 * its record's stored rule) are deleted, except those of a record the backfill could not rewrite.
 *
 * Company-code guards (A8, A28): companies created before the guard get their creator's guard, only where exactly
 * one company of that creator has the code (older duplicates stay as they are: nothing says which one keeps it);
 * a guard is put only while there is none, so a company created meanwhile keeps the one it wrote.
 */
import { DeleteCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { companyCodeKey } from '../../core/accounts/companies';
import type { CompanyRecord } from '../../core/accounts/types';
import { companyCodeGuardItem } from './accounts-store';
import { contentSummary, parseStoredContent } from '../../core/content/service';
import { searchTextOf } from '../../core/documents/list';
import type { DocumentRecord } from '../../core/documents/types';
import { s3Files } from '../s3/files';
import { SEARCH_INDEX_VERSION } from '../../core/documents/search';
import { ddb } from './client';
import { searchItems, toRecord } from './documents-store';
import { DuplicateKeyError } from '../../core/master-data/ports';
import { ITEM_SEARCH_VERSION, MASTER_SEARCH_VERSION, recordOf, writeMasterRecord } from './master-data-store';
import { keys, MASTER_SORT_NAME_END } from './keys';
import { batchDelete, scanPages, stripKeys, tableName, writeIf } from './table-ops';

export interface BackfillResult {
  /** Documents that got their search items. */
  indexed: number;
  /** Documents that changed while the backfill ran (indexed by that change). */
  skipped: number;
  /** Search items of an older index version removed. */
  removed: number;
}

const isConditionFailure = (error: unknown) => {
  const name = (error as { name?: string })?.name;
  return name === 'TransactionCanceledException' || name === 'ConditionalCheckFailedException';
};

/** Reads a document's content JSON (the documents bucket); undefined when it is not there. */
export type ContentReader = (key: string) => Promise<unknown>;

/**
 * The counterparty's company code and VAT ID of a document whose record does not carry them yet (written before
 * index version 4), from its content JSON; none for a document without content (not read yet) or whose content is
 * gone. A record that has them keeps them (every write since carries the content's).
 */
export async function counterpartyIds(doc: DocumentRecord, readContent: ContentReader): Promise<Pick<DocumentRecord, 'counterparty_code' | 'counterparty_vat_id'>> {
  if (doc.counterparty_code !== undefined && doc.counterparty_vat_id !== undefined) {
    return { counterparty_code: doc.counterparty_code, counterparty_vat_id: doc.counterparty_vat_id };
  }
  const content = doc.content_key ? parseStoredContent(await readContent(doc.content_key)) : undefined;
  if (!content) return { counterparty_code: doc.counterparty_code ?? '', counterparty_vat_id: doc.counterparty_vat_id ?? '' };
  const summary = contentSummary(content, doc.receipt_type);
  return { counterparty_code: summary.counterparty_code, counterparty_vat_id: summary.counterparty_vat_id };
}

export async function backfillSearchIndex(
  opts: { log?: (message: string) => void; readContent?: ContentReader } = {},
): Promise<BackfillResult> {
  const readContent =
    opts.readContent ??
    (async (key: string) => {
      try {
        return await s3Files.getJson<unknown>(key);
      } catch (error) {
        throw new Error(`search index backfill: reading ${key} from the documents bucket ${s3Files.bucket()} failed (set DOCUMENTS_BUCKET): ${String(error)}`);
      }
    });
  const result: BackfillResult = { indexed: 0, skipped: 0, removed: 0 };
  for await (const items of scanPages({
    FilterExpression: '(#type = :doc OR #type = :search) AND (attribute_not_exists(siv) OR siv < :v)',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':doc': 'DOCUMENT', ':search': 'DOC_SEARCH', ':v': SEARCH_INDEX_VERSION },
  })) {
    for (const item of items) {
      try {
        // A search item by its key (`DOCQ#…`): items written before stop 65 could carry the document's kind.
        if (item.type === 'DOC_SEARCH' || String(item.pk).startsWith('DOCQ#')) {
          await ddb().send(
            new DeleteCommand({
              TableName: tableName(),
              Key: { pk: item.pk, sk: item.sk },
              ConditionExpression: 'attribute_not_exists(siv) OR siv < :v',
              ExpressionAttributeValues: { ':v': SEARCH_INDEX_VERSION },
            }),
          );
          result.removed += 1;
          continue;
        }
        // The counterparty's code and VAT ID (searched since version 4), and the search text of the current word rule
        // (list.ts searchTextOf): short terms are matched against it.
        const record = toRecord(item);
        const doc: DocumentRecord = { ...record, ...(await counterpartyIds(record, readContent)) };
        doc.search_text = searchTextOf(doc);
        await ddb().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.document(doc.receipt_id),
                  UpdateExpression: 'SET siv = :v, search_text = :text, counterparty_code = :code, counterparty_vat_id = :vat',
                  ConditionExpression: 'version = :version AND (attribute_not_exists(siv) OR siv < :v)',
                  ExpressionAttributeValues: {
                    ':v': SEARCH_INDEX_VERSION,
                    ':version': doc.version,
                    ':text': doc.search_text,
                    ':code': doc.counterparty_code ?? '',
                    ':vat': doc.counterparty_vat_id ?? '',
                  },
                },
              },
              ...searchItems(doc).map((search) => ({ Put: { TableName: tableName(), Item: search } })),
            ],
          }),
        );
        result.indexed += 1;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        if (item.type === 'DOCUMENT') result.skipped += 1;
      }
    }
    opts.log?.(`search index backfill: ${result.indexed} indexed, ${result.skipped} changed meanwhile, ${result.removed} old items removed`);
  }
  return result;
}

export interface MasterBackfillResult {
  /** Records whose search items were written again under the current rule. */
  rewritten: number;
  /** Records that changed while the backfill ran (rewritten by that change). */
  skipped: number;
  /** Search items under the former sort key left by records the current code wrote before the backfill ran. */
  removed: number;
}

export async function backfillMasterSearch(opts: { log?: (message: string) => void } = {}): Promise<MasterBackfillResult> {
  const result: MasterBackfillResult = { rewritten: 0, skipped: 0, removed: 0 };
  const notRewritten = new Set<string>();
  for await (const items of scanPages({
    FilterExpression: '((entity IN (:s, :c) AND msv < :v) OR (entity = :i AND msv < :iv)) OR (entity IN (:s, :c, :i) AND attribute_not_exists(msv))',
    ExpressionAttributeValues: { ':s': 'MD_STAKEHOLDER', ':c': 'MD_CATEGORY', ':i': 'MD_ITEM', ':v': MASTER_SEARCH_VERSION, ':iv': ITEM_SEARCH_VERSION },
  })) {
    for (const item of items) {
      const record = recordOf<Parameters<typeof writeMasterRecord>[0] & object>(item);
      try {
        await writeMasterRecord(record, record, typeof item.msv === 'number' ? item.msv : 0);
        result.rewritten += 1;
      } catch (error) {
        if (!isConditionFailure(error) && !(error instanceof DuplicateKeyError)) throw error;
        result.skipped += 1;
        if (error instanceof DuplicateKeyError) notRewritten.add(`${String(item.pk)}`);
      }
    }
    opts.log?.(`master-data search backfill: ${result.rewritten} records rewritten, ${result.skipped} changed meanwhile`);
  }
  for await (const items of scanPages({
    FilterExpression: 'begins_with(pk, :search)',
    ExpressionAttributeValues: { ':search': 'MDS#' },
    ProjectionExpression: 'pk, sk, rid, company_id, #type, name_id',
    ExpressionAttributeNames: { '#type': 'type' },
  })) {
    const former = items.filter((i) => !String(i.sk).includes(MASTER_SORT_NAME_END) && !notRewritten.has(recordPkOf(i)));
    if (former.length === 0) continue;
    await batchDelete(former.map((i) => ({ pk: String(i.pk), sk: String(i.sk) })));
    result.removed += former.length;
    opts.log?.(`master-data search backfill: ${result.removed} search items under the former sort key removed`);
  }
  return result;
}

/** The record's own key (`pk`) a search item is a copy of. */
function recordPkOf(searchItem: Record<string, unknown>): string {
  const companyId = String(searchItem.company_id);
  if (searchItem.name_id !== undefined) return keys.masterRecord(companyId, 'ITEM', String(searchItem.rid)).pk;
  return keys.masterRecord(companyId, searchItem.type === undefined ? 'CATEGORY' : 'STAKEHOLDER', String(searchItem.rid)).pk;
}

export interface CompanyCodeBackfillResult {
  /** Guards written. */
  written: number;
  /** Companies that share their code with another company of their creator: left without a guard. */
  duplicates: number;
}

export async function backfillCompanyCodeGuards(opts: { log?: (message: string) => void } = {}): Promise<CompanyCodeBackfillResult> {
  const result: CompanyCodeBackfillResult = { written: 0, duplicates: 0 };
  const byCreatorAndCode = new Map<string, CompanyRecord[]>();
  for await (const items of scanPages({
    FilterExpression: '#type = :company AND sk = :meta',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':company': 'COMPANY', ':meta': 'META' },
  })) {
    for (const item of items) {
      const company = stripKeys<CompanyRecord>(item);
      if (!company.owner?.user_id || typeof company.code !== 'string') continue;
      const key = `${company.owner.user_id}\u0000${companyCodeKey(company.code)}`;
      byCreatorAndCode.set(key, [...(byCreatorAndCode.get(key) ?? []), company]);
    }
  }
  for (const companies of byCreatorAndCode.values()) {
    if (companies.length > 1) {
      result.duplicates += companies.length;
      continue;
    }
    const item = companyCodeGuardItem(companies[0]!);
    if (await writeIf(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }))) result.written += 1;
  }
  opts.log?.(`company code guards: ${result.written} written, ${result.duplicates} companies sharing a code with another of their creator left without one`);
  return result;
}
