import { useCallback, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import { apiKeyCredentialsSchema, serverCredentialsSchema } from '../../../../../shared/schemas/integrations';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { TextField } from '../../../components/ui/TextField';
import { ApiError, messageOf } from '../../../lib/api-error';
import { useForm, type FormValues, type UseForm } from '../../../lib/use-form';
import { zodValidator, type Validator } from '../../../lib/validation';

type ServerValues = { host: string; user: string; password: string; port: string };
type KeyValues = { api_key: string };

/**
 * The credentials pop-up: Host, User, Password required, Port not required (FTP, NSOFT); API key (Rivile).
 * Errors show once a field is touched. A failed connection test shows the server's message on the Host (or API
 * key) field and the toggle stays off.
 */
export function CredentialsModal({
  kind,
  title,
  note,
  onSubmit,
  onClose,
}: {
  kind: 'server' | 'api_key';
  title: string;
  /** What an API key is for, above its field. */
  note?: string;
  onSubmit: (credential: Record<string, unknown>) => Promise<void>;
  onClose: () => void;
}) {
  return kind === 'server' ? <ServerForm title={title} onSubmit={onSubmit} onClose={onClose} /> : <ApiKeyForm title={title} note={note} onSubmit={onSubmit} onClose={onClose} />;
}

/**
 * A failed save of credentials: the server's field errors on their fields; one that names no field of the form
 * (the integration change error, a refused connection test) and any other failure on `mainField` (rules.md).
 */
export function showCredentialError<V extends FormValues, O>(form: UseForm<V, O>, error: unknown, mainField: keyof V & string): void {
  if (error instanceof ApiError && Object.keys(error.fieldErrors).length) {
    form.setServerErrors(error.fieldErrors);
    if (!Object.keys(error.fieldErrors).some((f) => f in form.values)) form.setServerError(mainField, error.message);
  } else {
    form.setServerError(mainField, messageOf(error));
  }
}

/** The pop-up around a credentials form (`formId`): the fields, Cancel and the save button. */
export function CredentialsFrame({
  title,
  testId,
  formId,
  saveLabel = 'SAVE',
  pending,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  formId: string;
  saveLabel?: string;
  pending: boolean;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void | Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      size="sm"
      testId={testId}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            {saveLabel}
          </Button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={onSubmit} noValidate>
        {children}
      </form>
    </Modal>
  );
}

function useSubmit<V extends Record<string, string>, O>(form: UseForm<V, O>, onSubmit: (c: Record<string, unknown>) => Promise<void>, mainField: keyof V & string) {
  return form.handleSubmit(async (data) => {
    try {
      await onSubmit(data as Record<string, unknown>);
    } catch (error) {
      showCredentialError(form, error, mainField);
    }
  });
}

function ServerForm({ title, onSubmit, onClose }: { title: string; onSubmit: (c: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const validate = useCallback<Validator<ServerValues, z.output<typeof serverCredentialsSchema>>>((v) => zodValidator(serverCredentialsSchema)(v), []);
  const form = useForm<ServerValues, z.output<typeof serverCredentialsSchema>>({ host: '', user: '', password: '', port: '' }, validate);
  const submit = useSubmit(form, onSubmit, 'host');
  return (
    <CredentialsFrame title={title} testId="credentials-popup" formId="credentials-form" pending={form.pending} onSubmit={submit} onClose={onClose}>
      <TextField label="Host" autoComplete="off" {...form.text('host')} />
      <TextField label="User" autoComplete="off" {...form.text('user')} />
      <TextField label="Password" type="password" autoComplete="new-password" {...form.text('password')} />
      <TextField label="Port" inputMode="numeric" placeholder="21" {...form.text('port')} />
    </CredentialsFrame>
  );
}

function ApiKeyForm({ title, note, onSubmit, onClose }: { title: string; note?: string; onSubmit: (c: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const validate = useCallback<Validator<KeyValues, z.output<typeof apiKeyCredentialsSchema>>>((v) => zodValidator(apiKeyCredentialsSchema)(v), []);
  const form = useForm<KeyValues, z.output<typeof apiKeyCredentialsSchema>>({ api_key: '' }, validate);
  const submit = useSubmit(form, onSubmit, 'api_key');
  return (
    <CredentialsFrame
      title={title}
      testId="credentials-popup"
      formId="credentials-form"
      saveLabel="CHECK AND SAVE"
      pending={form.pending}
      onSubmit={submit}
      onClose={onClose}
    >
      {note && <p className="muted">{note}</p>}
      <TextField label="API key" type="password" autoComplete="off" {...form.text('api_key')} />
    </CredentialsFrame>
  );
}
