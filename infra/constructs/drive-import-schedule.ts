import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { HandlerBundle } from '../build/bundle-handlers';
import { HandlerFunction, type HandlerResources } from './handler-function';

/** How often watched Google Drive and Dropbox folders are read (the providers' change cursors make each read cheap). */
export const DRIVE_IMPORT_RATE = Duration.minutes(5);
/** A run reads a bounded number of change pages per import; a run that is still going when the next fires holds its lease. */
export const DRIVE_IMPORT_TIMEOUT = Duration.minutes(4);

export interface DriveImportScheduleProps {
  bundle: HandlerBundle;
  /** jobHandlers.importDriveFiles of shared/routes.ts. */
  handler: string;
  resources: HandlerResources;
}

/**
 * Google Drive and Dropbox imports: an EventBridge schedule → the import job Lambda (lambdas/jobs/import-drive-files.ts).
 * One concurrent run at most (reserved concurrency 1); the job itself is safe to run twice (leases and
 * conditional writes), so EventBridge's at-least-once delivery and its retries create nothing twice.
 */
export class DriveImportSchedule extends Construct {
  readonly fn: HandlerFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: DriveImportScheduleProps) {
    super(scope, id);
    this.fn = new HandlerFunction(this, 'ImportDriveFilesFn', {
      handler: props.handler,
      bundle: props.bundle,
      description: `EventBridge rate(${DRIVE_IMPORT_RATE.toMinutes()} minutes) → lambdas/${props.handler}.ts`,
      timeout: DRIVE_IMPORT_TIMEOUT,
      memorySize: 1024,
      resources: props.resources,
    });
    this.rule = new Rule(this, 'DriveImportRule', {
      description: 'Reads the watched Google Drive and Dropbox folders of every company',
      schedule: Schedule.rate(DRIVE_IMPORT_RATE),
    });
    this.rule.addTarget(new LambdaTarget(this.fn, { retryAttempts: 2, maxEventAge: Duration.minutes(10) }));
  }
}
