/**
 * The `company` live event: the one place its payload is built. The event is broadcast to every open screen of
 * every member of the company, so it carries only what all of them share; a member's own `role` (a field of the
 * company *as the caller sees it*, `toCompanyView`) is left out, and each screen keeps the role it has.
 */
import { PER_MEMBER_COMPANY_FIELDS } from '../../../shared/constants';
import type { Company, CompanyEvent } from '../../../shared/schemas/company';
import type { LiveEventName, LiveEvents } from '../ports';

const PER_MEMBER = new Set<string>(PER_MEMBER_COMPANY_FIELDS);

/** The payload of a `company` event from a company view (or some of its fields): the per-member fields left out. */
export function companyEventPayload(fields: Pick<Company, 'company_id'> & Partial<Company>): CompanyEvent {
  return withoutPerMemberFields(fields) as CompanyEvent;
}

function withoutPerMemberFields(fields: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !PER_MEMBER.has(name)));
}

/** Tells every member's open screens that the company changed. */
export async function publishCompanyChange(live: LiveEvents, fields: Pick<Company, 'company_id'> & Partial<Company>): Promise<void> {
  await live.publish(fields.company_id, 'company', companyEventPayload(fields));
}

/**
 * What a company broadcast may carry: a `company` payload loses its per-member fields whoever built it (the
 * publisher applies this to every company-wide event, so a caller that hands over a whole view cannot leak a role).
 * Other events are unchanged.
 */
export function broadcastPayload(event: LiveEventName, payload: unknown): unknown {
  if (event !== 'company' || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  return withoutPerMemberFields(payload);
}
