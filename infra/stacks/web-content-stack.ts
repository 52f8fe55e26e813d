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
 * revalidated on every load, with a CloudFront invalidation.
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
        sources: [Source.asset(props.webDistDir, { exclude: ['index.html'] })],
        prune: false,
        cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(Duration.days(365)), CacheControl.immutable()],
        memoryLimit: 512,
      });
    }

    const entry = new BucketDeployment(this, 'SpaEntry', {
      destinationBucket: props.siteBucket,
      sources: [
        Source.jsonData('config.json', props.config),
        ...(this.deploysSpa ? [Source.data('index.html', readFileSync(join(props.webDistDir, 'index.html'), 'utf8'))] : []),
      ],
      prune: false,
      cacheControl: [CacheControl.noCache()],
      memoryLimit: 512,
      distribution: props.distribution,
      distributionPaths: ['/', '/index.html', '/config.json'],
    });
    // index.html must not point at assets that are not uploaded yet.
    if (assets) entry.node.addDependency(assets);
  }
}
