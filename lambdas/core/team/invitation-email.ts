import { escapeHtml } from '../mail/html';
import type { InvitationRecord, OutgoingMail } from './types';

/** The invitation e-mail: who invites, to which company and role, the optional message, the link and its expiry. */
export function invitationEmail(args: {
  invitation: InvitationRecord;
  companyName: string;
  inviterName: string;
  link: string;
}): OutgoingMail {
  const { invitation, companyName, inviterName, link } = args;
  const who = inviterName || 'A colleague';
  const role = invitation.role === 'admin' ? 'an administrator' : 'a user';
  const expires = invitation.expires_at.slice(0, 10);
  const subject = `${who} invited you to ${companyName} on Receipts`;
  const lines = [
    `Hello ${invitation.name},`,
    '',
    `${who} invited you to join ${companyName} on Receipts as ${role}.`,
    ...(invitation.message ? ['', invitation.message] : []),
    '',
    'Accept the invitation here:',
    link,
    '',
    `The link can be used once and expires on ${expires}.`,
  ];
  const html = [
    `<p>Hello ${escapeHtml(invitation.name)},</p>`,
    `<p>${escapeHtml(who)} invited you to join <strong>${escapeHtml(companyName)}</strong> on Receipts as ${role}.</p>`,
    invitation.message ? `<blockquote style="white-space:pre-wrap">${escapeHtml(invitation.message)}</blockquote>` : '',
    `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
    `<p>The link can be used once and expires on ${expires}.</p>`,
  ].join('\n');
  return { to: invitation.email, subject, text: lines.join('\n'), html };
}
