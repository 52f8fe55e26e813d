import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGION } from '../../infra/stacks/receipts-stacks';
import { openApiWithServer, WebContentStack } from '../../infra/stacks/web-content-stack';
import { WebStack } from '../../infra/stacks/web-stack';
import { fakeWebDist, newApp, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('WebStack', () => {
  let s: Synth;
  beforeAll(async () => {
    s = await synthReceipts();
  }, SYNTH_TIMEOUT_MS);

  it('keeps the SPA in a private bucket', () => {
    s.web.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    expect(Object.values(resourcesOf(s.web, 'AWS::S3::Bucket')).every((b) => b.Properties.WebsiteConfiguration === undefined)).toBe(true);
  });

  it('serves it through CloudFront with Origin Access Control, HTTPS and index.html as root', () => {
    s.web.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    s.web.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    const [oacId] = Object.keys(resourcesOf(s.web, 'AWS::CloudFront::OriginAccessControl'));
    s.web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        Origins: [Match.objectLike({ OriginAccessControlId: { 'Fn::GetAtt': [oacId, 'Id'] }, S3OriginConfig: Match.anyValue() })],
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }),
      }),
    });
  });

  it('has the SPA fallback: 403 and 404 answer /index.html with 200', () => {
    const [distribution] = Object.values(resourcesOf(s.web, 'AWS::CloudFront::Distribution'));
    const responses = (distribution!.Properties.DistributionConfig as { CustomErrorResponses: Array<Record<string, unknown>> })
      .CustomErrorResponses;
    for (const code of [403, 404]) {
      expect(responses).toContainEqual(expect.objectContaining({ ErrorCode: code, ResponseCode: 200, ResponsePagePath: '/index.html' }));
    }
  });

  it('lets only this distribution read the bucket', () => {
    s.web.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Action: 's3:GetObject',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('outputs the distribution domain', () => {
    s.web.hasOutput('DistributionDomainName', { Value: { 'Fn::GetAtt': [Match.anyValue(), 'DomainName'] } });
  });
});

describe('WebContentStack', () => {
  let s: Synth;
  beforeAll(async () => {
    s = await synthReceipts();
  }, SYNTH_TIMEOUT_MS);

  it('deploys /config.json with the API URL, WebSocket URL, pool id and client id, and invalidates it', () => {
    const deployments = Object.values(resourcesOf(s.webContent, 'Custom::CDKBucketDeployment'));
    const entry = deployments.find((d) => d.Properties.DistributionId !== undefined);
    expect(entry).toBeDefined();
    const markers = JSON.stringify(entry!.Properties.SourceMarkers);
    expect(markers).toMatch(/HttpApi.*ApiEndpoint/);
    expect(markers).toMatch(/wss:\/\//);
    expect(markers).toMatch(/UserPool(?!WebClient)/);
    expect(markers).toMatch(/UserPoolWebClient/);
    expect(entry!.Properties.DistributionPaths).toEqual(expect.arrayContaining(['/index.html', '/config.json']));
    expect(entry!.Properties.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(s.stacks.webContent.deploysSpa).toBe(true);
  });

  it('deploys the built SPA assets (long-lived cache), without pruning either deployment', () => {
    const deployments = Object.values(resourcesOf(s.webContent, 'Custom::CDKBucketDeployment'));
    expect(deployments).toHaveLength(2);
    for (const d of deployments) expect(d.Properties.Prune).toBe(false);
    const assets = deployments.find((d) => d.Properties.DistributionId === undefined)!;
    expect(assets.Properties.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
  });

  it('publishes the OpenAPI document at /api/openapi.json with the deployed API as its server, revalidated', () => {
    const deployments = Object.values(resourcesOf(s.webContent, 'Custom::CDKBucketDeployment'));
    const entry = deployments.find((d) => d.Properties.DistributionId !== undefined)!;
    expect(entry.Properties.DistributionPaths).toEqual(expect.arrayContaining(['/api/openapi.json']));
    expect(entry.Properties.SourceObjectKeys).toHaveLength(3);
    const openApi = openApiWithServer(fakeWebDist(), 'https://api.example.com');
    expect(openApi).toMatchObject({ openapi: '3.1.0', servers: [{ url: 'https://api.example.com' }], paths: { '/companies': {} } });
    // The API URL is a deploy-time value: the document's marker points at the HTTP API's endpoint.
    expect(JSON.stringify(entry.Properties.SourceMarkers)).toMatch(/HttpApi.*ApiEndpoint/);
  });

  it('deploys only /config.json when web/dist has not been built', () => {
    const app: App = newApp();
    const env = { region: REGION };
    const web = new WebStack(app, 'W', { env });
    const content = new WebContentStack(app, 'C', {
      env,
      siteBucket: web.siteBucket,
      distribution: web.distribution,
      webDistDir: '/nonexistent/web/dist',
      config: {
        apiUrl: 'https://api.example.com',
        wsUrl: 'wss://ws.example.com/live',
        region: REGION,
        userPoolId: 'eu-west-1_abc',
        userPoolClientId: 'client',
      },
    });
    expect(content.deploysSpa).toBe(false);
    const template = Template.fromStack(content);
    template.resourceCountIs('Custom::CDKBucketDeployment', 1);
    const [only] = Object.values(resourcesOf(template, 'Custom::CDKBucketDeployment'));
    expect(only!.Properties.SourceObjectKeys).toHaveLength(1);
  });
});
