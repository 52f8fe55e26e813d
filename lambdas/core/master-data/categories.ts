/** Categories (product.md 3, rules.md 5): unique name and, when given, unique code per company. */
import { notFound } from '../../../shared/errors';
import type { CategoriesQuery, Category, CreateCategoryInput, ListPage, UpdateCategoryInput } from '../../../shared/schemas/master-data';
import { changedMeanwhile, changedMeanwhileError } from './edited-from';
import { codeIs, withIdentifierHits } from './identifier-search';
import { companyOf, listPage, publishChange, sourceFor, withDuplicates, type MasterDataCaller, type MasterDataDeps } from './lists';
import type { CategoryRecord } from './types';
import { toCategoryView } from './views';

export function newCategoryRecord(
  deps: Pick<MasterDataDeps, 'ids' | 'clock'>,
  companyId: string,
  input: { name: string; category_code?: string },
  extra: { external?: boolean; external_ref?: string } = {},
): CategoryRecord {
  const now = deps.clock.now().toISOString();
  return {
    id: deps.ids.newId(),
    company_id: companyId,
    name: input.name.trim(),
    category_code: (input.category_code ?? '').trim(),
    external: extra.external ?? false,
    ...(extra.external_ref ? { external_ref: extra.external_ref } : {}),
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

/** POST category: 201 with the view; a taken name or code → 'This category already exists'. */
export async function createCategory(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, input: CreateCategoryInput): Promise<Category> {
  const company = await companyOf(deps.store, companyId);
  const record = newCategoryRecord(deps, companyId, input);
  await withDuplicates('category', () => deps.masterData.putCategory(record));
  await publishChange(deps.live, companyId, { kind: 'category', id: record.id });
  return toCategoryView(record, company.name);
}

async function loadCategory(deps: MasterDataDeps, companyId: string, id: string): Promise<CategoryRecord> {
  const record = await deps.masterData.getCategory(companyId, id);
  if (!record) throw notFound('Category not found');
  return record;
}

/**
 * PUT category: only changed fields; nothing changed → nothing written (rules.md 5), the current view. A field
 * someone else changed since `before` was read is refused (409, edited-from.ts).
 */
export async function updateCategory(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, input: UpdateCategoryInput): Promise<Category> {
  const company = await companyOf(deps.store, companyId);
  const current = await loadCategory(deps, companyId, input.id);
  const changes: Partial<CategoryRecord> = {};
  if (input.name !== undefined && input.name.trim() !== current.name) changes.name = input.name.trim();
  if (input.category_code !== undefined && input.category_code.trim() !== current.category_code) changes.category_code = input.category_code.trim();
  const meanwhile = changedMeanwhile(current, changes, input.before, (_field, value) => String(value ?? '').trim());
  if (meanwhile.length) throw changedMeanwhileError('category', meanwhile, current);
  if (Object.keys(changes).length === 0) return toCategoryView(current, company.name);
  const next: CategoryRecord = { ...current, ...changes, updated_at: deps.clock.now().toISOString(), version: current.version + 1 };
  await withDuplicates('category', () => deps.masterData.putCategory(next, current));
  await publishChange(deps.live, companyId, { kind: 'category', id: next.id });
  return toCategoryView(next, company.name);
}

/** DELETE category. Stakeholders that had it show no category from then on. */
export async function deleteCategory(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, id: string): Promise<{ deleted: true; id: string }> {
  const record = await loadCategory(deps, companyId, id);
  await deps.masterData.deleteCategory(record);
  await publishChange(deps.live, companyId, { kind: 'category', id });
  return { deleted: true, id };
}

/** GET categories/{id}: one category of the company (the edit pop-up's record as stored after a refused save). */
export async function getCategory(deps: MasterDataDeps, caller: MasterDataCaller, companyId: string, id: string): Promise<Category> {
  const company = await companyOf(deps.store, companyId);
  return toCategoryView(await loadCategory(deps, companyId, id), company.name);
}

/** GET categories: sorted by name case-insensitively (rules.md 9), 50 a page, one company or all. */
export async function listCategories(deps: MasterDataDeps, caller: MasterDataCaller, query: CategoriesQuery): Promise<ListPage<Category>> {
  return listPage(
    deps,
    caller,
    query,
    (company, cursor, limit) => {
      const source = sourceFor(company, 'display_imported_categories', query.with_external_data);
      return withIdentifierHits(
        {
          // M6: the code's guard
          hits: async (text) => {
            const found = await deps.masterData.findCategory(company.company_id, 'code', text);
            return found ? [found] : [];
          },
          matches: (r, text) => codeIs(r.category_code, text),
        },
        { search: query.search_name, source, cursor, limit },
        (names) => deps.masterData.listCategories({ companyId: company.company_id, search: query.search_name, source, limit: names, cursor }),
      );
    },
    async (records, companies) => records.map((r) => toCategoryView(r, companies.get(r.company_id)?.name ?? '')),
  );
}
