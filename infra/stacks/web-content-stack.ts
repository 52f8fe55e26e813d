import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';

/** What the SPA reads from /config.json (web/src/lib/config.ts). */
export interface SiteConfig {
  apiUrl: string;
  wsUrl: string;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
}

export interface WebContentStackProps extends StackProps {
  siteBucket: IBucket;
  distribution: IDistribution;
  config: SiteConfig;
  /** web/dist; when it holds no index.html only /config.json is deployed (run `npm run build:web` first). */
  webDistDir: string;
}

/** OpenAPI: the document the web build writes (scripts/openapi), published at <site>/api/openapi.json. */
export const OPENAPI_FILE = 'api/openapi.json';

/** The built OpenAPI document with the deployed API as its server; undefined when the build has none. */
export function openApiWithServer(webDistDir: string, apiUrl: string): Record<string, unknown> | undefined {
  const file = join(webDistDir, OPENAPI_FILE);
  if (!existsSync(file)) return undefined;
  const document = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return { ...document, servers: [{ url: apiUrl, description: 'Receipts HTTP API' }] };
}

export function hasWebBuild(webDistDir: string): boolean {
  return existsSync(join(webDistDir, 'index.html'));
}

/**
 * The SPA's files and /config.json, deployed into WebStack's bucket. A separate stack because config.json
 * needs the API's URLs and the pool's ids, while the API and the documents bucket need the distribution's
 * origin for CORS: WebStack → Data/Auth/Api → WebContentStack has no cycle.
 *
 * Two deployments, both without pruning (each must not delete the other's files, and old hashed assets stay
 * for clients still running the previous build): hashed assets cached for a year, index.html + config.json
 * revalidated on every load, with a CloudFront invalidation. The API's OpenAPI document (api/openapi.json, written by
 * the web build) goes with config.json, its `servers` set to the deployed API's URL.
 */
export class WebContentStack extends Stack {
  readonly deploysSpa: boolean;

  constructor(scope: Construct, id: string, props: WebContentStackProps) {
    super(scope, id, props);
    this.deploysSpa = hasWebBuild(props.webDistDir);

    let assets: BucketDeployment | undefined;
    if (this.deploysSpa) {
      assets = new BucketDeployment(this, 'SpaAssets', {
        destinationBucket: props.siteBucket,
        sources: [Source.asset(props.webDistDir, { exclude: ['index.html', OPENAPI_FILE] })],
        prune: false,
        cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(Duration.days(365)), CacheControl.immutable()],
        memoryLimit: 512,
      });
    }

    // OpenAPI: revalidated like config.json (not hashed), its server the deployed API's URL.
    const openApi = openApiWithServer(props.webDistDir, props.config.apiUrl);
    const entry = new BucketDeployment(this, 'SpaEntry', {
      destinationBucket: props.siteBucket,
      sources: [
        Source.jsonData('config.json', props.config),
        ...(this.deploysSpa ? [Source.data('index.html', readFileSync(join(props.webDistDir, 'index.html'), 'utf8'))] : []),
        ...(openApi ? [Source.jsonData(OPENAPI_FILE, openApi)] : []),
      ],
      prune: false,
      cacheControl: [CacheControl.noCache()],
      memoryLimit: 512,
      distribution: props.distribution,
      distributionPaths: ['/', '/index.html', '/config.json', ...(openApi ? [`/${OPENAPI_FILE}`] : [])],
    });
    // index.html must not point at assets that are not uploaded yet.
    if (assets) entry.node.addDependency(assets);
  }
}
