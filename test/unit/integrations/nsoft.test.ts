import { describe, expect, it } from 'vitest';
import { buildNsoftCsv, NSOFT_COLUMNS } from '../../../lambdas/core/integrations/nsoft';
import { exportDoc } from './fixtures';

const parse = (csv: string) => csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n').map((l) => l.split(';'));

describe('NSOFT CSV import profile v1', () => {
  it('has a BOM, the documented header and one row per line item with net, VAT and gross', () => {
    const csv = buildNsoftCsv(
      exportDoc({
        fields: { document_id: 'PP-1', issue_date: '2025-03-04', supplier_name: 'UAB Popierius', supplier_code: '302222222', amount_total_base: '100.00', amount_tax: '21.00', amount_total: '121.00' },
        lineItems: [
          { description: 'Paper', quantity: '2', total_price: '10.00', vat_rate: '21' },
          { description: 'Desk', quantity: '1', total_price: '90.00', vat_rate: '21' },
        ],
      }),
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parse(csv);
    expect(header).toEqual([...NSOFT_COLUMNS]);
    expect(rows).toHaveLength(2);
    const row = Object.fromEntries(header!.map((h, i) => [h, rows[0]![i]]));
    expect(row).toMatchObject({ DOC_KIND: 'PIRK', DOC_NO: 'PP-1', DOC_DATE: '2025-03-04', PARTNER_CODE: '302222222', LINE_NO: '1', QUANTITY: '2', NET_AMOUNT: '10.00', VAT_RATE: '21', VAT_CODE: 'PVM1', VAT_AMOUNT: '2.10', GROSS_AMOUNT: '12.10', DOC_TOTAL: '121.00', EXTERNAL_ID: '01JRECEIPT0000000000000001' });
  });

  it("gives the partner's country from the Country field, else the VAT ID's prefix, else the post code of an address read as one line", () => {
    const country = (fields: Record<string, string>) => {
      const [header, row] = parse(buildNsoftCsv(exportDoc({ fields: { document_id: 'C-1', issue_date: '2025-03-04', supplier_name: 'UAB Popierius', amount_total: '12.10', ...fields } })));
      return row![header!.indexOf('PARTNER_COUNTRY')];
    };
    expect(country({ supplier_country: 'lv', supplier_vat_id: 'LT100002222222' })).toBe('LV');
    expect(country({ supplier_vat_id: 'EL094014201' })).toBe('GR');
    expect(country({ supplier_street: 'Savanorių pr. 178, LT-03154 Vilnius' })).toBe('LT');
    expect(country({ supplier_street: 'Gedimino pr. 1, Vilnius' })).toBe('');
  });

  it('makes one row per VAT rate without line items, quotes separators and defuses formulas', () => {
    const csv = buildNsoftCsv(exportDoc({ type: 'invoice', fields: { document_id: 'S;1', issue_date: '2025-05-01', customer_name: '=HYPERLINK("x")', amount_total: '109.00', amount_tax: '9.00', amount_total_base: '100.00' } }));
    const lines = csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('PARD;"S;1";2025-05-01');
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[1]).toContain(';100.00;9;PVM2;9.00;109.00;');
  });

  it('prefixes a cell starting with minus that is not a plain number, and leaves negative amounts as they are', () => {
    const attack = "-2+3+cmd|' /C calc'!A0";
    const csv = buildNsoftCsv(exportDoc({ fields: { document_id: 'KS-9', issue_date: '2025-05-01', supplier_name: attack, amount_total: '-12.10', amount_tax: '-2.10', amount_total_base: '-10.00' } }));
    const [header, row] = parse(csv);
    const cells = Object.fromEntries(header!.map((h, i) => [h, row![i]]));
    expect(cells).toMatchObject({ PARTNER_NAME: `'${attack}`, NET_AMOUNT: '-10.00', VAT_AMOUNT: '-2.10', GROSS_AMOUNT: '-12.10', DOC_TOTAL: '-12.10' });
    for (const name of ['-1-1', '+1', '@SUM(A1)', '-1.5.5']) {
      const out = parse(buildNsoftCsv(exportDoc({ fields: { document_id: 'X', issue_date: '2025-05-01', supplier_name: name, amount_total: '1.00', amount_tax: '0.00' } })))[1]!;
      expect(out[header!.indexOf('PARTNER_NAME')]).toBe(`'${name}`);
    }
  });
});
