import { useMemo } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import type { CreateStakeholderInput, Stakeholder, StakeholderType, UpdateStakeholderInput } from '../../../../../shared/schemas/master-data';
import { TextField } from '../../../components/ui/TextField';
import { useForm } from '../../../lib/use-form';
import {
  EMPTY_STAKEHOLDER,
  FORM_FIELDS,
  formFields,
  stakeholderAddValidator,
  stakeholderEditValidator,
  stakeholderEditValues,
  type CreateRequest,
  type EditRequest,
  type StakeholderAddValues,
  type StakeholderEditValues,
} from '../lib/forms';
import { useEditBase } from '../lib/use-edit-base';
import { useMasterWrite } from '../lib/use-master-write';
import { useReadStakeholder } from '../api/master-data';
import { CategoryField, CompanyField, CountryField, DateFormatField } from './fields';
import { MasterAddCard, MasterEditModal } from './MasterFormFrames';

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
  const write = useMasterWrite();
  const companyId = allCompanies ? form.values.company_id || undefined : activeCompanyId;

  const onSubmit = form.handleSubmit(async ({ companyId: chosen, input }) => {
    const stored = await write.create(chosen, { kind: type, input }, {
      success: `${STAKEHOLDER_LABEL[type]} added`,
      shown: formFields(FORM_FIELDS.stakeholderAdd, allCompanies),
      setServerErrors: form.setServerErrors,
    });
    if (stored) form.reset({ ...EMPTY_STAKEHOLDER, company_id: form.values.company_id });
  });

  return (
    <MasterAddCard
      icon={type === 'supplier' ? 'suppliers' : 'customers'}
      title={`New ${STAKEHOLDER_LABEL[type].toLowerCase()}`}
      form={form}
      onSubmit={onSubmit}
      companyId={companyId}
      onUpload={onUpload}
    >
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
    </MasterAddCard>
  );
}

/** Edit supplier/customer: two columns, only changed fields sent; no change sends nothing (product.md "Edit forms"). */
export function StakeholderEditModal({ stakeholder, onClose }: { stakeholder: Stakeholder; onClose(): void }) {
  const initial = useMemo(() => stakeholderEditValues(stakeholder), [stakeholder]);
  const { base, takeStored } = useEditBase(initial);
  const validate = useMemo(() => stakeholderEditValidator(base, stakeholder.id), [base, stakeholder.id]);
  const form = useForm<StakeholderEditValues, EditRequest<UpdateStakeholderInput>>(initial, validate);
  const write = useMasterWrite();
  const readStakeholder = useReadStakeholder();
  const label = STAKEHOLDER_LABEL[stakeholder.type];

  const onSubmit = form.handleSubmit(async ({ changed, input }) => {
    const typed = form.values;
    const stored =
      !changed ||
      (await write.update(stakeholder.company_id, { kind: stakeholder.type, input }, {
        success: `${label} updated`,
        shown: FORM_FIELDS.stakeholderEdit,
        setServerErrors: form.setServerErrors,
      }));
    if (stored) onClose();
    else takeStored(form, typed, await readStakeholder(stakeholder).then(stakeholderEditValues, () => null));
  });

  return (
    <MasterEditModal title={`Edit ${label.toLowerCase()}`} size="lg" pending={form.pending} onSubmit={onSubmit} onClose={onClose}>
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
    </MasterEditModal>
  );
}
