import { platformStatistics } from '../../core/admin/admin';
import { httpHandler } from '../../runtime/http-handler';

export const handler = httpHandler({
  route: 'GET /admin/statistics',
  async run({ deps }) {
    return platformStatistics(deps);
  },
});
