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
