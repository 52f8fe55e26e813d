import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  SingleValueWidget,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC_NAMES, METRICS_NAMESPACE } from '../../lambdas/runtime/metrics';

/** Thresholds of the alarms (README "Operations" says what each means and what to do). */
export const ALARM_THRESHOLDS = {
  /** Any message in a dead-letter queue: a document, mail, export or import that failed every delivery. */
  deadLetterMessages: 1,
  /** Unhandled errors (crash, timeout, out of memory) of one function in 5 minutes. */
  lambdaErrors: 1,
  /** Throttled invocations of one function in 5 minutes. */
  lambdaThrottles: 1,
  /** Percentage of HTTP API responses that are 5xx, over 5 minutes, when there were at least API_5XX_MIN_REQUESTS. */
  api5xxPercent: 5,
  api5xxMinRequests: 20,
  /** p95 latency of the HTTP API in ms, three 5-minute periods in a row. */
  apiLatencyP95Ms: 3000,
  /** DynamoDB read or write throttle events on the table or its indexes in 5 minutes. */
  dynamoThrottles: 1,
  /** Failed Textract analyses in 15 minutes (a Textract outage or quota, not one unreadable file). */
  textractFailures: 3,
} as const;

const FIVE_MINUTES = Duration.minutes(5);

export interface MonitoredFunction {
  /** What the operator reads in the alarm, e.g. `GET /receipts` or `jobs/process-document`. */
  label: string;
  fn: IFunction;
}

export interface MonitoredQueue {
  label: string;
  queue: IQueue;
}

export interface OperationsProps {
  functions: readonly MonitoredFunction[];
  deadLetterQueues: readonly MonitoredQueue[];
  httpApi: HttpApi;
  table: ITable;
  /** Subscriber of the alarm topic (context `alarmEmail`); without it the topic has no subscription. */
  alarmEmail?: string;
}

