import { contentPathSchema, useGridTemplateSchema } from '../../../shared/schemas/content';
import { useGridTemplate } from '../../core/content/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';
import { contentPorts } from './content-ports';

/** PUT /receipts/{id}/template/grid: applies the saved template of the document's supplier (customer). */
export const handler = httpHandler({
  route: 'PUT /receipts/{id}/template/grid',
  path: contentPathSchema,
  body: useGridTemplateSchema,
  async run({ path, body, caller, deps }) {
    return useGridTemplate(contentPorts(deps), requireCaller(caller), path.id, body.version, body.content_id);
  },
});
