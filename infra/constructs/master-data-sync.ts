import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { HandlerBundle } from '../build/bundle-handlers';
import { SYNC_CONTINUE_TIMEOUT } from '../stacks/integrations-stack';
import { HandlerFunction, type HandlerResources } from './handler-function';

/** How often the schedule looks for due imports (each import is synced hourly; partial runs continue sooner). */
export const SYNC_SCHEDULE_RATE = Duration.minutes(15);
/** The job stops between pages 1 minute before this (SCHEDULE_BUDGET_MS of lambdas/jobs/sync-master-data.ts). */
export const SYNC_JOB_TIMEOUT = Duration.minutes(5);

export interface MasterDataSyncProps {
  bundle: HandlerBundle;
  /** jobHandlers.syncMasterData of shared/routes.ts. */
  handler: string;
  /** jobHandlers.continueMasterDataSync: continues runs that stopped for now, from `queue`. */
  continueHandler?: string;
  /** The sync queue (IntegrationsStack): "sync now" and the continuing job send to it. */
  queue?: IQueue;
  /** Table (state, master data), the secrets key (the imports' credentials) and the sync queue. */
  resources: HandlerResources;
}

/**
 * Master-data imports (SQL database, Rivile GAMA): an EventBridge rule runs the sync job every SYNC_SCHEDULE_RATE.
 * Runs of one import never overlap (each run holds a lease on the import's state), whether started by the schedule
 * or by "sync now".
 */
export class MasterDataSync extends Construct {
  readonly fn: HandlerFunction;
  readonly rule: Rule;
  /** The job continuing a run that stopped for now (sync queue → Lambda), so its outcome shows in minutes, not at the next schedule. */
  readonly continueFn?: HandlerFunction;

  constructor(scope: Construct, id: string, props: MasterDataSyncProps) {
    super(scope, id);
    this.fn = new HandlerFunction(this, 'SyncMasterDataFn', {
      handler: props.handler,
      bundle: props.bundle,
      description: `EventBridge schedule → lambdas/${props.handler}.ts`,
      timeout: SYNC_JOB_TIMEOUT,
      resources: props.resources,
    });
    this.rule = new Rule(this, 'SyncSchedule', {
      description: 'Receipts: master-data imports from SQL databases and Rivile GAMA',
      schedule: Schedule.rate(SYNC_SCHEDULE_RATE),
    });
    this.rule.addTarget(new LambdaTarget(this.fn, { retryAttempts: 0 }));
    if (props.continueHandler && props.queue) {
      this.continueFn = new HandlerFunction(this, 'ContinueSyncFn', {
        handler: props.continueHandler,
        bundle: props.bundle,
        description: `SQS master-data sync queue → lambdas/${props.continueHandler}.ts`,
        timeout: SYNC_CONTINUE_TIMEOUT,
        resources: props.resources,
      });
      // One import a message; two at once at most (the runs of one import never overlap: the lease).
      this.continueFn.addEventSource(new SqsEventSource(props.queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 2 }));
    }
  }
}
