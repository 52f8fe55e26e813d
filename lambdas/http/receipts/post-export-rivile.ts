import { companyScopedQuerySchema, exportXmlBodySchema } from '../../../shared/schemas/receipts';
import { rivileEipOf } from '../../core/integrations/rivile-eip';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipts/export-rivile: the selected documents as Rivile GAMA's EIP import file (XML fragments). */
export const handler = httpHandler({
  route: 'POST /receipts/export-rivile',
  response: { contentType: 'application/xml', description: 'The XML file (attachment)' },
  query: companyScopedQuerySchema,
  body: exportXmlBodySchema,
  async run({ body, caller, deps }) {
    const xml = await rivileEipOf(deps, requireCaller(caller), body.receipt_ids);
    const name = `rivile-eip-${deps.clock.now().toISOString().slice(0, 10)}.xml`;
    return {
      raw: true as const,
      statusCode: 200,
      headers: { 'content-type': 'application/xml; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` },
      body: xml,
    };
  },
});
