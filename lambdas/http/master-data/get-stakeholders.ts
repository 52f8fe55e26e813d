import { stakeholdersQuerySchema } from '../../../shared/schemas/master-data';
import { listStakeholders } from '../../core/master-data/stakeholders';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** GET /stakeholders: suppliers and/or customers sorted by name, 50 a page; search_name, with_external_data, selected=ALL. */
export const handler = httpHandler({
  route: 'GET /stakeholders',
  query: stakeholdersQuerySchema,
  async run({ query, caller, deps }) {
    return listStakeholders(deps, requireCaller(caller), query);
  },
});
