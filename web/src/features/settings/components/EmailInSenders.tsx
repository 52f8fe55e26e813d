import { useMemo } from 'react';
import type { Company } from '../../../../../shared/schemas/company';
import { EditActions } from '../../../components/ui/EditActions';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { TextAreaField } from '../../../components/ui/TextAreaField';
import { ApiError, messageOf } from '../../../lib/api-error';
import { useForm } from '../../../lib/use-form';
import { changedFields } from '../../../lib/validation';
import { useUpdateEmailInSenders } from '../api/settings';
import {
  parseSenders,
  SENDERS_FIELD,
  SENDERS_HINT,
  SENDERS_SAVED,
  sendersErrorText,
  sendersReadOnlyText,
  sendersText,
  sendersValidator,
  type SendersInput,
  type SendersValues,
} from '../lib/email-in-senders';

/** A Basic member's view of the allowed senders: from anyone, or only from the listed ones. */
export function EmailInSendersReadOnly({ senders }: { senders: readonly string[] }) {
  return (
    <p className="settings-senders-readonly" data-testid="settings-email-in-senders">
      {sendersReadOnlyText(senders)}
    </p>
  );
}

/**
 * "Allowed senders" (company administrators): one address or domain a line, checked with the shared schema before
 * PUT /company/email-in; errors name their line; the saved list is shown as the server normalised it.
 */
export function EmailInSendersForm({ company }: { company: Company }) {
  const initial = useMemo<SendersValues>(() => ({ [SENDERS_FIELD]: sendersText(company.email_in_senders) }), [company.email_in_senders]);
  const form = useForm<SendersValues, SendersInput>(initial, sendersValidator);
  const update = useUpdateEmailInSenders(company.company_id);
  const info = useInfoPopup();
  const field = form.text(SENDERS_FIELD);
  const dirty = Object.keys(changedFields(initial, form.values)).length > 0;
  const onSubmit = form.handleSubmit(async (input) => {
    const { lines } = parseSenders(form.values[SENDERS_FIELD]);
    try {
      const saved = await update.mutateAsync(input);
      form.reset({ [SENDERS_FIELD]: sendersText(saved.email_in_senders) });
      info.show(SENDERS_SAVED, 'success');
    } catch (err) {
      const message = err instanceof ApiError ? sendersErrorText(err.fieldErrors, lines) : undefined;
      if (message) form.setServerError(SENDERS_FIELD, message);
      else info.show(messageOf(err), 'error');
    }
  });
  return (
    <form className="form settings-senders" onSubmit={onSubmit} noValidate aria-busy={form.pending} data-testid="settings-email-in-senders-form">
      <TextAreaField
        label="Allowed senders"
        name={field.name}
        rows={4}
        spellCheck={false}
        autoCapitalize="none"
        autoComplete="off"
        placeholder={'anna@supplier.lt\nsupplier.lt'}
        value={field.value}
        onChange={(e) => form.setValue(SENDERS_FIELD, e.target.value)}
        onBlur={field.onBlur}
        error={field.error}
        hint={SENDERS_HINT}
      />
      <EditActions dirty={dirty} pending={form.pending} onCancel={() => form.reset(initial)} />
    </form>
  );
}
