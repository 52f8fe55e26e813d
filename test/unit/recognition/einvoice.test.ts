import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { eInvoiceSyntax, parseEInvoice } from '../../../lambdas/core/recognition/einvoice';
import { UNSUPPORTED_MESSAGE } from '../../../lambdas/core/recognition/file-type';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import type { ExtractedFields } from '../../../lambdas/core/recognition/types';
import { expectedHeader, FACTURX, lineNet, totals, UBL, vatBreakdown, type InvoiceData } from '../../fixtures/recognition/data';

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

describe('Cross Industry Invoice XML', () => {
  const facturx = () => readFileSync(join(dir, 'facturx.xml'), 'utf8');

  it('reads a credit note (type code 381) with negative amounts', () => {
    const inv = parseEInvoice(facturx().replace('<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>381</ram:TypeCode>'));
    const t = totals(FACTURX);
    expect([inv.total, inv.base, inv.tax]).toEqual([-t.total, -t.base, -t.tax]);
    expect(inv.lines.map((l) => [l.quantity, l.unitPriceNet, l.totalPrice])).toEqual(FACTURX.lines.map((l) => [-l.quantity, l.unitPrice, -lineNet(l)]));
  });

  it('reads a document-level allowance as a line with a negative amount', () => {
    const allowance = `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>15.00</ram:ActualAmount><ram:Reason>Discount</ram:Reason><ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>21</ram:RateApplicablePercent></ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>`;
    const inv = parseEInvoice(facturx().replace('<ram:SpecifiedTradeSettlementHeaderMonetarySummation>', allowance));
    expect(inv.lines.slice(FACTURX.lines.length)).toEqual([{ description: 'Discount', totalPrice: -15, vatRate: 21, vat: -3.15 }]);
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
    // A credit note's amounts are stored negative; the line's sign on its quantity and amount, not its unit price.
    expect(inv).toMatchObject({ syntax: 'UBL', documentId: 'CN-9', issueDate: '2024-02-01', total: -12.1, base: -10, tax: -2.1, supplier: { name: 'Seller UAB' } });
    expect(inv.lines).toEqual([{ itemNumber: '1', description: 'Returned item', quantity: -1, unit: 'unit', unitPriceNet: 10, totalPrice: -10 }]);
  });

  it('reads an Invoice of credit note type 381 with negative amounts', () => {
    const xml = readFileSync(join(dir, UBL.file), 'utf8').replace('<cbc:InvoiceTypeCode>380<', '<cbc:InvoiceTypeCode>381<');
    const inv = parseEInvoice(xml);
    const t = totals(UBL);
    expect([inv.total, inv.base, inv.tax]).toEqual([-t.total, -t.base, -t.tax]);
    expect(inv.vatLines.map((l) => [l.net, l.vat])).toEqual(vatBreakdown(UBL).map((b) => [-b.net, -b.vat]));
    expect(inv.lines.map((l) => l.totalPrice)).toEqual(UBL.lines.map((l) => -lineNet(l)));
  });

  it('reads document-level allowances and charges as lines that make the lines add up to the amount without VAT', () => {
    const xml = readFileSync(join(dir, UBL.file), 'utf8').replace(
      '<cac:TaxTotal>',
      `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">50.00</cbc:Amount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:AllowanceCharge>
  <cac:AllowanceCharge><cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:AllowanceChargeReason>Freight</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">20.00</cbc:Amount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:AllowanceCharge>
  <cac:TaxTotal>`,
    );
    const inv = parseEInvoice(xml);
    expect(inv.lines.slice(UBL.lines.length)).toEqual([
      { description: 'Discount', totalPrice: -50, vatRate: 21, vat: -10.5 },
      { description: 'Freight', totalPrice: 20, vatRate: 21, vat: 4.2 },
    ]);
    expect(inv.lines.reduce((s, l) => s + l.totalPrice!, 0)).toBeCloseTo(totals(UBL).base - 30, 2);
  });

  it('tells e-invoice XML from other XML', async () => {
    expect(eInvoiceSyntax(readFileSync(join(dir, UBL.file), 'utf8'))).toBe('UBL');
    expect(eInvoiceSyntax(readFileSync(join(dir, 'facturx.xml'), 'utf8'))).toBe('CII');
    expect(eInvoiceSyntax('<?xml version="1.0"?><note><to>Tove</to></note>')).toBeUndefined();
    await expect(recogniser.analyzeExpense({ bytes: new TextEncoder().encode('<?xml version="1.0"?><note/>'), mime: 'application/xml' })).rejects.toThrow(UNSUPPORTED_MESSAGE);
  });
});
