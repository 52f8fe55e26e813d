import { describe, expect, it } from 'vitest';
import { XLSX_MAX_BYTES } from '../../../shared/constants';
import { importContentType, importSummary, isFinished, rowsDone, MSG_IMPORT_TOO_BIG, validateImportFile } from '../../../web/src/features/master-data/lib/import-xlsx';

describe('Upload XLSX pop-up rules', () => {
  it('accepts .xlsx and .xls only, up to 10 MB, not empty', () => {
    expect(validateImportFile({ name: 'suppliers.xlsx', size: 100 })).toBeNull();
    expect(validateImportFile({ name: 'OLD.XLS', size: XLSX_MAX_BYTES })).toBeNull();
    expect(validateImportFile({ name: 'suppliers.csv', size: 100 })).toBe('This file type is not allowed');
    expect(validateImportFile({ name: 'suppliers.ods', size: 100 })).toBe('This file type is not allowed');
    expect(validateImportFile({ name: 'xlsx', size: 100 })).toBe('This file type is not allowed');
    expect(validateImportFile({ name: 'big.xlsx', size: XLSX_MAX_BYTES + 1 })).toBe(MSG_IMPORT_TOO_BIG);
    expect(validateImportFile({ name: 'empty.xls', size: 0 })).toBe('The file is empty');
  });

  it('signs the content type of the extension', () => {
    expect(importContentType({ name: 'a.xlsx' })).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(importContentType({ name: 'a.XLS' })).toBe('application/vnd.ms-excel');
  });

  it('sums the result up', () => {
    expect(importSummary({ upload_type: 'suppliers', created: 3, updated: 1, unchanged: 0, rejected: [{ row: 4, reason: 'Code: Required field' }] })).toBe(
      '3 suppliers created, 1 updated, 1 row rejected',
    );
    expect(importSummary({ upload_type: 'categories', created: 1, updated: 0, unchanged: 0, rejected: [] })).toBe('1 category created, 0 updated, 0 rows rejected');
    expect(importSummary({ upload_type: 'suppliers', created: 0, updated: 1, unchanged: 5, rejected: [] })).toBe('0 suppliers created, 1 updated, 5 unchanged, 0 rows rejected');
    expect(rowsDone({ created: 2, updated: 1, unchanged: 5, rejected: [{ row: 3, reason: 'x' }] })).toBe(9);
    expect(isFinished({ status: 'processing' })).toBe(false);
    expect(isFinished({ status: 'failed' })).toBe(true);
  });
});
