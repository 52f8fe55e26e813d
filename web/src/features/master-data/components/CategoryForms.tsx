import { useMemo } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import type { Category, CreateCategoryInput, UpdateCategoryInput } from '../../../../../shared/schemas/master-data';
import { MSG } from '../../../../../shared/schemas/messages';
import { TextField } from '../../../components/ui/TextField';
import { useForm } from '../../../lib/use-form';
import {
  categoryAddValidator,
  categoryEditValidator,
  categoryEditValues,
  EMPTY_CATEGORY,
  FORM_FIELDS,
  formFields,
  type CategoryAddValues,
  type CategoryEditValues,
  type CreateRequest,
  type EditRequest,
} from '../lib/forms';
import { useReadCategory } from '../api/master-data';
import { useEditBase } from '../lib/use-edit-base';
import { useMasterWrite } from '../lib/use-master-write';
import { CompanyField } from './fields';
import { MasterAddCard, MasterEditModal } from './MasterFormFrames';

/** The add form on top of /categories: name, code, company in the all-companies view, Upload XLSX. */
export function CategoryAddForm({
  allCompanies,
  companies,
  activeCompanyId,
  onUpload,
}: {
  allCompanies: boolean;
  companies: ReadonlyArray<Company>;
  activeCompanyId: string | undefined;
  onUpload(companyId: string): void;
}) {
  const validate = useMemo(() => categoryAddValidator(allCompanies), [allCompanies]);
  const form = useForm<CategoryAddValues, CreateRequest<CreateCategoryInput>>(EMPTY_CATEGORY, validate);
  const write = useMasterWrite();
  const companyId = allCompanies ? form.values.company_id || undefined : activeCompanyId;

  const onSubmit = form.handleSubmit(async ({ companyId: chosen, input }) => {
    const stored = await write.create(chosen, { kind: 'category', input }, {
      success: 'Category added',
      shown: formFields(FORM_FIELDS.category, allCompanies),
      setServerErrors: form.setServerErrors,
    });
    if (stored) form.reset({ ...EMPTY_CATEGORY, company_id: form.values.company_id });
  });

  return (
    <MasterAddCard
      icon="categories"
      title="New category"
      form={form}
      onSubmit={onSubmit}
      companyId={companyId}
      onUpload={onUpload}
    >
      <TextField label="Name" {...form.text('name')} />
      <TextField label="Code" {...form.text('category_code')} />
      {allCompanies && (
        <CompanyField companies={companies} value={form.values.company_id} onChange={(id) => form.setValue('company_id', id)} error={form.errorOf('company_id')} />
      )}
    </MasterAddCard>
  );
}

/**
 * Edit category: name and code. Only changed fields are sent (with what they were, `before`) and an unchanged edit
 * does nothing; a failure other than a field error shows 'Something went wrong' under the name (rules.md 8). After a
 * refused save the pop-up takes the category as stored now (useEditBase).
 */
export function CategoryEditModal({ category, onClose }: { category: Category; onClose(): void }) {
  const initial = useMemo(() => categoryEditValues(category), [category]);
  const { base, takeStored } = useEditBase(initial);
  const validate = useMemo(() => categoryEditValidator(base, category.id), [base, category.id]);
  const form = useForm<CategoryEditValues, EditRequest<UpdateCategoryInput>>(initial, validate);
  const write = useMasterWrite();
  const readCategory = useReadCategory();

  const onSubmit = form.handleSubmit(async ({ changed, input }) => {
    const typed = form.values;
    const stored =
      !changed ||
      (await write.update(category.company_id, { kind: 'category', input }, {
        success: 'Category updated',
        shown: FORM_FIELDS.category,
        // rules.md 8: an edit that fails without a field says 'Something went wrong' under the name
        unnamed: { name: MSG.somethingWrong },
        setServerErrors: form.setServerErrors,
      }));
    if (stored) onClose();
    else takeStored(form, typed, await readCategory(category).then(categoryEditValues, () => null));
  });

  return (
    <MasterEditModal title="Edit category" pending={form.pending} onSubmit={onSubmit} onClose={onClose}>
      <TextField label="Name" {...form.text('name')} />
      <TextField label="Code" {...form.text('category_code')} />
    </MasterEditModal>
  );
}
