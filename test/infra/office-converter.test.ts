/**
 * Office previews on AWS: the office converter is a container image function (LibreOffice) on arm64, built by CDK at
 * deploy time from a context written at synth (no Docker needed to synthesise); the processing job knows its name
 * and may invoke it and nothing else of Lambda; the converter may read and write the office-conversion/ objects of
 * the documents bucket and nothing else; those objects expire after a day; the converter is watched like every
 * other function.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_FUNCTION_DIR } from '../../infra/build/image-context';
import { OFFICE_CONVERTER, PROCESS_DOCUMENT_TIMEOUT } from '../../infra/stacks/processing-stack';
import { monitoredFunctions } from '../../infra/stacks/operations-stack';
import { ENV_NAMES } from '../../lambdas/runtime/env';
import { DEFAULT_TIMEOUT_MS } from '../../lambdas/adapters/libreoffice';
import { jobHandlers } from '../../shared/routes';
import { OFFICE_CONVERSION_EXPIRY_DAYS, OFFICE_CONVERSION_PREFIX } from '../../shared/schemas/office-conversion';
import { grantsOf, logicalIdOf, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

interface DockerImageAsset {
  source: { directory: string; platform?: string };
}

describe('office converter (container image with LibreOffice)', () => {
  let s: Synth;
  let converterId: string;
  let props: Record<string, unknown>;
  let image: DockerImageAsset;
  beforeAll(async () => {
    s = await synthReceipts();
    const fn = s.stacks.processing.officeConverter!;
    converterId = logicalIdOf(fn);
    props = resourcesOf(s.processing, 'AWS::Lambda::Function')[converterId]!.Properties;
    // The processing stack's asset manifest: what `cdk deploy` builds and publishes.
    const assembly = (s.stacks.processing.node.root as App).synth();
    const manifestArtifact = assembly.getStackArtifact(s.stacks.processing.artifactId).dependencies.find((d) => d.id.endsWith('.assets'))!;
    const manifest = JSON.parse(readFileSync(join(assembly.directory, `${manifestArtifact.id}.json`), 'utf8')) as { dockerImages: Record<string, DockerImageAsset> };
    const images = Object.values(manifest.dockerImages);
    expect(images).toHaveLength(1);
    image = images[0]!;
  }, SYNTH_TIMEOUT_MS);

  it('runs jobs/convert-office from a container image on arm64, with the memory, time and /tmp LibreOffice needs', () => {
    expect(s.stacks.processing.officeConverter!.handlerPath).toBe(jobHandlers.convertOffice);
    expect(props).toMatchObject({
      PackageType: 'Image',
      Architectures: ['arm64'],
      MemorySize: 2048,
      Timeout: OFFICE_CONVERTER.timeout.toSeconds(),
      EphemeralStorage: { Size: 1024 },
      TracingConfig: { Mode: 'Active' },
    });
    expect(props.Runtime).toBeUndefined();
    expect(props.Handler).toBeUndefined();
    expect(JSON.stringify(props.Code)).toMatch(/ImageUri/);
    // LibreOffice is stopped before the function's timeout, and the conversion fits in the processing job's.
    expect(DEFAULT_TIMEOUT_MS / 1000).toBeLessThan(OFFICE_CONVERTER.timeout.toSeconds());
    expect(OFFICE_CONVERTER.timeout.toSeconds() * 2).toBeLessThan(PROCESS_DOCUMENT_TIMEOUT.toSeconds());
  });

  it('is built at deploy time for linux/arm64 from a context with the Dockerfile and the handler’s bundle (synth needs no Docker)', () => {
    expect(image.source.platform).toBe('linux/arm64');
    const dir = image.source.directory;
    expect(existsSync(join(dir, 'Dockerfile'))).toBe(true);
    expect(statSync(join(dir, 'lambda-entrypoint.sh')).mode & 0o111).not.toBe(0);
    const built = s.bundle.get(jobHandlers.convertOffice);
    expect(readFileSync(join(dir, IMAGE_FUNCTION_DIR, 'index.mjs'))).toEqual(readFileSync(join(built.dir, 'index.mjs')));
    const dockerfile = readFileSync(join(dir, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=public\.ecr\.aws\/docker\/library\/node:22-bookworm-slim$/m);
    expect(dockerfile).toMatch(/libreoffice-writer-nogui libreoffice-calc-nogui/);
    expect(dockerfile).toMatch(/aws-lambda-ric@\d+\.\d+\.\d+/);
    expect(dockerfile).toMatch(/^COPY function\/ \/var\/task\/$/m);
    expect(dockerfile).toMatch(/^CMD \["index\.handler"\]$/m);
  });

  it('bundles no DynamoDB client and ships no native package: the converter only reads and writes S3', () => {
    const built = s.bundle.get(jobHandlers.convertOffice);
    expect(built.awsSdkPackages.filter((p) => p.startsWith('@aws-sdk/client-'))).toEqual(['@aws-sdk/client-s3']);
    expect(built.shippedPackages).toEqual([]);
    expect(built.declaredNeeds).toEqual(['officeConversion']);
  });

  it('may read and write the office-conversion/ objects of the documents bucket, and nothing else', () => {
    const grants = grantsOf(s.processing, s.stacks.processing.officeConverter!);
    const own = grants.filter((g) => !g.actions.every((a) => a.startsWith('xray:')));
    expect(own).toHaveLength(1);
    expect(own[0]!.actions.sort()).toEqual(['s3:GetObject', 's3:PutObject']);
    expect(own[0]!.resources).toHaveLength(1);
    const resource = JSON.stringify(own[0]!.resources[0]);
    expect(resource).toMatch(/DocumentsBucket/);
    expect(resource).toContain(`/${OFFICE_CONVERSION_PREFIX}*`);
  });

  it('knows the documents bucket, and no converter of its own', () => {
    const env = (props.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env[ENV_NAMES.documentsBucket]).toBeDefined();
    expect(env[ENV_NAMES.officeConverterFunction]).toBe('');
  });

  it('is named to the processing job, which may invoke it (only it)', () => {
    const job = s.stacks.processing.processDocument!;
    const jobProps = resourcesOf(s.processing, 'AWS::Lambda::Function')[logicalIdOf(job)]!.Properties;
    expect((jobProps.Environment as { Variables: Record<string, unknown> }).Variables[ENV_NAMES.officeConverterFunction]).toEqual({ Ref: converterId });
    const invoke = grantsOf(s.processing, job).filter((g) => g.actions.some((a) => a.startsWith('lambda:')));
    expect(invoke).toEqual([{ actions: ['lambda:InvokeFunction'], resources: [{ 'Fn::GetAtt': [converterId, 'Arn'] }] }]);
    expect(job.awsNeeds.has('officeConverter')).toBe(true);
  });

  it('expires the office-conversion/ objects and their old versions after a day', () => {
    s.data.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Id: 'expire-office-conversions',
            Prefix: OFFICE_CONVERSION_PREFIX,
            Status: 'Enabled',
            ExpirationInDays: OFFICE_CONVERSION_EXPIRY_DAYS,
            NoncurrentVersionExpiration: { NoncurrentDays: OFFICE_CONVERSION_EXPIRY_DAYS },
          }),
        ]),
      },
    });
  });

  it('has its own log group and is watched by the operations alarms (errors, throttles)', () => {
    const logGroup = (props.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
    s.processing.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    expect(Object.keys(resourcesOf(s.processing, 'AWS::Logs::LogGroup'))).toContain(logGroup);
    expect(monitoredFunctions([s.stacks.processing]).map((f) => f.label)).toContain(jobHandlers.convertOffice);
    const alarms = Object.values(resourcesOf(Template.fromStack(s.stacks.operations), 'AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    const names = alarms.map((a) => String(a.AlarmName));
    expect(names).toContain(`${(s.stacks.operations as Stack).stackName} errors: ${jobHandlers.convertOffice}`);
    expect(names).toContain(`${(s.stacks.operations as Stack).stackName} throttles: ${jobHandlers.convertOffice}`);
  });
});
