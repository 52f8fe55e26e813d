import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { rivileClient } from '../../../lambdas/adapters/rivile/client';
import { TargetError, type RivileApi } from '../../../lambdas/core/integrations/ports';
import { clientCode, eipDate, exportToRivile, rivileRecords, rivileTakenMessage } from '../../../lambdas/core/integrations/rivile';
import { startRivileServer } from '../../../scripts/local/rivile-server';
import { buildRivileEip } from '../../../lambdas/core/integrations/rivile-eip';
import { exportDoc } from './fixtures';

describe('Rivile mapping', () => {
  it('maps a purchase with line items to N08, N17 and I06 with I07 lines (net totals, the document’s VAT rate)', () => {
    const doc = exportDoc({
      fields: { document_id: 'PP-1', issue_date: '2025-03-04', supplier_name: 'UAB Popierius', supplier_code: '302222222', supplier_vat_id: 'LT 100002222222', amount_total_base: '100.00', amount_tax: '21.00', amount_total: '121.00', currency: 'eur' },
      lineItems: [
        { description: 'Paper A4', quantity: '2', total_price: '10.00' },
        { description: 'Stapler', product_code: 'st-01', quantity: '1', total_price: '90.00' },
      ],
      vatLines: [{ vat_line_rate: '21', vat_line_base: '100.00', vat_line_tax: '21.00' }],
    });
    const r = rivileRecords(doc);
    expect(r.n08).toMatchObject({ N08_KODAS_KS: '302222222', N08_PAV: 'UAB Popierius', N08_PVM_KODAS: 'LT100002222222', N08_RUSIS: '1' });
    expect(r.i06).toMatchObject({ I06_OP_TIP: '1', I06_DOK_NR: 'PP-1', I06_OP_DATA: '2025-03-04', I06_KODAS_KS: '302222222', I06_VAL_KODAS: 'EUR' });
    expect(r.i06.I07).toEqual([
      expect.objectContaining({ I07_KODAS: 'RC-PVM1', I07_KIEKIS: '2', I07_KAINA_BE: '5.00', I07_SUMA: '10.00', I07_PVM: '2.10', I07_MOKESTIS: 'PVM1' }),
      expect.objectContaining({ I07_KODAS: 'ST-01', I07_SUMA: '90.00', I07_PVM: '18.90', I07_MOKESTIS: 'PVM1' }),
    ]);
    expect(r.n17.map((n) => n.N17_KODAS_PS)).toEqual(['RC-PVM1', 'ST-01']);
  });

  it('writes the street into N08_ADR and the city and post code into their own fields, as the import reads them back', () => {
    const doc = exportDoc({
      fields: { document_id: 'PP-4', issue_date: '2025-03-04', supplier_name: 'UAB Popierius', supplier_code: '302222222', supplier_street: 'Gedimino pr. 1', supplier_city: 'Vilnius', supplier_zipcode: 'LT-01103', supplier_country: 'lt', amount_total: '121.00', amount_tax: '21.00' },
    });
    expect(rivileRecords(doc).n08).toMatchObject({ N08_ADR: 'Gedimino pr. 1', N08_MIESTAS: 'Vilnius', N08_POST_KODAS: 'LT-01103', N08_SALIS_K: 'LT' });
  });

  it('splits an address read as one line into street, post code and town; the country from the VAT ID as in i.SAF', () => {
    const read = (fields: Record<string, string>) =>
      rivileRecords(exportDoc({ fields: { document_id: 'PP-5', issue_date: '2025-03-04', supplier_name: 'UAB „Šviesos technika“', amount_total: '12.10', amount_tax: '2.10', ...fields } })).n08;
    expect(read({ supplier_street: 'Savanorių pr. 178, LT-03154 Vilnius', supplier_vat_id: 'LT 123456715' })).toMatchObject({
      N08_ADR: 'Savanorių pr. 178',
      N08_POST_KODAS: 'LT-03154',
      N08_MIESTAS: 'Vilnius',
      N08_SALIS_K: 'LT',
    });
    // the post code's letters name the country when nothing else does; a Greek VAT ID (EL) is GR
    expect(read({ supplier_street: 'Savanorių pr. 178, LT-03154 Vilnius' })).toMatchObject({ N08_SALIS_K: 'LT' });
    expect(read({ supplier_street: 'Ermou 10, 10563 Athína', supplier_vat_id: 'EL123456789' })).toMatchObject({ N08_POST_KODAS: '10563', N08_MIESTAS: 'Athína', N08_SALIS_K: 'GR' });
    // the document's own town or post code wins: the street stays whole
    expect(read({ supplier_street: 'Savanorių pr. 178, LT-03154 Vilnius', supplier_city: 'Kaunas' })).toMatchObject({ N08_ADR: 'Savanorių pr. 178, LT-03154 Vilnius', N08_MIESTAS: 'Kaunas', N08_POST_KODAS: '' });
    // any country's address of that shape splits alike, with no country guessed; another shape stays whole
    expect(read({ supplier_street: 'NO.53, JALAN BESAR, 45600 BATANG BERJUNTAI SELANGOR DARUL EHSAN' })).toMatchObject({ N08_POST_KODAS: '45600', N08_MIESTAS: 'BATANG BERJUNTAI SELANGOR DARUL EHSAN', N08_SALIS_K: '' });
    expect(read({ supplier_street: 'Gedimino pr. 1 Vilnius' })).toMatchObject({ N08_ADR: 'Gedimino pr. 1 Vilnius', N08_MIESTAS: '', N08_POST_KODAS: '', N08_SALIS_K: '' });
  });

  it('uses one line per VAT rate without line items; sales are I06_OP_TIP 51; 12 % is PVM58 from 2026', () => {
    const doc = exportDoc({
      type: 'invoice',
      fields: { document_id: 'S-9', issue_date: '2026-02-01', customer_name: 'Pirkėjas UAB', amount_total: '112.00', amount_tax: '12.00', amount_total_base: '100.00' },
    });
    const r = rivileRecords(doc);
    expect(r.i06.I06_OP_TIP).toBe('51');
    expect(r.n08.N08_RUSIS).toBe('2');
    expect(r.i06.I07).toEqual([expect.objectContaining({ I07_KODAS: 'RC-PVM58', I07_SUMA: '100.00', I07_PVM: '12.00', I07_PVM_PROC: '12' })]);
    // No code and no VAT id: a stable code from the name.
    expect(r.n08.N08_KODAS_KS).toBe(clientCode('', '', 'Pirkėjas UAB'));
    expect(clientCode('', '', 'Pirkėjas UAB')).toMatch(/^K[0-9A-Z]{1,11}$/);
  });

  it('books the VAT totals when the line items do not account for the document: read in part, or without rates on a document of two rates', () => {
    const partial = exportDoc({
      fields: { document_id: 'PP-2', issue_date: '2025-03-04', supplier_name: 'UAB Popierius', supplier_code: '302222222', amount_total: '121.00', amount_tax: '21.00' },
      lineItems: [{ description: 'Paper A4', quantity: '1', total_price: '5.00' }],
    });
    expect(rivileRecords(partial).i06.I07).toEqual([expect.objectContaining({ I07_KODAS: 'RC-PVM1', I07_SUMA: '100.00', I07_PVM: '21.00', I07_MOKESTIS: 'PVM1' })]);
    const twoRates = exportDoc({
      fields: { document_id: 'PP-3', issue_date: '2025-03-04', supplier_name: 'UAB Popierius', supplier_code: '302222222', amount_total_base: '200.00', amount_tax: '26.00', amount_total: '226.00' },
      lineItems: [
        { description: 'Book', quantity: '1', total_price: '100.00' },
        { description: 'Pen', quantity: '1', total_price: '100.00' },
      ],
      vatLines: [
        { vat_line_rate: '21', vat_line_base: '100.00', vat_line_tax: '21.00' },
        { vat_line_rate: '5', vat_line_base: '100.00', vat_line_tax: '5.00' },
      ],
    });
    const lines = rivileRecords(twoRates).i06.I07;
    expect(lines.map((l) => [l.I07_SUMA, l.I07_PVM, l.I07_MOKESTIS])).toEqual([
      ['100.00', '21.00', 'PVM1'],
      ['100.00', '5.00', 'PVM3'],
    ]);
    expect(lines.reduce((s, l) => s + Number(l.I07_PVM), 0)).toBeCloseTo(26, 2);
  });

  it('leaves the tax code empty for a rate without one (0 %), never the standard rate', () => {
    const r = rivileRecords(exportDoc({ fields: { document_id: 'PP-4', issue_date: '2025-03-04', supplier_name: 'UAB Knygos', supplier_code: '302222223', amount_total: '50.00', amount_tax: '0.00' } }));
    expect(r.i06.I07).toEqual([expect.objectContaining({ I07_KODAS: 'RC-P0', I07_SUMA: '50.00', I07_PVM: '0.00', I07_PVM_PROC: '0', I07_MOKESTIS: '' })]);
    expect(r.n17).toEqual([expect.objectContaining({ N17_KODAS_PS: 'RC-P0', N17_PAV: 'Services 0% VAT' })]);
  });

  it('writes API dates as YYYY-MM-DD (the API guide\'s own request example), EIP dates as YYYY.MM.DD', () => {
    expect(eipDate('2025-12-31')).toBe('2025.12.31');
    const r = rivileRecords(exportDoc({ fields: { issue_date: '2025-12-31', due_date: '2026-01-30', amount_total: '10.00' } }));
    expect(r.i06).toMatchObject({ I06_OP_DATA: '2025-12-31', I06_DOK_DATA: '2025-12-31', I06_MOK_DATA: '2026-01-30' });
  });

  it('sends one record per call in order and treats "already exists" as success; other errors stop it', async () => {
    const calls: { method: string; data: unknown }[] = [];
    const api: RivileApi = {
      async call(_key, method, _params, data) {
        calls.push({ method, data });
        if (method === 'EDIT_N08') throw new TargetError('Record 302222222 already exists', false);
        return {};
      },
    };
    const doc = exportDoc({ fields: { document_id: 'PP-1', issue_date: '2025-03-04', supplier_name: 'UAB Popierius', supplier_code: '302222222', amount_total: '121.00', amount_tax: '21.00' } });
    await expect(exportToRivile(api, 'KEY0001xyz', doc)).resolves.toMatch(/^I06 1\/302222222\/PP-1/);
    expect(calls.map((c) => c.method)).toEqual(['EDIT_N08', 'EDIT_N17', 'EDIT_I06']);
    for (const c of calls) expect(Array.isArray(Object.values(c.data as object)[0])).toBe(false);
    const failing: RivileApi = { call: async () => Promise.reject(new TargetError('Invalid API key', false)) };
    await expect(exportToRivile(failing, 'bad', doc)).rejects.toThrow('Invalid API key');
  });

  it('updates a document Rivile already has from this document with the values as they are now', async () => {
    const calls: { method: string; oper: unknown; data: unknown }[] = [];
    const doc = exportDoc({ fields: { document_id: 'PP-1', issue_date: '2025-03-04', due_date: '2025-04-30', supplier_name: 'UAB Popierius', supplier_code: '302222222', amount_total: '121.00', amount_tax: '21.00' } });
    const api: RivileApi = {
      async call(_key, method, params, data) {
        calls.push({ method, oper: (params as { oper?: unknown }).oper, data });
        if (method === 'EDIT_I06' && (params as { oper?: unknown }).oper === 'I') throw new TargetError('Record 1|302222222|PP-1 already exists', false);
        if (method === 'GET_I06_LIST') return { I06: [{ I06_DOK_NR: 'PP-1', I06_APRASYMAS: `Receipts ${doc.receipt_id}` }] };
        return {};
      },
    };
    await expect(exportToRivile(api, 'KEY0001xyz', doc)).resolves.toBe('I06 1/302222222/PP-1 (updated)');
    expect(calls.map((c) => `${c.method} ${String(c.oper)}`)).toEqual(['EDIT_N08 I', 'EDIT_N17 I', 'EDIT_I06 I', 'GET_I06_LIST undefined', 'EDIT_I06 U']);
    expect(calls[4]!.data).toMatchObject({ I06: { I06_DOK_NR: 'PP-1', I06_MOK_DATA: '2025-04-30' } });
  });

  it('does not overwrite the I06 of another document of the same supplier and number in the Rivile stand-in: that send fails for good', async () => {
    const rivile = await startRivileServer({ keys: ['RIVUSR1-key'] });
    try {
      const api = rivileClient(() => rivile.url);
      const fields = { document_id: 'INV-2024-0042', issue_date: '2024-03-15', supplier_name: 'UAB Testas', supplier_code: '304444444', amount_total: '260.25', amount_tax: '41.45' };
      const first = { ...exportDoc({ fields }), receipt_id: 'FIRSTDOC000000000000000001' };
      const second = { ...exportDoc({ fields: { ...fields, amount_total: '121.00', amount_tax: '21.00' } }), receipt_id: 'SECONDDOC00000000000000002' };
      await expect(exportToRivile(api, 'RIVUSR1-key', first)).resolves.toBe('I06 1/304444444/INV-2024-0042 (created)');

      const refused = exportToRivile(api, 'RIVUSR1-key', second);
      await expect(refused).rejects.toBeInstanceOf(TargetError);
      await expect(refused).rejects.toMatchObject({ transient: false, message: rivileTakenMessage('INV-2024-0042', '304444444') });
      expect(rivile.tables.I06).toHaveLength(1);
      expect(rivile.tables.I06[0]).toMatchObject({ I06_APRASYMAS: `Receipts ${first.receipt_id}`, I07: [expect.objectContaining({ I07_PVM: '41.45' })] });

      // The first document corrected and sent again updates its own record.
      const corrected = { ...exportDoc({ fields: { ...fields, due_date: '2024-04-30' } }), receipt_id: first.receipt_id };
      await expect(exportToRivile(api, 'RIVUSR1-key', corrected)).resolves.toBe('I06 1/304444444/INV-2024-0042 (updated)');
      expect(rivile.tables.I06).toHaveLength(1);
      expect(rivile.tables.I06[0]).toMatchObject({ I06_APRASYMAS: `Receipts ${first.receipt_id}`, I06_MOK_DATA: '2024-04-30' });
    } finally {
      await rivile.close();
    }
  });

  // gidas.rivile.lt/internetiniai_moduliai/api_rest/*: "Accept: Neprivalomas. Gražinamo rezultato (response) formatas
  // application/xml(default), application/json"; "Grąžinama informacija XML formate tarp tag'ų <RET_DOK>..</RET_DOK>";
  // "Jeigu įrašų nerasta pagal užduotas sąlygas, tuomet gražinama status=200 bei tuščias tag'as".
  it('the stand-in answers XML between <RET_DOK> tags unless the call asks for JSON (Accept: application/json), as GAMA does', async () => {
    const rivile = await startRivileServer({ keys: ['RIVUSR1-key'] });
    try {
      const call = (body: unknown, accept?: string) =>
        fetch(rivile.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ApiKey: 'RIVUSR1-key', ...(accept ? { accept } : {}) },
          body: JSON.stringify(body),
        });
      const created = await call({ method: 'EDIT_N08', params: { oper: 'I' }, data: { N08: { N08_KODAS_KS: '302222222', N08_PAV: 'A & B <C>' } } });
      expect(created.status).toBe(200);
      expect(created.headers.get('content-type')).toMatch(/^application\/xml/);
      const xml = await created.text();
      expect(xml.startsWith("<?xml version='1.0' encoding='UTF-8' ?>")).toBe(true);
      expect(xml).toContain('<RET_DOK><N08><N08_KODAS_KS>302222222</N08_KODAS_KS><N08_PAV>A &amp; B &lt;C&gt;</N08_PAV></N08></RET_DOK>');

      const none = await call({ method: 'GET_N08_LIST', params: { fil: "N08_KODAS_KS='none'" } });
      expect(none.status).toBe(200);
      expect(await none.text()).toContain('<RET_DOK></RET_DOK>');

      const json = await call({ method: 'GET_N08_LIST', params: { fil: "N08_KODAS_KS='302222222'" } }, 'application/json');
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await json.json()).toEqual({ N08: [{ N08_KODAS_KS: '302222222', N08_PAV: 'A & B <C>' }] });
    } finally {
      await rivile.close();
    }
  });

  it('sends credit notes (document category KS, or a negative total) as a purchase return (2) or a sales credit note (52), amounts as on the document', () => {
    const purchaseReturn = exportDoc({ fields: { document_id: 'KS-2', issue_date: '2025-10-20', document_category: 'KS', supplier_name: 'UAB Tiekėjas', supplier_code: '302222222', amount_total: '-121.00', amount_tax: '-21.00', amount_total_base: '-100.00' } });
    const r = rivileRecords(purchaseReturn);
    expect(r.i06.I06_OP_TIP).toBe('2');
    expect(r.i06.I07).toEqual([expect.objectContaining({ I07_SUMA: '-100.00', I07_PVM: '-21.00', I07_MOKESTIS: 'PVM1' })]);
    const salesCredit = exportDoc({ type: 'invoice', fields: { document_id: 'KS-1', issue_date: '2025-10-20', customer_name: 'Pirkėjas UAB', amount_total: '-265.34', amount_tax: '-46.05', amount_total_base: '-219.29' } });
    expect(rivileRecords(salesCredit).i06.I06_OP_TIP).toBe('52');
    // KS with the amounts typed without a sign is a credit note too; an ordinary invoice stays 1 or 51.
    const typedPositive = exportDoc({ type: 'invoice', fields: { document_id: 'KS-3', issue_date: '2025-10-20', document_category: 'KS', customer_name: 'Pirkėjas UAB', amount_total: '121.00', amount_tax: '21.00' } });
    expect(rivileRecords(typedPositive).i06.I06_OP_TIP).toBe('52');
    const invoice = exportDoc({ type: 'invoice', fields: { document_id: 'SF-3', issue_date: '2025-10-20', document_category: 'SF', customer_name: 'Pirkėjas UAB', amount_total: '121.00', amount_tax: '21.00' } });
    expect(rivileRecords(invoice).i06.I06_OP_TIP).toBe('51');
    expect(buildRivileEip([purchaseReturn])).toContain('<I06_OP_TIP>2</I06_OP_TIP>');
  });

  it("lists a client once with what its documents give, the newest document's value first, whatever the order", () => {
    const withVat = exportDoc({ fields: { document_id: 'SF-1', issue_date: '2025-03-01', supplier_name: 'UAB Popierius', supplier_code: 'P1', supplier_vat_id: 'LT100000000001', supplier_city: 'Kaunas', amount_total: '121.00', amount_tax: '21.00' } });
    const withoutVat = exportDoc({ fields: { document_id: 'KS-3', issue_date: '2025-03-05', supplier_name: 'UAB Popierius', supplier_code: 'P1', supplier_city: 'Vilnius', amount_total: '-12.10', amount_tax: '-2.10' } });
    for (const order of [[withVat, withoutVat], [withoutVat, withVat]]) {
      const xml = buildRivileEip(order);
      expect(xml.match(/<N08>/g)).toHaveLength(1);
      // the later document leaves the VAT code out: the earlier one's stays; both give a city: the later one's
      expect(xml).toContain('<N08_PVM_KODAS>LT100000000001</N08_PVM_KODAS>');
      expect(xml).toContain('<N08_MIESTAS>Vilnius</N08_MIESTAS>');
    }
    expect(buildRivileEip([withVat, withoutVat]).split('<I06>')[0]).toBe(buildRivileEip([withoutVat, withVat]).split('<I06>')[0]);
  });

  it('builds the EIP file: root-less fragments with dates YYYY.MM.DD', () => {
    const doc = exportDoc({ fields: { document_id: 'PP-1', issue_date: '2025-03-04', supplier_name: 'A & B', supplier_code: '1', amount_total: '121.00', amount_tax: '21.00' } });
    const xml = buildRivileEip([doc, doc]);
    expect(xml.startsWith('<N08>')).toBe(true);
    expect(xml.match(/<N08>/g)).toHaveLength(1);
    expect(xml.match(/<I06>/g)).toHaveLength(2);
    expect(xml).toContain('<I06_OP_DATA>2025.03.04</I06_OP_DATA>');
    expect(xml).toContain('A &amp; B');
    expect(xml).not.toContain('<?xml');
  });

  it('refuses the EIP file (422) naming the documents without an issue date, or without any supplier or customer, instead of a nameless client K0', () => {
    const booked = exportDoc({ fields: { document_id: 'PP-1', issue_date: '2025-03-04', supplier_name: 'A & B', amount_total: '10.00' } });
    const noCustomer = { ...exportDoc({ type: 'invoice', fields: { document_id: 'S-1', issue_date: '2025-03-05', amount_total: '10.00' } }), receipt_id: 'R2', original_file_name: 'sale.pdf' };
    const undated = { ...exportDoc({ fields: { document_id: 'PP-2', supplier_name: 'A & B', amount_total: '10.00' } }), receipt_id: 'R3', original_file_name: 'undated.pdf' };
    const refusal = (docs: Parameters<typeof buildRivileEip>[0]) => {
      try {
        buildRivileEip(docs);
      } catch (e) {
        return e as AppError;
      }
      throw new Error('the file was built');
    };
    const party = refusal([booked, noCustomer]);
    expect(party).toBeInstanceOf(AppError);
    expect(party.kind).toBe('ValidationFailed');
    expect(party.message).toBe('Rivile EIP needs a supplier or customer: sale.pdf has none');
    expect(party.details).toEqual([{ path: ['R2', 'customer_name'], message: 'The document has no customer' }]);
    expect(refusal([undated, booked, noCustomer]).message).toBe('Rivile EIP needs an issue date: undated.pdf has no issue date');
    // a code or VAT ID alone names the client
    const codeOnly = exportDoc({ type: 'invoice', fields: { document_id: 'S-2', issue_date: '2025-03-05', customer_code: '304567891' } });
    expect(buildRivileEip([codeOnly])).toContain('<N08_KODAS_KS>304567891</N08_KODAS_KS>');
  });
});
