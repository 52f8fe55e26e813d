import { companyScopedQuerySchema, receiptIdPathSchema, selectCompanyBodySchema } from '../../../shared/schemas/receipts';
import { selectCompany } from '../../core/documents/workflow';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipts/{id}/company: an unassigned document gets a company (new receipt id, status review). */
export const handler = httpHandler({
  route: 'POST /receipts/{id}/company',
  path: receiptIdPathSchema,
  query: companyScopedQuerySchema,
  body: selectCompanyBodySchema,
  async run({ path, body, caller, deps, log }) {
    return selectCompany({ ...deps, log }, requireCaller(caller), path.id, body.company_id, body.version);
  },
});
