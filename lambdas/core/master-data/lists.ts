/**
 * What every master-data rule shares: the dependencies, the caller's company, the record source of a list
 * and the list pages of one company or of all the caller's companies (selected=ALL, `next_company`).
 */
import { LIST_PAGE_SIZE } from '../../../shared/constants';
import { AppError, badRequest } from '../../../shared/errors';
import { DUPLICATE_MSG } from '../../../shared/schemas/messages';
import type { ListPage, StakeholderType } from '../../../shared/schemas/master-data';
import type { CompanyRecord } from '../accounts/types';
import type { AccountsStore, Clock, IdGenerator, LiveEvents } from '../ports';
import { DuplicateKeyError, type MasterDataStore } from './ports';
import type { Page, RecordSource } from './types';

export interface MasterDataDeps {
  masterData: MasterDataStore;
  store: AccountsStore;
  clock: Clock;
  ids: IdGenerator;
  live: LiveEvents;
}

/** Who calls: `companyId` is set when the call names a company the caller is a member of. */
export interface MasterDataCaller {
  userId: string;
  companyId?: string;
}

/** Companies one all-companies page may visit (each costs at least one query). */
export const COMPANIES_PER_PAGE = 10;

export function requireCompanyId(caller: MasterDataCaller): string {
  if (!caller.companyId) throw badRequest('company_id is required');
  return caller.companyId;
}

export async function companyOf(store: AccountsStore, companyId: string): Promise<CompanyRecord> {
  const [company] = await store.getCompanies([companyId]);
  if (!company) throw new AppError('NotFound', 'Company not found');
  return company;
}

/** Which records a list shows (md contract): imported only when the company says so, else all or own. */
export function sourceFor(company: CompanyRecord, flag: 'display_imported_stakeholders' | 'display_imported_categories' | null, withExternal: boolean): RecordSource {
  if (flag && company.integrations?.[flag]) return 'external';
  return withExternal ? 'all' : 'own';
}

export type DuplicateSubject = StakeholderType | 'category' | 'item';
export const ITEM_DUPLICATE_MSG = 'This item already exists';

/**
 * A uniqueness failure as the field error the forms show: under the name (rules.md 8), and under the code too when
 * the code is what another record has, so the user sees which value to change.
 */
export function duplicateError(subject: DuplicateSubject, field: 'name' | 'code'): AppError {
  const message = subject === 'item' ? ITEM_DUPLICATE_MSG : DUPLICATE_MSG[subject];
  const code = subject === 'category' ? 'category_code' : 'code';
  const paths = field === 'name' ? ['name'] : ['name', code];
  return new AppError('ValidationFailed', message, paths.map((path) => ({ path: [path], message })));
}

export async function withDuplicates<T>(subject: DuplicateSubject, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof DuplicateKeyError) throw duplicateError(subject, error.field);
    throw error;
  }
}

/** Tells open screens of the company that a list changed; a failed notification never fails the write. */
export async function publishChange(live: LiveEvents, companyId: string, payload: { kind: 'stakeholder' | 'category' | 'item'; type?: StakeholderType; id: string }): Promise<void> {
  try {
    await live.publish(companyId, 'master-data', payload);
  } catch {
    /* live updates are best effort */
  }
}

export interface ListQuery {
  company_id?: string;
  selected?: 'ALL';
  search_name?: string;
  limit?: number;
  next?: string;
  next_company?: string;
}

export function isAllCompanies(query: ListQuery): boolean {
  return query.selected === 'ALL' || query.company_id === 'NONE';
}

interface MultiCursor {
  c: string;
  n: string | null;
}

function encodeMulti(c: MultiCursor): string {
  return Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');
}

function decodeMulti(raw: string, companies: string[]): MultiCursor {
  const invalid = () => badRequest('Invalid next cursor');
  if (raw.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const c = parsed as Partial<MultiCursor> | null;
  if (!c || typeof c !== 'object' || typeof c.c !== 'string' || !(c.n === null || typeof c.n === 'string')) throw invalid();
  if (!companies.includes(c.c)) throw invalid();
  return { c: c.c, n: c.n };
}

/**
 * One list page: of the call's company, or of every company of the caller in the order of their ids
 * (all-companies view). `next` continues where the page stopped; in the all-companies view it names the
 * company too, and `next_company` says which company it continues in.
 */
export async function listPage<R extends { company_id: string }, V>(
  deps: Pick<MasterDataDeps, 'store'>,
  caller: MasterDataCaller,
  query: ListQuery,
  read: (company: CompanyRecord, cursor: string | undefined, limit: number) => Promise<Page<R>>,
  view: (records: R[], companies: Map<string, CompanyRecord>) => Promise<V[]>,
): Promise<ListPage<V>> {
  const limit = Math.min(query.limit ?? LIST_PAGE_SIZE, LIST_PAGE_SIZE);
  const multi = isAllCompanies(query);
  const ids = multi
    ? (await deps.store.listMembershipsOfUser(caller.userId)).map((m) => m.company_id).sort()
    : [requireCompanyId(caller)];
  if (ids.length === 0) return { items: [], next: null, next_company: null };
  let index = 0;
  let cursor: string | undefined;
  if (multi && query.next) {
    const c = decodeMulti(query.next, ids);
    index = ids.indexOf(c.c);
    cursor = c.n ?? undefined;
  } else if (multi && query.next_company) {
    index = ids.indexOf(query.next_company);
    if (index < 0) throw badRequest('Invalid next_company');
  } else if (!multi) {
    cursor = query.next || undefined;
  }
  const visit = ids.slice(index, index + COMPANIES_PER_PAGE);
  const companies = new Map((await deps.store.getCompanies(visit)).map((c) => [c.company_id, c]));
  const records: R[] = [];
  let next: string | null = null;
  let nextCompany: string | null = null;
  for (let i = index; i < ids.length; i++) {
    const id = ids[i]!;
    const company = companies.get(id);
    const page = company ? await read(company, cursor, limit - records.length) : { items: [], cursor: null }; // no company: deleted meanwhile
    records.push(...page.items);
    cursor = undefined;
    if (page.cursor) {
      next = multi ? encodeMulti({ c: id, n: page.cursor }) : page.cursor;
      nextCompany = multi ? id : null;
      break;
    }
    const following = ids[i + 1];
    if (following && (records.length >= limit || i + 1 - index >= visit.length)) {
      next = encodeMulti({ c: following, n: null });
      nextCompany = following;
      break;
    }
  }
  return { items: await view(records, companies), next, next_company: nextCompany };
}
