import { useCallback } from 'react';
import type { z } from 'zod';
import { apiKeyCredentialsSchema, serverCredentialsSchema } from '../../../../../shared/schemas/integrations';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { TextField } from '../../../components/ui/TextField';
import { ApiError, messageOf } from '../../../lib/api-error';
import { useForm, type UseForm } from '../../../lib/use-form';
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
  onSubmit,
  onClose,
}: {
  kind: 'server' | 'api_key';
  title: string;
  onSubmit: (credential: Record<string, unknown>) => Promise<void>;
  onClose: () => void;
}) {
  return kind === 'server' ? <ServerForm title={title} onSubmit={onSubmit} onClose={onClose} /> : <ApiKeyForm title={title} onSubmit={onSubmit} onClose={onClose} />;
}

function useSubmit<V extends Record<string, string>, O>(form: UseForm<V, O>, onSubmit: (c: Record<string, unknown>) => Promise<void>, mainField: keyof V & string) {
  const submit = form.handleSubmit(async (data) => {
    try {
      await onSubmit(data as Record<string, unknown>);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length) {
        const fields = error.fieldErrors;
        form.setServerErrors(fields);
        // Integration change error → server message on the host field (rules.md).
        if (!Object.keys(fields).some((f) => f in form.values)) form.setServerError(mainField, error.message);
      } else {
        form.setServerError(mainField, messageOf(error));
      }
    }
  });
  return { submit };
}

function ServerForm({ title, onSubmit, onClose }: { title: string; onSubmit: (c: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const validate = useCallback<Validator<ServerValues, z.output<typeof serverCredentialsSchema>>>((v) => zodValidator(serverCredentialsSchema)(v), []);
  const form = useForm<ServerValues, z.output<typeof serverCredentialsSchema>>({ host: '', user: '', password: '', port: '' }, validate);
  const { submit } = useSubmit(form, onSubmit, 'host');
  return (
    <Modal
      title={title}
      onClose={onClose}
      size="sm"
      testId="credentials-popup"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" form="credentials-form" loading={form.pending}>
            SAVE
          </Button>
        </>
      }
    >
      <form id="credentials-form" className="form" onSubmit={submit} noValidate>
        <TextField label="Host" autoComplete="off" {...form.text('host')} />
        <TextField label="User" autoComplete="off" {...form.text('user')} />
        <TextField label="Password" type="password" autoComplete="new-password" {...form.text('password')} />
        <TextField label="Port" inputMode="numeric" placeholder="21" {...form.text('port')} />
      </form>
    </Modal>
  );
}

function ApiKeyForm({ title, onSubmit, onClose }: { title: string; onSubmit: (c: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const validate = useCallback<Validator<KeyValues, z.output<typeof apiKeyCredentialsSchema>>>((v) => zodValidator(apiKeyCredentialsSchema)(v), []);
  const form = useForm<KeyValues, z.output<typeof apiKeyCredentialsSchema>>({ api_key: '' }, validate);
  const { submit } = useSubmit(form, onSubmit, 'api_key');
  return (
    <Modal
      title={title}
      onClose={onClose}
      size="sm"
      testId="credentials-popup"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={form.pending}>
            Cancel
          </Button>
          <Button type="submit" form="credentials-form" loading={form.pending}>
            CHECK AND SAVE
          </Button>
        </>
      }
    >
      <form id="credentials-form" className="form" onSubmit={submit} noValidate>
        <p className="muted">The key of a Rivile GAMA API user. Documents are created as that user; the key is checked with a call to the API before the export is switched on.</p>
        <TextField label="API key" type="password" autoComplete="off" {...form.text('api_key')} />
      </form>
    </Modal>
  );
}
