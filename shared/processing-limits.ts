/**
 * Time limits of the processing job, one place for the job, its queue (infra) and local mode, so that
 * they stay aligned: Textract's wait fits in the function's timeout with room for rendering and saving,
 * the queue's visibility timeout follows AWS's advice (≥ 6 × the function timeout), and the sweeper only
 * fails documents whose messages have used up every delivery.
 */
export const PROCESSING_LIMITS = {
  /** The processing function's timeout. */
  functionTimeoutSeconds: 10 * 60,
  /** Longest wait for an asynchronous Textract job (StartExpenseAnalysis → GetExpenseAnalysis) in one delivery. */
  textractMaxWaitSeconds: 6 * 60,
  /** The uploads queue's visibility timeout: 6 × the function timeout. */
  visibilityTimeoutSeconds: 6 * 10 * 60,
  /** Deliveries of a message before it goes to the dead-letter queue. */
  maxReceiveCount: 3,
  /** How often the sweeper runs. */
  sweepEveryMinutes: 30,
  /** Office previews on AWS: the office converter function's timeout (LibreOffice itself is stopped after 60 s). */
  officeConversionSeconds: 120,
} as const;

/**
 * A document in processing without a change for longer than this is failed by the sweeper: every delivery
 * of its message (each up to the visibility timeout) has ended by then, plus a margin.
 */
export const STUCK_PROCESSING_AFTER_MS =
  (PROCESSING_LIMITS.maxReceiveCount * PROCESSING_LIMITS.visibilityTimeoutSeconds + 15 * 60) * 1000;

/** Textract's wait plus what the job does around it (download, render, save) must fit in the timeout. */
export const PROCESSING_MARGIN_SECONDS = PROCESSING_LIMITS.functionTimeoutSeconds - PROCESSING_LIMITS.textractMaxWaitSeconds;

/** API Gateway HTTP APIs give up after 30 s: every route's function stops at 29 s (infra HANDLER_DEFAULTS). */
export const API_HANDLER_TIMEOUT_SECONDS = 29;

/**
 * How long a bulk Send goes on taking documents: each is confirmed and learnt from one after another (about twenty
 * calls to DynamoDB, S3 and the live channel), so a hundred could outlast the function. The rest are answered as not
 * sent, with time left to queue the confirmed ones.
 */
export const BULK_SEND_BUDGET_MS = 20_000;
