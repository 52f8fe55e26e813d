import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { buildIsaf, documentTotals, ratesOn } from '../../../lambdas/core/export/isaf';
import { accountingLines } from '../../../lambdas/core/integrations/lines';
import { nsoftRows } from '../../../lambdas/core/integrations/nsoft';
import { rivileRecords } from '../../../lambdas/core/integrations/rivile';
import { AppError } from '../../../shared/errors';
import { exportDoc } from '../integrations/fixtures';

const options = { registrationNumber: '304999999', createdAt: new Date('2026-03-01T08:00:00Z'), software: { company: 'Receipts Capture', name: 'Receipts Capture', version: '0.1.0' } };

/** [TaxableValue, TaxCode, TaxPercentage, Amount] of each DocumentTotal of each invoice in the file. */
function totalsInFile(xml: string): unknown[][][] {
  const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ['Invoice', 'DocumentTotal'].includes(name) }).parse(xml);
  const invoices: { DocumentTotals: { DocumentTotal: Record<string, unknown>[] } }[] = parsed.iSAFFile.SourceDocuments.PurchaseInvoices.Invoice;
  return invoices.map((inv) => inv.DocumentTotals.DocumentTotal.map((t) => [t.TaxableValue, t.TaxCode, t.TaxPercentage, t.Amount]));
}

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the export to be refused');
}

// A credit note correcting a 21 % invoice of 121.00: every amount negative, no VAT lines.
const creditNote = exportDoc({ fields: { document_id: 'KS-1', issue_date: '2025-06-10', supplier_name: 'UAB Tiekėjas', amount_total: '-121.00', amount_tax: '-21.00', amount_total_base: '-100.00' } });

describe('i.SAF and accounting lines: credit notes', () => {
  it('gives a credit note without VAT lines the rate and code of the invoice it corrects, amounts kept negative', () => {
    expect(documentTotals(creditNote, '2025-06-10')).toEqual([{ taxableValue: '-100.00', taxCode: 'PVM1', taxPercentage: '21', amount: '-21.00' }]);
    // Without a net amount it is read from the total and the tax.
    const noBase = exportDoc({ fields: { issue_date: '2026-02-01', amount_total: '-112.00', amount_tax: '-12.00' } });
    expect(documentTotals(noBase, '2026-02-01')).toEqual([{ taxableValue: '-100.00', taxCode: 'PVM58', taxPercentage: '12', amount: '-12.00' }]);
    expect(totalsInFile(buildIsaf([creditNote], options))).toEqual([[['-100.00', 'PVM1', '21', '-21.00']]]);
  });

  it('books a credit note in Rivile and NSOFT with its VAT rate and code', () => {
    expect(accountingLines(creditNote, '2025-06-10')).toEqual([expect.objectContaining({ net: -100, rate: 21, tax: -21, taxCode: 'PVM1', fromTotals: true })]);
    expect(rivileRecords(creditNote).i06.I07).toEqual([expect.objectContaining({ I07_KODAS: 'RC-PVM1', I07_SUMA: '-100.00', I07_PVM: '-21.00', I07_PVM_PROC: '21', I07_MOKESTIS: 'PVM1' })]);
    expect(nsoftRows(creditNote)).toEqual([expect.objectContaining({ NET_AMOUNT: '-100.00', VAT_RATE: '21', VAT_CODE: 'PVM1', VAT_AMOUNT: '-21.00', GROSS_AMOUNT: '-121.00' })]);
  });
});

describe('i.SAF: the master files', () => {
  it("lists a supplier once with what its documents give, the newest document's value first, whatever the order", () => {
    const withVat = exportDoc({ fields: { document_id: 'SF-1', issue_date: '2025-06-01', supplier_name: 'UAB Tiekėjas', supplier_code: 'T1', supplier_vat_id: 'LT100000000001', amount_total: '121.00', amount_tax: '21.00', amount_total_base: '100.00' } });
    const withoutVat = exportDoc({ fields: { document_id: 'SF-2', issue_date: '2025-06-09', supplier_name: 'Tiekėjas, UAB', supplier_code: 'T1', amount_total: '12.10', amount_tax: '2.10', amount_total_base: '10.00' } });
    const supplierIn = (xml: string) => new XMLParser({ parseTagValue: false, ignoreAttributes: false }).parse(xml).iSAFFile.MasterFiles.Suppliers.Supplier;
    for (const order of [[withVat, withoutVat], [withoutVat, withVat]]) {
      // one supplier: the VAT number and its country from the document that gives them, the name from the newer one
      expect(supplierIn(buildIsaf(order, options))).toEqual({ SupplierID: 'T1', VATRegistrationNumber: 'LT100000000001', RegistrationNumber: 'T1', Country: 'LT', Name: 'Tiekėjas, UAB' });
    }
  });
});

