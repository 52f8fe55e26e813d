import { adminCompanyPathSchema, updateVatAccountSchema } from '../../../shared/schemas/admin';
import { updateVatAccount } from '../../core/admin/admin';
import { httpHandler } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'POST /admin/companies/{id}/updateVATAccount',
  path: adminCompanyPathSchema,
  body: updateVatAccountSchema,
  async run({ path, body, deps }) {
    return updateVatAccount(deps, path.id, body.vat_account);
  },
});
