import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods } from 'aws-cdk-lib/aws-s3';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { EMAIL_IN_PREFIX } from '../../shared/constants';
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../../shared/table';
import { OFFICE_CONVERSION_EXPIRY_DAYS, OFFICE_CONVERSION_PREFIX } from '../../shared/schemas/office-conversion';
import { IMPORT_PREFIXES } from '../constructs/import-job';

export interface DataStackProps extends StackProps {
  /** The SPA's origin (https://…): browsers PUT/GET documents with presigned URLs from there. */
  siteOrigin: string;
}

/** Email-in: days a raw inbound message is kept in the bucket. */
export const INBOUND_MAIL_DAYS = 90;

/** Operations: days a replaced or deleted object of the documents bucket stays recoverable (noncurrent version). */
export const NONCURRENT_VERSION_DAYS = 30;

/** Master-data import workbooks (imports/…) and their noncurrent versions expire after this many days. */
export const IMPORT_EXPIRY_DAYS = 1;

/** Prefix of short-lived objects (expired after a day). */
export const TMP_PREFIX = 'tmp/';

/** The single DynamoDB table (shape from shared/table.ts) and the documents bucket. Both are retained on delete. */
export class DataStack extends Stack {
  readonly table: Table;
  readonly documentsBucket: Bucket;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      removalPolicy: RemovalPolicy.RETAIN,
      // Operations: a stack deletion or a stray `aws dynamodb delete-table` cannot drop the product's data.
      deletionProtection: true,
    });
    for (const index of GLOBAL_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    this.documentsBucket = new Bucket(this, 'DocumentsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // Operations: a replaced or deleted object stays recoverable as a noncurrent version for NONCURRENT_VERSION_DAYS.
      versioned: true,
      cors: [
        {
          allowedOrigins: [props.siteOrigin],
          allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        { id: 'expire-tmp', prefix: TMP_PREFIX, expiration: Duration.days(1) },
        // Email-in: raw messages are kept 90 days after their attachments became documents (support, audits).
        { id: 'expire-inbound-mail', prefix: EMAIL_IN_PREFIX, expiration: Duration.days(INBOUND_MAIL_DAYS) },
        { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Office previews on AWS: an office file and its PDF live here for one conversion (the job deletes them);
        // what a dead job leaves, and the versions a delete keeps, go after a day (the shorter rule wins in S3).
        {
          id: 'expire-office-conversions',
          prefix: OFFICE_CONVERSION_PREFIX,
          expiration: Duration.days(OFFICE_CONVERSION_EXPIRY_DAYS),
          noncurrentVersionExpiration: Duration.days(OFFICE_CONVERSION_EXPIRY_DAYS),
        },
        // Master-data imports: a workbook lives here for one import (the job deletes it when the import ends); what
        // an upload URL puts after that, or what a dead job leaves, and the versions a delete keeps, go after a day.
        ...IMPORT_PREFIXES.map((prefix) => ({
          id: `expire-${prefix.replace(/\W+/g, '')}`,
          prefix,
          expiration: Duration.days(IMPORT_EXPIRY_DAYS),
          noncurrentVersionExpiration: Duration.days(IMPORT_EXPIRY_DAYS),
        })),
        // Operations: old versions (replaced or deleted objects) are kept for recovery, then expire; delete markers
        // left without versions are removed.
        {
          id: 'expire-noncurrent-versions',
          noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
          expiredObjectDeleteMarker: true,
        },
      ],
    });

    // Email-in: SES's S3 action of this account (only) writes raw messages under inbound/ (EmailInStack).
    this.documentsBucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowSesEmailIn',
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['s3:PutObject'],
        resources: [this.documentsBucket.arnForObjects(`${EMAIL_IN_PREFIX}*`)],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );

    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.documentsBucket.bucketName });
  }
}
