import { useInfoPopup } from '../../../components/ui/InfoPopup';
import type { FieldErrors } from '../../../lib/api-error';
import { useMasterWrites } from '../api/master-data';
import { routeServerError } from './forms';

type CreateInput = Parameters<ReturnType<typeof useMasterWrites>['create']['mutateAsync']>[0]['body'];
type UpdateInput = Parameters<ReturnType<typeof useMasterWrites>['update']['mutateAsync']>[0]['body'];

interface WriteOptions {
  /** The pop-up shown once the record is stored ('Category added', 'Supplier updated'). */
  success: string;
  /** The form's fields: a refusal of one of them shows under it, any other in a pop-up. */
  shown: ReadonlyArray<string>;
  /** Field errors to show when the refusal names no field (rules.md 8: an edit's 'Something went wrong'). */
  unnamed?: FieldErrors;
  setServerErrors(errors: FieldErrors): void;
}

/**
 * The add forms' and edit pop-ups' one way to store a record: the success pop-up, or the server's refusal routed
 * to the form's fields (`routeServerError`). Each call resolves whether the record was stored.
 */
export function useMasterWrite() {
  const writes = useMasterWrites();
  const info = useInfoPopup();
  const run = async (kind: CreateInput['kind'], write: () => Promise<unknown>, options: WriteOptions): Promise<boolean> => {
    try {
      await write();
      info.show(options.success, 'success');
      return true;
    } catch (err) {
      const route = routeServerError(kind, err, options.shown, options.unnamed);
      options.setServerErrors(route.fields);
      if (route.popup) info.show(route.popup, 'error');
      return false;
    }
  };
  return {
    /** POST: in `companyId`, or the active company when undefined. */
    create: (companyId: string | undefined, body: CreateInput, options: WriteOptions) =>
      run(body.kind, () => writes.create.mutateAsync({ companyId, body }), options),
    /** PUT of the record's changed fields. */
    update: (companyId: string, body: UpdateInput, options: WriteOptions) => run(body.kind, () => writes.update.mutateAsync({ companyId, body }), options),
  };
}
