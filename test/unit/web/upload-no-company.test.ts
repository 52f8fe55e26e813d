import { describe, expect, it } from 'vitest';
import { uploadFailure } from '../../../web/src/features/upload/lib/failure';
import { NO_COMPANY_TO_UPLOAD, uploadQuery } from '../../../web/src/features/upload/lib/request';

const pdf = { name: 'scan.pdf', size: 2048, type: 'application/pdf' };
const settings = { receiptType: 'invoice', mode: 'single', ownerId: '' } as const;

describe('an upload without a company', () => {
  it('is not asked of the server: the card says to add a company first, and trying again does not help', () => {
    let thrown: unknown;
    try {
      uploadQuery(pdf, settings, { selfId: 'u1', allCompanies: false, activeCompanyId: undefined });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(uploadFailure(thrown)).toEqual({ message: NO_COMPANY_TO_UPLOAD, retry: false, sessionEnded: false });
    expect(NO_COMPANY_TO_UPLOAD).toContain('ADD COMPANY');
  });

  it('still sends NONE in the all-companies view and the active company otherwise', () => {
    expect(uploadQuery(pdf, settings, { selfId: 'u1', allCompanies: true, activeCompanyId: undefined }).company_id).toBe('NONE');
    expect(uploadQuery(pdf, settings, { selfId: 'u1', allCompanies: false, activeCompanyId: 'c1' }).company_id).toBe('c1');
  });
});
