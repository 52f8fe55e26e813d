import { useMemo } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import type { CreateStakeholderInput, Stakeholder, StakeholderType, UpdateStakeholderInput } from '../../../../../shared/schemas/master-data';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { TextField } from '../../../components/ui/TextField';
import { useForm } from '../../../lib/use-form';
import { useMasterWrites } from '../api/master-data';
import {
  EMPTY_STAKEHOLDER,
  FORM_FIELDS,
  formFields,
  routeServerError,
  stakeholderAddValidator,
  stakeholderEditValidator,
  stakeholderEditValues,
  type CreateRequest,
  type EditRequest,
  type StakeholderAddValues,
  type StakeholderEditValues,
} from '../lib/forms';
import { CategoryField, CompanyField, CountryField, DateFormatField } from './fields';

export const STAKEHOLDER_LABEL: Record<StakeholderType, string> = { supplier: 'Supplier', customer: 'Customer' };

/** The add form on top of /suppliers and /customers (product.md "Master-data list screen"). */
export function StakeholderAddForm({
  type,
  allCompanies,
  companies,
  activeCompanyId,
  onUpload,
}: {
  type: StakeholderType;
  allCompanies: boolean;
  companies: ReadonlyArray<Company>;
  activeCompanyId: string | undefined;
  onUpload(companyId: string): void;
}) {
  const validate = useMemo(() => stakeholderAddValidator(type, allCompanies), [type, allCompanies]);
  const form = useForm<StakeholderAddValues, CreateRequest<CreateStakeholderInput>>(EMPTY_STAKEHOLDER, validate);
  const writes = useMasterWrites();
  const info = useInfoPopup();
  const companyId = allCompanies ? form.values.company_id || undefined : activeCompanyId;

  const onSubmit = form.handleSubmit(async ({ companyId: chosen, input }) => {
    try {
      await writes.create.mutateAsync({ companyId: chosen, body: { kind: type, input } });
      form.reset({ ...EMPTY_STAKEHOLDER, company_id: form.values.company_id });
      info.show(`${STAKEHOLDER_LABEL[type]} added`, 'success');
    } catch (err) {
      const route = routeServerError(type, err, formFields(FORM_FIELDS.stakeholderAdd, allCompanies));
      form.setServerErrors(route.fields);
      if (route.popup) info.show(route.popup, 'error');
    }
  });

  const upload = () => {
    if (!companyId) form.setServerError('company_id', 'Required field');
    else onUpload(companyId);
  };

  return (
    <form className="card form md-add" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="md-add-form">
      <div className="card-head">
        <h2>
          <Icon name={type === 'supplier' ? 'suppliers' : 'customers'} size={18} /> New {STAKEHOLDER_LABEL[type].toLowerCase()}
        </h2>
        <Button variant="secondary" className="btn-sm" icon={<Icon name="upload" size={16} />} onClick={upload}>
          Upload XLSX
        </Button>
      </div>
      <div className="md-add-grid">
        <TextField label="Name" {...form.text('name')} />
        <TextField label="Code" {...form.text('code')} />
        <TextField label="VAT ID" {...form.text('vat_id')} />
        <TextField label="Street" {...form.text('street')} />
        <TextField label="City" {...form.text('city')} />
        <CountryField value={form.values.country} onChange={(code) => form.setValue('country', code)} error={form.errorOf('country')} />
        <TextField label="Zip code" {...form.text('zipcode')} />
        <CategoryField
          key={companyId ?? 'none'}
          companyId={companyId}
          value={form.values.category_id}
          onChange={(id) => form.setValue('category_id', id)}
          error={form.errorOf('category_id')}
        />
        {allCompanies && (
          <CompanyField
            companies={companies}
            value={form.values.company_id}
            onChange={(id) => {
              form.setValue('company_id', id);
              form.setValue('category_id', '');
            }}
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

/** Edit supplier/customer: two columns, only changed fields sent; no change sends nothing (product.md "Edit forms"). */
export function StakeholderEditModal({ stakeholder, onClose }: { stakeholder: Stakeholder; onClose(): void }) {
  const initial = useMemo(() => stakeholderEditValues(stakeholder), [stakeholder]);
  const validate = useMemo(() => stakeholderEditValidator(initial, stakeholder.id), [initial, stakeholder.id]);
  const form = useForm<StakeholderEditValues, EditRequest<UpdateStakeholderInput>>(initial, validate);
  const writes = useMasterWrites();
  const info = useInfoPopup();
  const label = STAKEHOLDER_LABEL[stakeholder.type];

  const onSubmit = form.handleSubmit(async ({ changed, input }) => {
    if (!changed) {
      onClose();
      return;
    }
    try {
      await writes.update.mutateAsync({ companyId: stakeholder.company_id, body: { kind: stakeholder.type, input } });
      info.show(`${label} updated`, 'success');
      onClose();
    } catch (err) {
      const route = routeServerError(stakeholder.type, err, FORM_FIELDS.stakeholderEdit);
      form.setServerErrors(route.fields);
      if (route.popup) info.show(route.popup, 'error');
    }
  });

  return (
    <Modal title={`Edit ${label.toLowerCase()}`} size="lg" onClose={form.pending ? undefined : onClose} testId="md-edit-modal">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending}>
        <div className="form-grid">
          <TextField label="Name" {...form.text('name')} />
          <TextField label="Code" {...form.text('code')} />
          <TextField label="VAT ID" {...form.text('vat_id')} />
          <CategoryField
            companyId={stakeholder.company_id}
            value={form.values.category_id}
            initialLabel={stakeholder.category?.name}
            onChange={(id) => form.setValue('category_id', id)}
            error={form.errorOf('category_id')}
          />
          <TextField label="Street" {...form.text('street')} />
          <TextField label="City" {...form.text('city')} />
          <CountryField value={form.values.country} onChange={(code) => form.setValue('country', code)} error={form.errorOf('country')} />
          <TextField label="Zip code" {...form.text('zipcode')} />
          <DateFormatField
            value={form.values.selected_date_format}
            onChange={(f) => form.setValue('selected_date_format', f)}
            error={form.errorOf('selected_date_format')}
          />
        </div>
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
