import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import type { Construct } from 'constructs';
import { HandlerFunction } from '../constructs/handler-function';
import { Operations, type MonitoredFunction, type MonitoredQueue } from '../constructs/operations';

export interface OperationsStackProps extends StackProps {
  /** The stacks whose functions and dead-letter queues are watched (every function and DLQ found in them). */
  watched: readonly Stack[];
  httpApi: HttpApi;
  table: ITable;
  /** Context `alarmEmail`: where alarms are sent. */
  alarmEmail?: string;
}

function all(scopes: readonly IConstruct[]): IConstruct[] {
  return scopes.flatMap((s) => s.node.findAll());
}

/** Every handler function in the watched stacks, labelled by its handler file (and route, for HTTP routes). */
export function monitoredFunctions(scopes: readonly IConstruct[]): MonitoredFunction[] {
  return all(scopes)
    .filter((c): c is HandlerFunction => c instanceof HandlerFunction)
    .map((fn) => ({ label: fn.handlerPath, fn }));
}

/** Every dead-letter queue in the watched stacks (a queue some other queue redrives to), labelled by its id. */
export function deadLetterQueues(scopes: readonly IConstruct[]): MonitoredQueue[] {
  const found = new Map<Queue, string>();
  for (const c of all(scopes)) {
    if (!(c instanceof Queue) || !c.deadLetterQueue) continue;
    const dlq = c.deadLetterQueue.queue;
    if (dlq instanceof Queue) found.set(dlq, `${Stack.of(dlq).stackName}/${dlq.node.id}`);
  }
  return [...found].map(([queue, label]) => ({ queue, label }));
}

/**
 * Operations: alarms (dead letters, Lambda errors and throttles, API 5xx rate and latency, DynamoDB throttles,
 * Textract failures) to one SNS topic, and one dashboard. Last in the chain: it only reads the others' names.
 * Functions and queues are found in the watched stacks, so a new route, job or queue is watched without an edit here.
 */
export class OperationsStack extends Stack {
  readonly operations: Operations;

  constructor(scope: Construct, id: string, props: OperationsStackProps) {
    super(scope, id, props);
    this.operations = new Operations(this, 'Operations', {
      functions: monitoredFunctions(props.watched),
      deadLetterQueues: deadLetterQueues(props.watched),
      httpApi: props.httpApi,
      table: props.table,
      alarmEmail: props.alarmEmail,
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.operations.topic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: this.operations.dashboard.dashboardName });
  }
}
