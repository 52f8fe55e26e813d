import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { eInvoiceSyntax, parseEInvoice } from '../../../lambdas/core/recognition/einvoice';
import { UNSUPPORTED_MESSAGE } from '../../../lambdas/core/recognition/file-type';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import type { ExtractedFields } from '../../../lambdas/core/recognition/types';
import { expectedHeader, FACTURX, lineNet, UBL, vatBreakdown, type InvoiceData } from '../../fixtures/recognition/data';

const dir = join(import.meta.dirname, '../../fixtures/recognition');
const recogniser = new LocalRecogniser();
afterAll(() => recogniser.close());

function header(fields: ExtractedFields): Record<string, string | undefined> {
  const keys = ['supplier_name', 'supplier_code', 'supplier_vat_id', 'supplier_address', 'customer_name', 'customer_code', 'customer_vat_id', 'document_id', 'issue_date', 'due_date', 'currency', 'amount_total', 'amount_total_base', 'amount_tax', 'iban', 'bic_swift'] as const;
  return Object.fromEntries(keys.map((k) => [k, fields[k]?.value]));
}


function lines(fields: ExtractedFields) {
  return fields.line_items.map((l) => [l.item_number?.value, l.product_code?.value, l.description?.value, l.quantity?.value, l.unit_price_without_vat?.value, l.vat_rate?.value, l.total_price?.value]);
}
function expectedLines(inv: InvoiceData) {
  return inv.lines.map((l) => [l.no, l.code, l.description, String(l.quantity), l.unitPrice.toFixed(2), String(l.vatRate), lineNet(l).toFixed(2)]);
}

describe('Factur-X / ZUGFeRD PDF', { timeout: 60_000 }, () => {
  it('reads the embedded XML exactly: header, VAT lines and line items', async () => {
    const bytes = readFileSync(join(dir, FACTURX.file));
    const fields = mapExpenseToFields(await recogniser.analyzeExpense({ bytes, mime: 'application/pdf' }));
    expect(header(fields)).toEqual(expectedHeader(FACTURX));
    expect(fields.vat_lines.map((l) => [l.vat_rate?.value, l.amount_net?.value, l.amount_vat?.value, l.amount_gross?.value])).toEqual(
      vatBreakdown(FACTURX).map((b) => [String(b.rate), b.net.toFixed(2), b.vat.toFixed(2), b.gross.toFixed(2)]),
    );
    expect(lines(fields)).toEqual(expectedLines(FACTURX));
    expect(fields.line_items[1]!.unit_of_measurement?.value).toBe('h');
  });

  it('places the XML values on the visible page where they are printed', async () => {
    const bytes = readFileSync(join(dir, FACTURX.file));
    const fields = mapExpenseToFields(await recogniser.analyzeExpense({ bytes, mime: 'application/pdf' }));
    expect(fields.document_id!.box.width).toBeGreaterThan(0);
    expect(fields.amount_total!.box.width).toBeGreaterThan(0);
    expect(fields.amount_total!.box.top).toBeGreaterThan(fields.document_id!.box.top);
    expect(fields.amount_total!.confidence).toBe(100);
  });
});

describe('UBL / Peppol BIS invoice', { timeout: 60_000 }, () => {
  it('reads an uploaded UBL XML exactly', async () => {
    const bytes = readFileSync(join(dir, UBL.file));
    const fields = mapExpenseToFields(await recogniser.analyzeExpense({ bytes, mime: 'application/xml', fileName: UBL.file }));
    expect(header(fields)).toEqual(expectedHeader(UBL));
    expect(lines(fields)).toEqual(expectedLines(UBL));
    expect(fields.vat_lines).toHaveLength(1);
    expect(fields.line_items[0]!.unit_of_measurement?.value).toBe('month');
  });

  it('reads a credit note and the tax total in the document currency', () => {
    const xml = `<?xml version="1.0"?>
<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>CN-9</cbc:ID><cbc:IssueDate>2024-02-01</cbc:IssueDate><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Seller UAB</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="SEK">25.00</cbc:TaxAmount></cac:TaxTotal>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">2.10</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal><cbc:TaxExclusiveAmount currencyID="EUR">10.00</cbc:TaxExclusiveAmount><cbc:PayableAmount currencyID="EUR">12.10</cbc:PayableAmount></cac:LegalMonetaryTotal>
  <cac:CreditNoteLine><cbc:ID>1</cbc:ID><cbc:CreditedQuantity unitCode="C62">1</cbc:CreditedQuantity><cbc:LineExtensionAmount currencyID="EUR">10.00</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>Returned item</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">10.00</cbc:PriceAmount></cac:Price></cac:CreditNoteLine>
</CreditNote>`;
    const inv = parseEInvoice(xml);
    expect(inv).toMatchObject({ syntax: 'UBL', documentId: 'CN-9', issueDate: '2024-02-01', total: 12.1, base: 10, tax: 2.1, supplier: { name: 'Seller UAB' } });
    expect(inv.lines).toEqual([{ itemNumber: '1', description: 'Returned item', quantity: 1, unit: 'unit', unitPriceNet: 10, totalPrice: 10 }]);
  });

  it('tells e-invoice XML from other XML', async () => {
    expect(eInvoiceSyntax(readFileSync(join(dir, UBL.file), 'utf8'))).toBe('UBL');
    expect(eInvoiceSyntax(readFileSync(join(dir, 'facturx.xml'), 'utf8'))).toBe('CII');
    expect(eInvoiceSyntax('<?xml version="1.0"?><note><to>Tove</to></note>')).toBeUndefined();
    await expect(recogniser.analyzeExpense({ bytes: new TextEncoder().encode('<?xml version="1.0"?><note/>'), mime: 'application/xml' })).rejects.toThrow(UNSUPPORTED_MESSAGE);
  });
});
