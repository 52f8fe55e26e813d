/**
 * Review and export settings in the single table: a company's schema overrides (C1, C5), its grid
 * templates (C2) and its current code (C3). Document content itself is JSON in S3 referenced by the document
 * record (content_key), written by the content service through the documents file store.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ContentSettings, GridTemplate } from '../../core/content/ports';
import type { SchemaOverrides } from '../../core/content/schema';
import { ddb } from './client';
import { keys } from './keys';
import { tableName, writeIf } from './table-ops';

export const ddbContentSettings: ContentSettings = {
  async getSchemaOverrides(companyId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.contentSchema(companyId) }));
    return (res.Item?.overrides as SchemaOverrides | undefined) ?? {};
  },

  async readSchemaOverrides(companyId) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.contentSchema(companyId), ConsistentRead: true }));
    return { overrides: (res.Item?.overrides as SchemaOverrides | undefined) ?? {}, version: Number(res.Item?.version ?? 0) };
  },

  async putSchemaOverrides(companyId, overrides, meta, version) {
    return writeIf(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.contentSchema(companyId), type: 'CONTENT_SCHEMA', company_id: companyId, overrides, ...meta, version: version + 1 },
        // Items written before the version existed count as version 0.
        ConditionExpression: version === 0 ? 'attribute_not_exists(#version)' : '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ...(version === 0 ? {} : { ExpressionAttributeValues: { ':version': version } }),
      }),
    );
  },

  async getGridTemplate(companyId, templateKey) {
    const res = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.gridTemplate(companyId, templateKey) }));
    if (!res.Item) return undefined;
    const { key, grid, updated_at, updated_by, source_receipt_id } = res.Item as GridTemplate;
    return { key, grid, updated_at, updated_by, source_receipt_id };
  },

  async getCompany(companyId) {
    const res = await ddb().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.company(companyId),
        ProjectionExpression: '#name, #code',
        ExpressionAttributeNames: { '#name': 'name', '#code': 'code' },
      }),
    );
    if (!res.Item) return undefined;
    return { name: typeof res.Item.name === 'string' ? res.Item.name : '', code: typeof res.Item.code === 'string' ? res.Item.code : '' };
  },

  async putGridTemplate(companyId, template) {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.gridTemplate(companyId, template.key), type: 'GRID_TEMPLATE', company_id: companyId, ...template },
      }),
    );
  },
};
