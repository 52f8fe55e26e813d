import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { HandlerBundle } from '../build/bundle-handlers';
import { HandlerFunction, type HandlerResources } from './handler-function';

/** How often the schedule looks for due imports (each import is synced hourly; partial runs continue sooner). */
export const SYNC_SCHEDULE_RATE = Duration.minutes(15);
/** The job stops between pages 1 minute before this (SCHEDULE_BUDGET_MS of lambdas/jobs/sync-master-data.ts). */
export const SYNC_JOB_TIMEOUT = Duration.minutes(5);

export interface MasterDataSyncProps {
  bundle: HandlerBundle;
  /** jobHandlers.syncMasterData of shared/routes.ts. */
  handler: string;
  /** Table (state, master data) and the secrets key (the imports' credentials). */
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
  }
}
