/** API views of master-data records (shared/schemas/master-data.ts). */
import { STAKEHOLDER_DATE_FORMATS } from '../../../shared/constants';
import type { Category, Item, Stakeholder } from '../../../shared/schemas/master-data';
import type { CategoryRecord, ItemRecord, StakeholderRecord } from './types';

export function toStakeholderView(r: StakeholderRecord, companyName: string, category: CategoryRecord | undefined): Stakeholder {
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    code: r.code,
    vat_id: r.vat_id,
    street: r.street,
    city: r.city,
    zipcode: r.zipcode,
    country: r.country,
    email: r.email,
    delivery: r.delivery,
    // A deleted category is shown as none; the stored id is kept until the stakeholder is edited.
    category: category ? { id: category.id, name: category.name } : null,
    category_id: category ? r.category_id : null,
    company_id: r.company_id,
    company_name: companyName,
    selected_date_format: r.selected_date_format,
    list_date_formats: [...STAKEHOLDER_DATE_FORMATS],
    recognise_details: r.recognise_details,
    external: r.external,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function toCategoryView(r: CategoryRecord, companyName: string): Category {
  return {
    id: r.id,
    name: r.name,
    category_code: r.category_code,
    company_id: r.company_id,
    company_name: companyName,
    external: r.external,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function toItemView(r: ItemRecord, companyName: string): Item {
  return {
    name_id: r.name_id,
    name: r.name,
    words: r.words,
    company_id: r.company_id,
    company_name: companyName,
    external: r.external ?? false,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
