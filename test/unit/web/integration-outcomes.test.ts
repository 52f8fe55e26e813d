/** What the Integration screen's Sync now and the edit screen's Send again tell the user. */
import { describe, expect, it } from 'vitest';
import { sendAgainNotice, syncNowNotice } from '../../../web/src/features/integration/lib/outcomes';
import { MSG } from '../../../shared/schemas/messages';

describe('Sync now', () => {
  it('says a partial run continues in the background, not that it finished', () => {
    expect(syncNowNotice({ outcome: 'partial', error: null })).toEqual({ text: 'Sync stopped for now; it continues in the background', tone: 'info' });
    expect(syncNowNotice({ outcome: 'done', error: null })).toEqual({ text: 'Sync finished', tone: 'success' });
    expect(syncNowNotice({ outcome: 'failed', error: 'connection refused' })).toEqual({ text: 'Sync failed: connection refused', tone: 'error' });
  });
});

describe('Send again', () => {
  it("shows the document's refusal from the 200 answer instead of success", () => {
    const message = 'Company code matches customer/supplier code';
    expect(sendAgainNotice({ results: [{ ok: false, message }] })).toEqual({ text: message, tone: 'error' });
    expect(sendAgainNotice({ results: [{ ok: false }] })).toEqual({ text: MSG.somethingWrong, tone: 'error' });
    expect(sendAgainNotice({ results: [] })).toEqual({ text: MSG.somethingWrong, tone: 'error' });
    expect(sendAgainNotice({ results: [{ ok: true }] })).toEqual({ text: 'The document was sent again', tone: 'success' });
  });
});
