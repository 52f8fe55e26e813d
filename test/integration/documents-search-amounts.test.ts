/**
 * Search by what a bookkeeper sees on a bank statement (through the real upload, processing and content handlers and
 * the local stand-ins): the total typed with a decimal comma or point, with or without thousands groups ("123,45",
 * "1 234,56"); a credit note by its amount without the minus; the supplier's company code and VAT ID typed with
 * spaces; "45" does not bring every total with 45 cents; and a document indexed under version 3 (no code or VAT ID
 * on its record, no words of its total) is found so once the backfill has read its content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { documentItem, toRecord } from '../../lambdas/adapters/ddb/documents-store';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { backfillSearchIndex } from '../../lambdas/adapters/ddb/search-backfill';
import { tableName } from '../../lambdas/adapters/ddb/table-ops';
import { sortKeyOf } from '../../lambdas/core/documents/list';
import { documentSearchBuckets, searchTokenString } from '../../lambdas/core/documents/search';
import type { DocumentRecord } from '../../lambdas/core/documents/types';
import type { ContentResponse } from '../../shared/schemas/content';
import { listedIds } from '../support/list-pages';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from './content-fixtures';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];

describe('search by amount, company code and VAT ID', () => {
  let t: TestStack;
  let api: Api;
  let companyId: string;
  /** Total 123.45, company code 302801462 (printed on the invoice), VAT ID LT100001234567. */
  let alfa: string;
  /** Total 1234.56. */
  let beta: string;
  /** A credit note: total -77.70. */
  let credit: string;
  /** Total 45.00. */
  let even: string;
  /** What the company code printed on Alfa's invoice found once processing had read it (before any edit). */
  let byCodeAfterReading: string[];

  async function search(term: string, as: Api = api, where = `company_id=${companyId}`): Promise<string[]> {
    return (await listedIds(as, `${where}&search_value=${encodeURIComponent(term)}`)).sort();
  }

  /** Edits values of a document's content through PUT /receipts/{id}/content (the edit screen's save). */
  async function edit(as: Api, company: string, receiptId: string, items: { id: string; value: string }[]): Promise<void> {
    const q = `company_id=${company}`;
    const current = (await as.get(`/receipts/${receiptId}/content?${q}`)).body as ContentResponse;
    const res = await as.put(`/receipts/${receiptId}/content?${q}`, { version: current.version, items });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  const pdf = (supplier: string, supplierCode: string, total: string) => invoicePdf({ ...SAMPLE_INVOICE, supplier, supplierCode, total });

  beforeAll(async () => {
    t = await startTestStack();
    const u = await registeredUser(t.stack, 'search-amounts');
    api = u.api;
    companyId = u.companyId;
    alfa = await uploadDocument(t.stack, api, companyId, await pdf('UAB Alfa', '302801462', '123.45'), 'alfa.pdf');
    beta = await uploadDocument(t.stack, api, companyId, await pdf('UAB Beta', '302999111', '1234.56'), 'beta.pdf');
    credit = await uploadDocument(t.stack, api, companyId, await pdf('UAB Gama', '302999222', '77.70'), 'gama.pdf');
    even = await uploadDocument(t.stack, api, companyId, await pdf('UAB Delta', '302999333', '45.00'), 'delta.pdf');
    byCodeAfterReading = await search('302 801 462');
    // Set as a bookkeeper would on the edit screen (whatever the reading gave): the totals, and Alfa's VAT ID.
    await edit(api, companyId, alfa, [
      { id: 'amount_total', value: '123.45' },
      { id: 'supplier_vat_id', value: 'LT100001234567' },
    ]);
    await edit(api, companyId, beta, [{ id: 'amount_total', value: '1234.56' }]);
    await edit(api, companyId, credit, [{ id: 'amount_total', value: '-77.70' }]);
    await edit(api, companyId, even, [{ id: 'amount_total', value: '45.00' }]);
  }, 240_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('finds a total typed with a comma or a point, with or without thousands groups', async () => {
    for (const term of ['123,45', '123.45', '123,4', ' 123,45 ']) expect({ term, found: await search(term) }).toEqual({ term, found: [alfa] });
    for (const term of ['1 234,56', '1\u00a0234,56', '1.234,56', '1,234.56', '1234.56', '1234,56', '1 234']) {
      expect({ term, found: await search(term) }).toEqual({ term, found: [beta] });
    }
    // A whole number is the start of the totals: 123 finds 123.45 (and 1234.56, whose total starts with 123).
    expect(await search('123')).toEqual([alfa, beta].sort());
    // Other amounts find nothing.
    for (const term of ['123,46', '1 234,57', '23,45']) expect({ term, found: await search(term) }).toEqual({ term, found: [] });
  });

  it('finds a credit note by its amount without the minus, and does not list every total with 45 cents under "45"', async () => {
    for (const term of ['77,70', '77.70', '-77,70', '77,7']) expect({ term, found: await search(term) }).toEqual({ term, found: [credit] });
    // 45 is the start of the total 45.00, not of 123.45 (its cents are no word of their own).
    expect(await search('45')).toEqual([even]);
    expect(await search('45,00')).toEqual([even]);
  });

  it('finds the supplier by its company code and VAT ID, with or without spaces, in any case', async () => {
    // As processing read it from the invoice.
    expect(byCodeAfterReading).toEqual([alfa]);
    for (const term of ['302801462', '302 801 462', '3028']) expect({ term, found: await search(term) }).toEqual({ term, found: [alfa] });
    for (const term of ['LT100001234567', 'lt100001234567', 'lt 1000 0123 4567', 'LT 100001234567', 'LT-1000-0123-4567', '100001234567']) {
      expect({ term, found: await search(term) }).toEqual({ term, found: [alfa] });
    }
    // With another word of the document, and in the all-companies view (the merge of every company's streams).
    expect(await search('alfa 123,45')).toEqual([alfa]);
    expect(await search('lt 1000 0123 4567', api, 'selected=ALL')).toEqual([alfa]);
    expect(await search('1 234,56', api, 'selected=ALL')).toEqual([beta]);
    // Another company's user finds nothing of them.
    const other = await registeredUser(t.stack, 'search-amounts-other');
    expect(await search('302801462', other.api, `company_id=${other.companyId}`)).toEqual([]);
  });

  it('re-indexes a document of index version 3 with the backfill, reading its code and VAT ID from its content', async () => {
    const { api: own, companyId: id } = await registeredUser(t.stack, 'search-amounts-old');
    const old = await uploadDocument(t.stack, own, id, await pdf('UAB Senas', '302555666', '99.99'), 'senas.pdf');
    await edit(own, id, old, [
      { id: 'amount_total', value: '-1234.56' },
      { id: 'supplier_code', value: '302555666' },
      { id: 'supplier_vat_id', value: 'LT100005556667' },
    ]);
    // As version 3 wrote it: no code or VAT ID on the record, search items of the name, number and file name only.
    const stored = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.document(old) }));
    const current = toRecord(stored.Item!);
    expect(current).toMatchObject({ counterparty_code: '302555666', counterparty_vat_id: 'LT100005556667' });
    for (const bucket of documentSearchBuckets(current)) {
      await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.documentSearchKey(current.scope, bucket, sortKeyOf(current)) }));
    }
    const v3: DocumentRecord = { ...current };
    delete v3.counterparty_code;
    delete v3.counterparty_vat_id;
    const v3Words = { counterparty_name: v3.counterparty_name, document_number: v3.document_number, original_file_name: v3.original_file_name };
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...documentItem(v3), siv: 3 } }));
    for (const bucket of documentSearchBuckets(v3Words)) {
      const item = { ...keys.documentSearch(v3.scope, bucket, v3.receipt_type, v3.status, sortKeyOf(v3)), ...v3, type: 'DOC_SEARCH', t: searchTokenString(v3Words), siv: 3 };
      await ddb().send(new PutCommand({ TableName: tableName(), Item: item }));
    }
    const where = `company_id=${id}`;
    expect(await search('senas', own, where)).toEqual([old]);
    for (const term of ['302555666', '302 555 666', 'lt 1000 0555 6667', '1 234,56']) expect({ term, found: await search(term, own, where) }).toEqual({ term, found: [] });

    await backfillSearchIndex();
    for (const term of ['senas', '302555666', '302 555 666', 'lt 1000 0555 6667', 'LT100005556667', '1 234,56', '1234.56']) {
      expect({ term, found: await search(term, own, where) }).toEqual({ term, found: [old] });
    }
    const after = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.document(old) }));
    expect(after.Item).toMatchObject({ counterparty_code: '302555666', counterparty_vat_id: 'LT100005556667', siv: 4, version: current.version });
  }, 120_000);
});