describe('i.SAF: 9 % on 2026 documents', () => {
  it('keeps PVM2 for a 2026 document without VAT lines that shows 9 % (e.g. an advance paid in 2025)', () => {
    expect(ratesOn('2026-01-15')).toEqual(expect.arrayContaining([21, 12, 9, 5, 0]));
    const advance = exportDoc({ fields: { document_id: 'A-1', issue_date: '2026-01-15', supplier_name: 'UAB Šiluma', amount_total: '109.00', amount_tax: '9.00', amount_total_base: '100.00' } });
    expect(documentTotals(advance, '2026-01-15')).toEqual([{ taxableValue: '100.00', taxCode: 'PVM2', taxPercentage: '9', amount: '9.00' }]);
    expect(totalsInFile(buildIsaf([advance], options))).toEqual([[['100.00', 'PVM2', '9', '9.00']]]);
    // 12 % still reads as 12 % in 2026, and 9 % before 2026 as before.
    const twelve = exportDoc({ fields: { issue_date: '2026-01-15', amount_total: '112.00', amount_tax: '12.00', amount_total_base: '100.00' } });
    expect(documentTotals(twelve, '2026-01-15')[0]).toMatchObject({ taxCode: 'PVM58', taxPercentage: '12' });
    const nine2025 = exportDoc({ fields: { issue_date: '2025-12-31', amount_total: '109.00', amount_tax: '9.00', amount_total_base: '100.00' } });
    expect(documentTotals(nine2025, '2025-12-31')[0]).toMatchObject({ taxCode: 'PVM2', taxPercentage: '9' });
  });
});

describe('i.SAF: amounts in EUR only', () => {
  const inCurrency = (currency: string, fileName: string, number = '') => ({
    ...exportDoc({ fields: { document_id: number, issue_date: '2025-06-10', supplier_name: 'Seller Ltd', amount_total: '121.00', amount_tax: '21.00', currency } }),
    original_file_name: fileName,
  });

  it('refuses documents in another currency with a 422 naming them', () => {
    const usd = inCurrency('USD', 'usd-invoice.pdf');
    const error = refusal(() => buildIsaf([inCurrency('EUR', 'eur.pdf'), usd], options));
    expect(error.toBody()).toEqual({
      statusCode: 422,
      error: 'ValidationFailed',
      message: 'i.SAF amounts are in EUR: usd-invoice.pdf is in another currency',
      details: [{ path: [usd.receipt_id, 'currency'], message: 'The currency is USD' }],
    });
    // Several: all named; a document without a file name by its number.
    const several = refusal(() => buildIsaf([inCurrency('GBP', 'london.pdf'), inCurrency('PLN', '', 'FV/7')], options));
    expect(several.message).toBe('i.SAF amounts are in EUR: london.pdf, FV/7 are in another currency');
  });

  it('exports documents in EUR, in eur or € as typed, and without a currency (taken as EUR)', () => {
    const docs = [inCurrency('EUR', 'a.pdf'), inCurrency('eur', 'b.pdf'), inCurrency('€', 'c.pdf'), inCurrency('', 'd.pdf')];
    expect(totalsInFile(buildIsaf(docs, options))).toHaveLength(4);
  });
});

describe('i.SAF: the issue date', () => {
  const dated = (issueDate: string, fileName: string, number = '') => ({
    ...exportDoc({ fields: { document_id: number, issue_date: issueDate, supplier_name: 'Seller Ltd', amount_total: '121.00', amount_tax: '21.00' } }),
    original_file_name: fileName,
    created_at: '2025-11-03T08:00:00.000Z',
  });

  it('refuses documents without an issue date with a 422 naming them, never reporting the upload date', () => {
    const undated = dated('', 'nd-1.pdf');
    const error = refusal(() => buildIsaf([dated('2025-10-05', 'a.pdf'), undated], options));
    expect(error.toBody()).toEqual({
      statusCode: 422,
      error: 'ValidationFailed',
      message: 'i.SAF needs an issue date: nd-1.pdf has no issue date',
      details: [{ path: [undated.receipt_id, 'issue_date'], message: 'The document has no issue date' }],
    });
    const several = refusal(() => buildIsaf([dated('', 'a.pdf'), dated('', '', 'FV/7'), ...['c', 'd', 'e', 'f', 'g'].map((n) => dated('', `${n}.pdf`))], options));
    expect(several.message).toBe('i.SAF needs an issue date: a.pdf, FV/7, c.pdf, d.pdf, e.pdf and 2 more have no issue date');
    expect(several.details).toHaveLength(7);
  });

  it('takes the period from the issue dates', () => {
    const xml = buildIsaf([dated('2025-10-05', 'a.pdf'), dated('2025-10-29', 'b.pdf')], options);
    expect(xml).toContain('<SelectionStartDate>2025-10-05</SelectionStartDate>');
    expect(xml).toContain('<SelectionEndDate>2025-10-29</SelectionEndDate>');
    expect(xml).not.toContain('2025-11-03');
  });
});

