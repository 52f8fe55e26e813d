import { describe, expect, it } from 'vitest';
import { INVITATION_KEPT_AFTER_EXPIRY_SECONDS, invitationItem } from '../../../lambdas/adapters/ddb/team-store';
import { invitationProblem, INVITATION_EXPIRED } from '../../../lambdas/core/team/invitations';
import type { InvitationRecord } from '../../../lambdas/core/team/types';

const invitation: InvitationRecord = {
  id: 'a'.repeat(64),
  company_id: 'co1',
  email: 'colleague@example.com',
  name: 'Ona',
  surname: 'Jonaitė',
  role: 'basic',
  message: '',
  invited_by: 'u1',
  created_at: '2026-03-01T10:00:00.000Z',
  expires_at: '2026-03-08T10:00:00.000Z',
  used_at: null,
  used_by: null,
};

describe('invitation item as stored', () => {
  it('is kept for 30 days after its expiry, so that an expired link still answers that it expired', () => {
    const item = invitationItem(invitation);
    expect(INVITATION_KEPT_AFTER_EXPIRY_SECONDS).toBe(30 * 24 * 3600);
    expect(item.ttl).toBe(Date.parse(invitation.expires_at) / 1000 + INVITATION_KEPT_AFTER_EXPIRY_SECONDS);
    // DynamoDB deletes an item only after its `ttl`: up to then the link reads the record and says it expired.
    const dayBeforeRemoval = new Date((item.ttl - 24 * 3600) * 1000);
    expect(dayBeforeRemoval.getTime()).toBeGreaterThan(Date.parse(invitation.expires_at));
    expect(invitationProblem(invitation, dayBeforeRemoval)).toBe(INVITATION_EXPIRED);
  });

  it('carries the record, its keys and no empty acceptance', () => {
    const item = invitationItem(invitation);
    expect(item).toMatchObject({ pk: `INVITATION#${invitation.id}`, type: 'INVITATION', expires_at: invitation.expires_at, email: invitation.email });
    expect(item).not.toHaveProperty('used_at');
    expect(invitationItem({ ...invitation, used_at: '2026-03-02T10:00:00.000Z', used_by: 'u2' })).toMatchObject({ used_at: '2026-03-02T10:00:00.000Z', used_by: 'u2' });
  });
});
