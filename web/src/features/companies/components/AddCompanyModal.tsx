import { createCompanySchema } from '../../../../../shared/schemas/company';
import { MSG } from '../../../../../shared/schemas/messages';
import { Button } from '../../../components/ui/Button';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { TextField } from '../../../components/ui/TextField';
import { ApiError } from '../../../lib/api-error';
import { useForm } from '../../../lib/use-form';
import { zodValidator } from '../../../lib/validation';
import { useCreateCompany } from '../api/companies';

const validate = zodValidator(createCompanySchema);

/** Company creation failure: server text or 'Something went wrong' on the name field (rules.md 8). */
export function createCompanyErrors(err: unknown): { company_name?: string; code?: string } {
  if (err instanceof ApiError) {
    const byField = err.fieldErrors;
    if (byField.company_name || byField.code) return { company_name: byField.company_name, code: byField.code };
    if (!err.isNetwork && err.message && err.status < 500) return { company_name: err.message };
  }
  return { company_name: MSG.somethingWrong };
}

export function AddCompanyModal({ onClose }: { onClose(): void }) {
  const create = useCreateCompany();
  const info = useInfoPopup();
  const form = useForm({ company_name: '', code: '' }, validate);

  const onSubmit = form.handleSubmit(async (data) => {
    try {
      const company = await create.mutateAsync(data);
      info.show(`${company?.name ?? data.company_name} has been added.`, 'success');
      onClose();
    } catch (err) {
      const errors = createCompanyErrors(err);
      form.setServerErrors(Object.fromEntries(Object.entries(errors).filter(([, v]) => Boolean(v))) as Record<string, string>);
    }
  });

  return (
    <Modal title="Add company" onClose={onClose} testId="add-company-modal">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending}>
        <TextField label="Company name" autoComplete="organization" {...form.text('company_name')} />
        <TextField label="Company code" {...form.text('code')} />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" loading={form.pending}>
            ADD
          </Button>
        </div>
      </form>
    </Modal>
  );
}
