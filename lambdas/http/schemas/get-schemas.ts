import { schemaResponseSchema } from '../../../shared/schemas/content';
import { getCompanySchema } from '../../core/content/service';
import { httpHandler, requireCompany } from '../../runtime/http-handler';
import { contentPorts } from '../receipts/content-ports';

/** GET /schemas: the company's document schema (defaults with its Visible/Required settings). */
export const handler = httpHandler({
  route: 'GET /schemas',
  response: { schema: schemaResponseSchema },
  async run({ caller, deps }) {
    return getCompanySchema(contentPorts(deps), requireCompany(caller).companyId);
  },
});
