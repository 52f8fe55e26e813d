import { updateSchemaSchema } from '../../../shared/schemas/content';
import { updateCompanySchema } from '../../core/content/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';
import { contentPorts } from '../receipts/content-ports';

/** PUT /schemas: only the changed datapoints (id, constraints.required, hidden); company administrators. */
export const handler = httpHandler({
  route: 'PUT /schemas',
  body: updateSchemaSchema,
  async run({ body, caller, deps }) {
    return updateCompanySchema(contentPorts(deps), requireCompany(caller), body);
  },
});
