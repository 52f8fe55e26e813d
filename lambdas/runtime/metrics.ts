/**
 * Custom CloudWatch metrics as Embedded Metric Format (EMF) log lines: Lambda's log agent turns each line into a
 * metric in the METRICS_NAMESPACE namespace, with no API call, no extra latency and no IAM grant. The same line is
 * a readable JSON log locally. The alarms on these metrics are in infra/constructs/operations.ts.
 */
import type { Recogniser } from '../core/recognition/types';

/** CloudWatch namespace of the product's own metrics. */
export const METRICS_NAMESPACE = 'Receipts';

/** Metric names the alarms and the dashboard use. */
export const METRIC_NAMES = {
  /** A Textract call (AnalyzeExpense, StartExpenseAnalysis, GetExpenseAnalysis or the job's result) failed. */
  textractFailures: 'TextractFailures',
} as const;
export type MetricName = (typeof METRIC_NAMES)[keyof typeof METRIC_NAMES];

type Unit = 'Count' | 'Milliseconds';

/**
 * The EMF document of one data point. The metric has no dimensions (one series per namespace and name, which the
 * alarm watches); `context` adds searchable fields to the log line only.
 */
export function emfLine(name: MetricName, value: number, unit: Unit, context: Record<string, string> = {}, now = Date.now()) {
  return {
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: name, Unit: unit }] }],
    },
    ...context,
    [name]: value,
  };
}

/** Writes one data point (stdout, where Lambda's agent reads EMF). */
export function putMetric(name: MetricName, value: number, unit: Unit = 'Count', context: Record<string, string> = {}): void {
  console.log(JSON.stringify(emfLine(name, value, unit, context)));
}

/** A recogniser that counts its failures in `metric` (one data point per failed document), then rethrows. */
export function countingFailures(recogniser: Recogniser, metric: MetricName): Recogniser {
  return {
    async analyzeExpense(input) {
      try {
        return await recogniser.analyzeExpense(input);
      } catch (error) {
        putMetric(metric, 1, 'Count', { errorName: String((error as { name?: string })?.name ?? 'Error').slice(0, 64) });
        throw error;
      }
    },
  };
}
