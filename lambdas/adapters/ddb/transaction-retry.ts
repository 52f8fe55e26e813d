/**
 * DynamoDB cancels a transaction that overlaps another one on an item (TransactionCanceledException with a
 * `TransactionConflict` reason) instead of waiting for it. Nothing of a cancelled transaction was written,
 * so sending it again is safe. The SDK's own retries do not cover this error, so every TransactWriteItems and
 * TransactGetItems of the document client goes through this middleware: conflicts are retried with jittered
 * exponential backoff ("full jitter"). A failed condition (ConditionalCheckFailed: the version check, the
 * quota, uniqueness) is an answer, never retried; it reaches the caller as before (409).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface TransactionRetryOptions {
  /** Sends of one transaction in all (first try included). */
  maxAttempts: number;
  /** Upper bound of the first wait; doubles per attempt up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Random number in [0, 1) (tests fix it). */
  random: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const TRANSACTION_RETRY_DEFAULTS: TransactionRetryOptions = {
  maxAttempts: 8,
  baseDelayMs: 20,
  maxDelayMs: 1000,
  random: Math.random,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const TRANSACTION_COMMANDS = new Set(['TransactWriteItemsCommand', 'TransactGetItemsCommand']);

/**
 * True for a transaction DynamoDB cancelled only because of concurrent work on its items: at least one
 * `TransactionConflict` reason and no failed condition.
 */
export function isTransactionConflict(error: unknown): boolean {
  const e = error as { name?: string; CancellationReasons?: Array<{ Code?: string } | null> } | undefined;
  if (e?.name !== 'TransactionCanceledException') return false;
  const codes = (e.CancellationReasons ?? []).map((r) => r?.Code ?? 'None');
  return codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
}

/** The wait before attempt `attempt + 1` (attempt ≥ 1): uniform in [0, min(max, base·2^(attempt-1))]. */
export function backoffDelay(attempt: number, opts: Pick<TransactionRetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const cap = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(opts.random() * cap);
}

/** Adds the retry to a client's middleware stack (once). */
export function retryTransactionConflicts(client: DynamoDBClient, options: Partial<TransactionRetryOptions> = {}): void {
  const opts = { ...TRANSACTION_RETRY_DEFAULTS, ...options };
  const name = 'transactionConflictRetry';
  client.middlewareStack.remove(name);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!TRANSACTION_COMMANDS.has(String(context.commandName))) return next(args);
      for (let attempt = 1; ; attempt++) {
        try {
          return await next(args);
        } catch (error) {
          if (!isTransactionConflict(error) || attempt >= opts.maxAttempts) throw error;
          await opts.sleep(backoffDelay(attempt, opts));
        }
      }
    },
    { step: 'initialize', name, override: true },
  );
}
