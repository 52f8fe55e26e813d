import { describe, expect, it } from 'vitest';
import { bulkReport } from '../../../web/src/features/receipts/lib/bulk-report';
import { ApiError, parseApiError, RESULT_UNKNOWN_MESSAGE } from '../../../web/src/lib/api-error';

const refused = (message = 'The document was changed by someone else.') => ({ error: new ApiError(409, 'Error', message) });
const lost = () => ({ error: parseApiError(504, { message: 'Endpoint request timed out' }, 'POST') });
const times = <T>(n: number, make: () => T) => Array.from({ length: n }, make);
const archive = { done: '21 documents moved to archive', verb: 'moved to archive' };

describe('bulkReport: what a bulk action of the list says', () => {
  it('all done: the action text, as a success', () => {
    expect(bulkReport({ done: 21, failed: [] }, archive)).toEqual({ text: '21 documents moved to archive', tone: 'success' });
  });

  it('nothing done and nothing refused: nothing to say', () => {
    expect(bulkReport({ done: 0, failed: [] }, archive)).toBeNull();
  });

  it('part done: how many of how many were done, how many not, and the first reason', () => {
    expect(bulkReport({ done: 11, failed: times(10, () => refused()) }, { done: '21 documents unarchived', verb: 'unarchived' })).toEqual({
      text: '11 of 21 documents unarchived; 10 could not be: The document was changed by someone else.',
      tone: 'error',
    });
    expect(bulkReport({ done: 1, failed: [refused('Only documents in review can be converted')] }, { done: '2 documents converted', verb: 'converted' })?.text).toBe(
      '1 of 2 documents converted; 1 could not be: Only documents in review can be converted.',
    );
  });

  it('one document refused: its reason alone; several all refused: how many, with the first reason', () => {
    expect(bulkReport({ done: 0, failed: [refused()] }, { done: 'The document has been deleted.', verb: 'deleted' })).toEqual({
      text: 'The document was changed by someone else.',
      tone: 'error',
    });
    expect(bulkReport({ done: 0, failed: times(21, () => refused()) }, archive)?.text).toBe(
      'None of the 21 documents could be moved to archive: The document was changed by someone else.',
    );
  });

  it('a call whose answer was lost: not known, not failed; with some done or refused, each is counted', () => {
    expect(bulkReport({ done: 0, failed: times(21, lost) }, archive)).toEqual({ text: RESULT_UNKNOWN_MESSAGE, tone: 'error' });
    expect(bulkReport({ done: 100, failed: times(50, lost) }, archive)?.text).toBe(
      '100 of 150 documents moved to archive. For 50 no answer came, so it is not known whether they were: the list is read again.',
    );
    expect(bulkReport({ done: 40, failed: [...times(10, () => refused()), ...times(100, lost)] }, archive)?.text).toBe(
      '40 of 150 documents moved to archive; 10 could not be: The document was changed by someone else. For 100 no answer came, so it is not known whether they were: the list is read again.',
    );
    expect(bulkReport({ done: 0, failed: [...times(10, () => refused()), ...times(100, lost)] }, archive)?.text).toBe(
      '10 of 110 documents could not be moved to archive: The document was changed by someone else. For 100 no answer came, so it is not known whether they were: the list is read again.',
    );
  });

  it('a failure that is no API error reads as the generic text', () => {
    expect(bulkReport({ done: 2, failed: [{ error: 'weird' }] }, archive)?.text).toBe('2 of 3 documents moved to archive; 1 could not be: Something went wrong.');
  });
});
