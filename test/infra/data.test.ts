import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../../shared/table';
import { IMPORT_PREFIXES } from '../../infra/constructs/import-job';
import { TMP_PREFIX } from '../../infra/stacks/data-stack';
import { removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('DataStack', () => {
  let s: Synth;
  beforeAll(async () => {
    s = await synthReceipts();
  }, SYNTH_TIMEOUT_MS);

  it('is in eu-west-1', () => {
    expect(s.stacks.data.region).toBe('eu-west-1');
  });

  describe('table', () => {
    it('has the keys of shared/table.ts, on-demand billing, PITR, TTL and is retained', () => {
      s.data.resourceCountIs('AWS::DynamoDB::Table', 1);
      s.data.hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
        Properties: Match.objectLike({
          KeySchema: [
            { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
            { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
          ],
          BillingMode: 'PAY_PER_REQUEST',
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
        }),
      });
    });

    it.each(GLOBAL_INDEXES.map((g) => [g.indexName, g]))('has GSI %s (string keys, ALL projection)', (_name, index) => {
      const [table] = Object.values(resourcesOf(s.data, 'AWS::DynamoDB::Table'));
      const gsis = table!.Properties.GlobalSecondaryIndexes as Array<Record<string, unknown>>;
      expect(gsis).toContainEqual({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
      const attributes = table!.Properties.AttributeDefinitions as Array<{ AttributeName: string; AttributeType: string }>;
      expect(attributes).toContainEqual({ AttributeName: index.partitionKey, AttributeType: 'S' });
      expect(attributes).toContainEqual({ AttributeName: index.sortKey, AttributeType: 'S' });
    });

    it('has exactly the GSIs of shared/table.ts', () => {
      const [table] = Object.values(resourcesOf(s.data, 'AWS::DynamoDB::Table'));
      const names = (table!.Properties.GlobalSecondaryIndexes as Array<{ IndexName: string }>).map((g) => g.IndexName);
      expect(names.sort()).toEqual(GLOBAL_INDEXES.map((g) => g.indexName).sort());
    });
  });

  describe('documents bucket', () => {
    it('blocks all public access, encrypts with S3-managed keys and is retained', () => {
      s.data.hasResource('AWS::S3::Bucket', {
        DeletionPolicy: 'Retain',
        Properties: Match.objectLike({
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: true,
            BlockPublicPolicy: true,
            IgnorePublicAcls: true,
            RestrictPublicBuckets: true,
          },
          BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        }),
      });
    });

    it('denies requests without TLS', () => {
      s.data.hasResourceProperties('AWS::S3::BucketPolicy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    });

    it('allows PUT/GET/HEAD from the SPA origin only (CORS)', () => {
      const [bucket] = Object.values(resourcesOf(s.data, 'AWS::S3::Bucket'));
      const rules = (bucket!.Properties.CorsConfiguration as { CorsRules: Array<Record<string, unknown>> }).CorsRules;
      expect(rules).toHaveLength(1);
      expect((rules[0]!.AllowedMethods as string[]).sort()).toEqual(['GET', 'HEAD', 'PUT']);
      const origins = rules[0]!.AllowedOrigins as unknown[];
      expect(origins).toHaveLength(1);
      // https:// + the CloudFront distribution's domain, read from WebStack.
      expect(JSON.stringify(origins[0])).toMatch(/https:\/\/.*Distribution.*DomainName/);
    });

    it('expires tmp/ after a day and aborts incomplete multipart uploads', () => {
      s.data.hasResourceProperties('AWS::S3::Bucket', {
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            Match.objectLike({ Prefix: TMP_PREFIX, ExpirationInDays: 1, Status: 'Enabled' }),
            Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
          ]),
        },
      });
    });

    it('expires master-data import uploads (imports/) and their noncurrent versions after a day', () => {
      expect(IMPORT_PREFIXES).toEqual(['imports/']);
      s.data.hasResourceProperties('AWS::S3::Bucket', {
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            Match.objectLike({ Prefix: 'imports/', ExpirationInDays: 1, NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Status: 'Enabled' }),
          ]),
        },
      });
    });
  });
});