describe('i.SAF: field lengths of the XSD', () => {
  it('clips Name to 256, VATRegistrationNumber and RegistrationNumber to 35, SupplierID and CustomerID to 70, InvoiceNo to 70', () => {
    const long = (n: number, c = 'A') => c.repeat(n);
    const purchase = exportDoc({ fields: { document_id: long(90, 'N'), issue_date: '2025-10-05', supplier_name: `UAB ${long(355, 'ž')}`, supplier_code: long(80, '1'), supplier_vat_id: `LT${long(40, '2')}`, amount_total: '121.00', amount_tax: '21.00' } });
    const sale = { ...exportDoc({ type: 'invoice', fields: { document_id: 'S-1', issue_date: '2025-10-06', customer_name: long(300, 'B'), customer_code: long(75, '3'), customer_vat_id: long(36, '4'), amount_total: '121.00', amount_tax: '21.00' } }), receipt_id: '01JRECEIPT0000000000000002' };
    const xml = buildIsaf([purchase, sale], options);
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => ['Invoice', 'Supplier', 'Customer'].includes(name) }).parse(xml).iSAFFile;
    const supplierInfo = parsed.SourceDocuments.PurchaseInvoices.Invoice[0].SupplierInfo;
    const customerInfo = parsed.SourceDocuments.SalesInvoices.Invoice[0].CustomerInfo;
    for (const entry of [supplierInfo, parsed.MasterFiles.Suppliers.Supplier[0]]) {
      expect(entry.SupplierID).toBe(long(70, '1'));
      expect(entry.VATRegistrationNumber).toBe(`LT${long(33, '2')}`);
      expect(entry.RegistrationNumber).toBe(long(35, '1'));
      expect([...entry.Name]).toHaveLength(256);
    }
    for (const entry of [customerInfo, parsed.MasterFiles.Customers.Customer[0]]) {
      expect(entry.CustomerID).toBe(long(70, '3'));
      expect(entry.VATRegistrationNumber).toBe(long(35, '4'));
      expect(entry.RegistrationNumber).toBe(long(35, '3'));
      expect(entry.Name).toBe(long(256, 'B'));
    }
    expect(parsed.SourceDocuments.PurchaseInvoices.Invoice[0].InvoiceNo).toBe(long(70, 'N'));
  });
});

describe('i.SAF, Rivile EIP and the accounting systems: VAT lines that do not add up', () => {
  // The header corrected to 300.00 + 63.00 = 363.00, the VAT lines left as read (348.60 + 73.21)
  const corrected = {
    ...exportDoc({
      fields: { document_id: 'SF-9', issue_date: '2026-02-01', supplier_name: 'UAB Tiekėjas', supplier_code: '300000001', amount_total_base: '300.00', amount_tax: '63.00', amount_total: '363.00' },
      vatLines: [{ vat_line_rate: '21', vat_line_base: '348.60', vat_line_tax: '73.21', vat_line_total: '421.81' }],
    }),
    original_file_name: 'saskaita.pdf',
  };
  const agreeing = exportDoc({
    fields: { document_id: 'SF-10', issue_date: '2026-02-01', supplier_name: 'UAB Tiekėjas', supplier_code: '300000001', amount_tax: '63.00', amount_total: '363.00' },
    vatLines: [{ vat_line_rate: '21', vat_line_base: '300.00', vat_line_tax: '63.00', vat_line_total: '363.00' }],
  });

  it('names where they are off, as the edit screen does', async () => {
    const { vatLinesOff } = await import('../../../lambdas/core/export/refusals');
    expect(vatLinesOff(corrected)).toBe('VAT amounts add up to 73.21, the Tax total is 63.00');
    expect(vatLinesOff(agreeing)).toBeNull();
    // nothing to check: no VAT lines
    expect(vatLinesOff(creditNote)).toBeNull();
  });

  it('refuses the file with a 422 naming the documents, instead of writing VAT their totals contradict', async () => {
    const error = refusal(() => buildIsaf([agreeing, corrected], options));
    expect(error.toBody()).toEqual({
      statusCode: 422,
      error: 'ValidationFailed',
      message: 'i.SAF takes the VAT from the VAT lines: those of saskaita.pdf do not add up to its totals',
      details: [{ path: [corrected.receipt_id, 'vat_lines'], message: 'VAT amounts add up to 73.21, the Tax total is 63.00' }],
    });
    expect(totalsInFile(buildIsaf([agreeing], options))).toEqual([[['300.00', 'PVM1', '21', '63.00']]]);
    const { buildRivileEip } = await import('../../../lambdas/core/integrations/rivile-eip');
    expect(refusal(() => buildRivileEip([corrected])).message).toBe('Rivile EIP takes the VAT from the VAT lines: those of saskaita.pdf do not add up to its totals');
    expect(buildRivileEip([agreeing])).toContain('<I06>');
  });
});