/** Alarm names: readable in the e-mail subject, unique per stack, within CloudWatch's 255 characters. */
function alarmName(stack: Stack, what: string): string {
  return `${stack.stackName} ${what}`.replace(/[^A-Za-z0-9 _./{}$#:+-]/g, '-').slice(0, 255);
}

/**
 * What an operator sees: one SNS topic every alarm (and its recovery) is sent to, an e-mail subscription from
 * deploy-time context, the alarms of ALARM_THRESHOLDS and one CloudWatch dashboard.
 */
export class Operations extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'Receipts alarms', enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const alarm = (cid: string, what: string, metric: IMetric, threshold: number, options: { periods?: number; description: string }) => {
      const a = new Alarm(this, cid, {
        alarmName: alarmName(stack, what),
        alarmDescription: options.description,
        metric,
        threshold,
        evaluationPeriods: options.periods ?? 1,
        datapointsToAlarm: options.periods ?? 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      a.addOkAction(action);
      this.alarms.push(a);
      return a;
    };

    // Dead-letter queues.
    props.deadLetterQueues.forEach(({ label, queue }, i) => {
      alarm(
        `DeadLetters${i}`,
        `dead letters: ${label}`,
        queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        ALARM_THRESHOLDS.deadLetterMessages,
        { description: `Messages in the ${label} dead-letter queue: they failed every delivery. README → Operations → Dead letters.` },
      );
    });

    // Lambda errors and throttles, per function.
    props.functions.forEach(({ label, fn }, i) => {
      alarm(`Errors${i}`, `errors: ${label}`, fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }), ALARM_THRESHOLDS.lambdaErrors, {
        description: `Unhandled errors (crash, timeout, out of memory) of ${label}. README → Operations → Lambda errors.`,
      });
      alarm(`Throttles${i}`, `throttles: ${label}`, fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }), ALARM_THRESHOLDS.lambdaThrottles, {
        description: `Throttled invocations of ${label} (account or function concurrency). README → Operations → Throttles.`,
      });
    });

    // HTTP API: 5xx rate and latency.
    const requests = props.httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrorRate = new MathExpression({
      expression: `IF(requests >= ${ALARM_THRESHOLDS.api5xxMinRequests}, 100 * errors / requests, 0)`,
      usingMetrics: { requests, errors: serverErrors },
      label: 'HTTP API 5xx %',
      period: FIVE_MINUTES,
    });
    alarm('Api5xxRate', 'HTTP API 5xx rate', serverErrorRate, ALARM_THRESHOLDS.api5xxPercent, {
      description: `More than ${ALARM_THRESHOLDS.api5xxPercent}% of HTTP API responses were 5xx. README → Operations → API errors.`,
    });
    const latency = props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p95' });
    alarm('ApiLatency', 'HTTP API latency p95', latency, ALARM_THRESHOLDS.apiLatencyP95Ms, {
      periods: 3,
      description: `HTTP API p95 latency over ${ALARM_THRESHOLDS.apiLatencyP95Ms} ms for 15 minutes. README → Operations → Latency.`,
    });

    // DynamoDB throttles (table and its global secondary indexes).
    const tableMetric = (metricName: string) =>
      new Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap: { TableName: props.table.tableName }, period: FIVE_MINUTES, statistic: 'Sum' });
    const dynamoThrottles = new MathExpression({
      expression: 'FILL(reads, 0) + FILL(writes, 0)',
      usingMetrics: { reads: tableMetric('ReadThrottleEvents'), writes: tableMetric('WriteThrottleEvents') },
      label: 'DynamoDB throttle events',
      period: FIVE_MINUTES,
    });
    alarm('DynamoThrottles', 'DynamoDB throttles', dynamoThrottles, ALARM_THRESHOLDS.dynamoThrottles, {
      description: 'Read or write requests to the table were throttled. README → Operations → DynamoDB throttles.',
    });

    // Textract failures, counted by the processing job (lambdas/runtime/metrics.ts).
    const textractFailures = new Metric({
      namespace: METRICS_NAMESPACE,
      metricName: METRIC_NAMES.textractFailures,
      period: Duration.minutes(15),
      statistic: 'Sum',
    });
    alarm('TextractFailures', 'Textract failures', textractFailures, ALARM_THRESHOLDS.textractFailures, {
      description: 'Textract analyses failed (outage, quota or permissions). README → Operations → Textract failures.',
    });

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${stack.stackName}-operations`.slice(0, 255) });
    // Every function of this deployment (their names start with the stacks' prefix).
    const lambdaSearch = (metricName: string, statistic = 'Sum') =>
      new MathExpression({
        expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" ${stack.stackName.replace(/Operations$/, '')}', '${statistic}', 300)`,
        label: metricName,
        period: FIVE_MINUTES,
      });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          '# Receipts operations\nAlarms go to the SNS topic of this stack (README → Operations). ' +
          'Dead letters, Lambda errors and Textract failures need a look the same day.',
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'HTTP API requests and 5xx', left: [requests, serverErrors], right: [serverErrorRate], width: 8 }),
      new GraphWidget({
        title: 'HTTP API latency',
        left: [
          props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p50' }),
          latency,
          props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
        ],
        width: 8,
      }),
      new GraphWidget({ title: 'HTTP API 4xx', left: [props.httpApi.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' })], width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Lambda errors (by function)', left: [lambdaSearch('Errors')], width: 8 }),
      new GraphWidget({ title: 'Lambda throttles (by function)', left: [lambdaSearch('Throttles')], width: 8 }),
      new GraphWidget({ title: 'Lambda duration p95 (by function)', left: [lambdaSearch('Duration', 'p95')], width: 8 }),
    );
    this.dashboard.addWidgets(
      new SingleValueWidget({
        title: 'Dead-letter queues (messages)',
        metrics: props.deadLetterQueues.map(({ label, queue }) =>
          queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum', label }),
        ),
        width: 8,
      }),
      new GraphWidget({
        title: 'DynamoDB',
        left: [dynamoThrottles],
        right: [tableMetric('ConsumedReadCapacityUnits'), tableMetric('ConsumedWriteCapacityUnits')],
        width: 8,
      }),
      new GraphWidget({ title: 'Textract failures', left: [textractFailures], width: 8 }),
    );
  }
}
