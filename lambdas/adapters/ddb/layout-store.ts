/**
 * Learnt supplier layouts in the single table: one item per supplier key of a company, `COMPANY#<id>` /
 * `LAYOUT#<VAT|CODE|NAME>#<value>`, each holding the whole hint. C3: a confirm writes all keys of one
 * layout in one transaction (replacing what they held); C4: processing reads the keys of a document's
 * supplier with one BatchGetItem; C6: a deleted document's layout is deleted key by key, each conditioned on it;
 * C7: the keys holding what one document taught, by gsi1 (`LAYOUTSRC#<companyId>#<receiptId>`).
 */
import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { SUPPLIER_KEY_KINDS } from '../../core/recognition/layout-keys';
import type { SupplierKey } from '../../core/recognition/layout-keys';
import type { StoredSupplierLayout, SupplierLayouts } from '../../core/recognition/ports';
import type { SupplierLayoutHint } from '../../core/recognition/types';
import { ddb } from './client';
import { keys } from './keys';
import { batchGet, queryAll, tableName } from './table-ops';

/** Keys read in one look-up: one BatchGetItem holds 100. */
const MAX_KEYS = 100;

function uniqueKeys(list: SupplierKey[]): SupplierKey[] {
  const seen = new Set<string>();
  return list.filter((k) => {
    const id = `${k.kind}#${k.value}`;
    if (!k.value || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function isHint(v: unknown): v is SupplierLayoutHint {
  const h = v as Partial<SupplierLayoutHint> | undefined;
  return !!h && typeof h === 'object' && !!h.supplier && typeof h.supplier === 'object' && Array.isArray(h.fields);
}

export const ddbSupplierLayouts: SupplierLayouts = {
  async put(companyId, keyList, layout) {
    const list = uniqueKeys(keyList);
    if (!list.length) return;
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: list.map((k) => ({
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.supplierLayout(companyId, k.kind, k.value),
              ...keys.supplierLayoutSource(companyId, layout.source_receipt_id, k.kind, k.value),
              type: 'SUPPLIER_LAYOUT',
              company_id: companyId,
              supplier_key: `${k.kind}#${k.value}`,
              hint: layout.hint,
              source_receipt_id: layout.source_receipt_id,
              learned_at: layout.learned_at,
              learned_by: layout.learned_by,
            },
          },
        })),
      }),
    );
  },

  async find(companyId, keyList) {
    const list = uniqueKeys(keyList).slice(0, MAX_KEYS);
    if (!list.length) return [];
    const items = await batchGet(list.map((k) => keys.supplierLayout(companyId, k.kind, k.value)));
    const byLayout = new Map<string, StoredSupplierLayout>();
    for (const item of items) {
      // The key names the company; the attribute is checked too, so a stray item can never cross companies.
      if (item.company_id !== companyId || !isHint(item.hint)) continue;
      const layout: StoredSupplierLayout = {
        hint: item.hint,
        source_receipt_id: String(item.source_receipt_id ?? ''),
        learned_at: String(item.learned_at ?? ''),
        learned_by: String(item.learned_by ?? ''),
      };
      // One layout is stored under several keys: keep it once.
      byLayout.set(`${layout.source_receipt_id}|${layout.learned_at}`, layout);
    }
    return [...byLayout.values()].sort((a, b) => b.learned_at.localeCompare(a.learned_at));
  },

  async forget(companyId, keyList, sourceReceiptId) {
    let deleted = 0;
    for (const k of uniqueKeys(keyList).slice(0, MAX_KEYS)) {
      try {
        await ddb().send(
          new DeleteCommand({
            TableName: tableName(),
            Key: keys.supplierLayout(companyId, k.kind, k.value),
            ConditionExpression: 'source_receipt_id = :source AND company_id = :company',
            ExpressionAttributeValues: { ':source': sourceReceiptId, ':company': companyId },
          }),
        );
        deleted++;
      } catch (error) {
        // Empty, or another document's layout (a later confirm of the supplier): kept.
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      }
    }
    return deleted;
  },

  async taughtBy(companyId, sourceReceiptId) {
    const { gsi1pk } = keys.supplierLayoutSource(companyId, sourceReceiptId, 'VAT', '');
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
      ProjectionExpression: 'company_id, supplier_key',
    });
    const out: SupplierKey[] = [];
    for (const item of items) {
      if (item.company_id !== companyId) continue;
      const [kind, ...rest] = String(item.supplier_key ?? '').split('#');
      const value = rest.join('#');
      const known = SUPPLIER_KEY_KINDS.find((k) => k === kind);
      if (known && value) out.push({ kind: known, value });
    }
    return out;
  },
};
