import { companyScopedQuerySchema, exportXmlBodySchema } from '../../../shared/schemas/receipts';
import { exportXml } from '../../core/documents/bulk';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** POST /receipts/export-xml: the selected documents as the product's XML (application/xml). */
export const handler = httpHandler({
  route: 'POST /receipts/export-xml',
  response: { contentType: 'application/xml', description: 'The XML file (attachment)' },
  query: companyScopedQuerySchema,
  body: exportXmlBodySchema,
  async run({ body, caller, deps }) {
    const xml = await exportXml(deps, requireCaller(caller), body.receipt_ids);
    const name = `documents-${deps.clock.now().toISOString().slice(0, 10)}.xml`;
    return {
      raw: true as const,
      statusCode: 200,
      headers: { 'content-type': 'application/xml; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` },
      body: xml,
    };
  },
});
