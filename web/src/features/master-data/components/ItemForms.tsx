import { useMemo, useState, type FormEvent } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import type { Item } from '../../../../../shared/schemas/master-data';
import { MSG } from '../../../../../shared/schemas/messages';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { Modal } from '../../../components/ui/Modal';
import { TextField } from '../../../components/ui/TextField';
import type { FieldErrors } from '../../../lib/api-error';
import type { ValidationResult } from '../../../lib/validation';
import { useMasterWrites } from '../api/master-data';
import { FORM_FIELDS, formFields, itemAddValidator, itemEditValidator, routeServerError, wordRow, wordRows, type ItemFormValues } from '../lib/forms';
import { CompanyField } from './fields';

/** Form state of the item forms: a name and a dynamic list of word rows. */
function useItemForm<O>(initial: () => ItemFormValues, validate: (v: ItemFormValues) => ValidationResult<O>) {
  const [values, setValues] = useState<ItemFormValues>(initial);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const result = useMemo(() => validate(values), [validate, values]);
  const errorOf = (key: string) => serverErrors[key] ?? (touched[key] || submitted ? result.errors[key] : undefined);
  const update = (next: Partial<ItemFormValues>, key?: string) => {
    setValues((prev) => ({ ...prev, ...next }));
    if (key) setServerErrors((prev) => (key in prev ? Object.fromEntries(Object.entries(prev).filter(([k]) => k !== key)) : prev));
  };
  return {
    values,
    pending,
    errorOf,
    setServerErrors,
    setName: (name: string) => update({ name }, 'name'),
    setCompany: (company_id: string) => update({ company_id }, 'company_id'),
    setWord: (index: number, value: string) =>
      setValues((prev) => ({ ...prev, words: prev.words.map((w, i) => (i === index ? { ...w, value } : w)) })),
    addWord: () => setValues((prev) => ({ ...prev, words: [...prev.words, wordRow()] })),
    removeWord: (index: number) => setValues((prev) => ({ ...prev, words: prev.words.filter((_, i) => i !== index) })),
    touch: (key: string) => setTouched((prev) => (prev[key] ? prev : { ...prev, [key]: true })),
    reset: (next: ItemFormValues) => {
      setValues(next);
      setTouched({});
      setSubmitted(false);
      setServerErrors({});
    },
    handleSubmit: (onValid: (data: O) => Promise<void>) => async (e?: FormEvent) => {
      e?.preventDefault();
      setSubmitted(true);
      setServerErrors({});
      if (!result.ok || pending) return;
      setPending(true);
      try {
        await onValid(result.data);
      } finally {
        setPending(false);
      }
    },
  };
}

type ItemForm = ReturnType<typeof useItemForm<unknown>>;

/** Name and the word rows: Word 1, Word 2, … each removable, New Word adds one. */
function ItemFields({ form }: { form: ItemForm }) {
  return (
    <>
      <TextField label="Name" name="name" value={form.values.name} onChange={(e) => form.setName(e.target.value)} onBlur={() => form.touch('name')} error={form.errorOf('name')} />
      <div className="md-words" data-testid="md-words">
        {form.values.words.map((w, i) => (
          <div className="md-word" key={w.key}>
            <TextField
              label={`Word ${i + 1}`}
              name={`word_${i + 1}`}
              value={w.value}
              onChange={(e) => form.setWord(i, e.target.value)}
              onBlur={() => form.touch(`words.${i}`)}
              error={form.errorOf(`words.${i}`)}
            />
            <button type="button" className="icon-btn md-word-remove" aria-label={`Remove word ${i + 1}`} title="Remove" onClick={() => form.removeWord(i)}>
              <Icon name="trash" size={16} />
            </button>
          </div>
        ))}
        {form.errorOf('words') && (
          <p className="field-error" role="alert" data-testid="error-words">
            {form.errorOf('words')}
          </p>
        )}
        <div>
          <Button variant="ghost" className="btn-sm" icon={<Icon name="plus" size={16} />} onClick={form.addWord}>
            New Word
          </Button>
        </div>
      </div>
    </>
  );
}

const emptyItem = (company_id = ''): ItemFormValues => ({ name: '', words: [wordRow()], company_id });

/** The add form on top of /items: name, words, company in the all-companies view, Upload XLSX. */
export function ItemAddForm({
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
  const validate = useMemo(() => itemAddValidator(allCompanies), [allCompanies]);
  const form = useItemForm(() => emptyItem(), validate);
  const writes = useMasterWrites();
  const info = useInfoPopup();
  const companyId = allCompanies ? form.values.company_id || undefined : activeCompanyId;

  const onSubmit = form.handleSubmit(async ({ companyId: chosen, input }) => {
    try {
      await writes.create.mutateAsync({ companyId: chosen, body: { kind: 'item', input } });
      form.reset(emptyItem(form.values.company_id));
      info.show('Item added', 'success');
    } catch (err) {
      const route = routeServerError('item', err, formFields(FORM_FIELDS.item, allCompanies));
      form.setServerErrors(route.fields);
      if (route.popup) info.show(route.popup, 'error');
    }
  });

  const upload = () => {
    if (!companyId) form.setServerErrors({ company_id: MSG.required });
    else onUpload(companyId);
  };

  return (
    <form className="card form md-add" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="md-add-form">
      <div className="card-head">
        <h2>
          <Icon name="items" size={18} /> New item
        </h2>
        <Button variant="secondary" className="btn-sm" icon={<Icon name="upload" size={16} />} onClick={upload}>
          Upload XLSX
        </Button>
      </div>
      <div className="md-item-grid">
        <ItemFields form={form as ItemForm} />
        {allCompanies && <CompanyField companies={companies} value={form.values.company_id} onChange={form.setCompany} error={form.errorOf('company_id')} />}
      </div>
      <div className="form-actions">
        <Button type="submit" loading={form.pending} icon={<Icon name="plus" size={16} />}>
          ADD
        </Button>
      </div>
    </form>
  );
}

/** Edit item: name and words; blank words dropped, only what changed is sent. */
export function ItemEditModal({ item, onClose }: { item: Item; onClose(): void }) {
  const validate = useMemo(() => itemEditValidator(item), [item]);
  const form = useItemForm(() => ({ name: item.name, words: item.words.length > 0 ? wordRows(item.words) : [wordRow()], company_id: item.company_id }), validate);
  const writes = useMasterWrites();
  const info = useInfoPopup();

  const onSubmit = form.handleSubmit(async ({ changed, input }) => {
    if (!changed) {
      onClose();
      return;
    }
    try {
      await writes.update.mutateAsync({ companyId: item.company_id, body: { kind: 'item', input } });
      info.show('Item updated', 'success');
      onClose();
    } catch (err) {
      const route = routeServerError('item', err, FORM_FIELDS.item);
      form.setServerErrors(route.fields);
      if (route.popup) info.show(route.popup, 'error');
    }
  });

  return (
    <Modal title="Edit item" onClose={form.pending ? undefined : onClose} testId="md-edit-modal">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={form.pending}>
        <ItemFields form={form as ItemForm} />
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
