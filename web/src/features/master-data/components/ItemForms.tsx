import { useMemo, useState, type FormEvent } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import type { Item } from '../../../../../shared/schemas/master-data';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { TextField } from '../../../components/ui/TextField';
import type { FieldErrors } from '../../../lib/api-error';
import type { ValidationResult } from '../../../lib/validation';
import { FORM_FIELDS, formFields, itemAddValidator, itemEditValidator, wordRow, wordRows, type ItemFormValues } from '../lib/forms';
import { useMasterWrite } from '../lib/use-master-write';
import { CompanyField } from './fields';
import { MasterAddCard, MasterEditModal } from './MasterFormFrames';

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
    setServerError: (key: string, message: string) => setServerErrors((prev) => ({ ...prev, [key]: message })),
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
  const write = useMasterWrite();
  const companyId = allCompanies ? form.values.company_id || undefined : activeCompanyId;

  const onSubmit = form.handleSubmit(async ({ companyId: chosen, input }) => {
    const stored = await write.create(chosen, { kind: 'item', input }, {
      success: 'Item added',
      shown: formFields(FORM_FIELDS.item, allCompanies),
      setServerErrors: form.setServerErrors,
    });
    if (stored) form.reset(emptyItem(form.values.company_id));
  });

  return (
    <MasterAddCard
      icon="items"
      title="New item"
      gridClassName="md-item-grid"
      form={form}
      onSubmit={onSubmit}
      companyId={companyId}
      onUpload={onUpload}
    >
      <ItemFields form={form as ItemForm} />
      {allCompanies && <CompanyField companies={companies} value={form.values.company_id} onChange={form.setCompany} error={form.errorOf('company_id')} />}
    </MasterAddCard>
  );
}

/** Edit item: name and words; blank words dropped, only what changed is sent. */
export function ItemEditModal({ item, onClose }: { item: Item; onClose(): void }) {
  const validate = useMemo(() => itemEditValidator(item), [item]);
  const form = useItemForm(() => ({ name: item.name, words: item.words.length > 0 ? wordRows(item.words) : [wordRow()], company_id: item.company_id }), validate);
  const write = useMasterWrite();

  const onSubmit = form.handleSubmit(async ({ changed, input }) => {
    const stored =
      !changed ||
      (await write.update(item.company_id, { kind: 'item', input }, { success: 'Item updated', shown: FORM_FIELDS.item, setServerErrors: form.setServerErrors }));
    if (stored) onClose();
  });

  return (
    <MasterEditModal title="Edit item" pending={form.pending} onSubmit={onSubmit} onClose={onClose}>
      <ItemFields form={form as ItemForm} />
    </MasterEditModal>
  );
}
