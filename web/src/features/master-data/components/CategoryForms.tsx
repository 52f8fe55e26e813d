import { useMemo } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import type { Category, CreateCategoryInput, UpdateCategoryInput } from '../../../../../shared/schemas/master-data';
import { MSG } from '../../../../../shared/schemas/messages';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { TextField } from '../../../components/ui/TextField';
import { useForm } from '../../../lib/use-form';
import { useMasterWrites } from '../api/master-data';
import {
  categoryAddValidator,
  categoryEditValidator,
  categoryEditValues,
  EMPTY_CATEGORY,
  FORM_FIELDS,
  formFields,
  routeServerError,
  type CategoryAddValues,
  type CategoryEditValues,
  type CreateRequest,
  type EditRequest,
} from '../lib/forms';
import { CompanyField } from './fields';

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
  const writes = useMasterWrites();
  const info = useInfoPopup();
  const companyId = allCompanies ? form.values.company_id || undefined : activeCompanyId;

  const onSubmit = form.handleSubmit(async ({ companyId: chosen, input }) => {
    try {
      await writes.create.mutateAsync({ companyId: chosen, body: { kind: 'category', input } });
      form.reset({ ...EMPTY_CATEGORY, company_id: form.values.company_id });
      info.show('Category added', 'success');
    } catch (err) {
      const route = routeServerError('category', err, formFields(FORM_FIELDS.category, allCompanies));
      form.setServerErrors(route.fields);
      if (route.popup) info.show(route.popup, 'error');
    }
  });

  const upload = () => {
    if (!companyId) form.setServerError('company_id', MSG.required);
    else onUpload(companyId);
  };

  return (
    <form className="card form md-add" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="md-add-form">
      <div className="card-head">
        <h2>
          <Icon name="categories" size={18} /> New category
        </h2>
        <Button variant="secondary" className="btn-sm" icon={<Icon name="upload" size={16} />} onClick={upload}>
          Upload XLSX
        </Button>
      </div>
      <div className="md-add-grid">
        <TextField label="Name" {...form.text('name')} />
        <TextField label="Code" {...form.text('category_code')} />
        {allCompanies && (
          <CompanyField
            companies={companies}
            value={form.values.company_id}
            onChange={(id) => form.setValue('company_id', id)}
            error={form.errorOf('company_id')}
          />
        )}
      </div>
      <div className="form-actions">
        <Button type="submit" loading={form.pending} icon={<Icon name="plus" size={16} />}>
          ADD
        </Button>
      </div>
    </form>
  );
}

/**
 * Edit category: name and code. Only changed fields are sent and an unchanged edit does nothing; a failure
 * other than a field error shows 'Something went wrong' under the name (rules.md 8).
 */
export function CategoryEditModal({ category, onClose }: { category: Category; onClose(): void }) {
  const initial = useMemo(() => categoryEditValues(category), [category]);
  const validate = useMemo(() => categoryEditValidator(initial, category.id), [initial, category.id]);
  const form = useForm<CategoryEditValues, EditRequest<UpdateCategoryInput>>(initial, validate);
  const writes = useMasterWrites();
  const info = useInfoPopup();

  const onSubmit = form.handleSubmit(async ({ changed, input }) => {
    if (!changed) {
      onClose();
      return;
    }
    try {
      await writes.update.mutateAsync({ companyId: category.company_id, body: { kind: 'category', input } });
      info.show('Category updated', 'success');
      onClose();
    } catch (err) {
      // rules.md 8: an edit that fails without a field says 'Something went wrong' under the name
      const route = routeServerError('category', err, FORM_FIELDS.category, { name: MSG.somethingWrong });
      form.setServerErrors(route.fields);
      if (route.popup) info.show(route.popup, 'error');
    }
  });

  return (
    <Modal title="Edit category" onClose={form.pending ? undefined : onClose} testId="md-edit-modal">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending}>
        <TextField label="Name" {...form.text('name')} />
        <TextField label="Code" {...form.text('category_code')} />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" loading={form.pending}>
            Save
          </Button>
        </div>
      </form>
    </Modal>
  );
}
