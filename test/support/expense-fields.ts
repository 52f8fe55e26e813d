import type { AnalyzeExpenseResult } from '../../lambdas/core/recognition/types';

/** A summary field of a recognition result: its text and the centre of its box (fractions of the page). */
export function summaryField(result: AnalyzeExpenseResult, type: string) {
  const f = result.ExpenseDocuments![0]!.SummaryFields!.find((s) => s.Type?.Text === type)!;
  const b = f.ValueDetection!.Geometry!.BoundingBox!;
  return { text: f.ValueDetection!.Text, centre: { x: b.Left! + b.Width! / 2, y: b.Top! + b.Height! / 2 } };
}
