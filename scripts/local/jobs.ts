/**
 * Local stand-in for the S3 → SQS → Lambda path of the processing job: every object-created event of
 * the local bucket becomes an SQS message whose body is the S3 notification JSON (key URL-encoded as S3
 * does), handed to the real job handler. Failed messages (reported in batchItemFailures or thrown) are
 * delivered again with ApproximateReceiveCount + 1, up to 3 deliveries (the queue's maxReceiveCount).
 * With a folder, messages are kept on disk until handled, so a process killed mid-job picks them up on
 * the next start, as SQS redelivers a message whose consumer died.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { S3EventRecord } from './s3';

export const MAX_RECEIVES = 3;
const CONCURRENCY = 2;
/**
 * Big files (a long scanned PDF) take minutes: they run in a lane of their own with CONCURRENCY - 1 slots, so
 * at least one slot always serves the others and small documents keep flowing past big ones.
 */
export const BIG_OBJECT_BYTES = 5 * 1024 * 1024;
const BIG_SLOTS = Math.max(1, CONCURRENCY - 1);

/** A message whose S3 object is at least `threshold` bytes (its notification carries the size). */
function isBigMessage(body: string, threshold: number): boolean {
  try {
    const records = (JSON.parse(body) as { Records?: { s3?: { object?: { size?: number } } }[] }).Records ?? [];
    return records.some((r) => Number(r?.s3?.object?.size ?? 0) >= threshold);
  } catch {
    return false;
  }
}

type JobHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/** S3 notifications carry the key URL-encoded, spaces as '+', slashes kept. */
export function encodeS3EventKey(key: string): string {
  return key
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/%20/g, '+'))
    .join('/');
}

export interface LocalJobQueue {
  /** Sends one S3 record to the queue, as the bucket notification does. */
  deliver(record: S3EventRecord): void;
  /** Sends a plain message body (SQS SendMessage), visible after the delay (DelaySeconds). */
  send(body: string, delaySeconds?: number): void;
  /** Resolves when no message is queued, waiting for a retry or being handled. */
  idle(timeoutMs?: number): Promise<void>;
  /** Messages given up after MAX_RECEIVES deliveries (the dead-letter queue). */
  deadLetters: SQSRecord[];
  /**
   * Stops the queue: by default once it is idle (at most 30 s). With `now` (local mode's stop) no message is taken
   * from then on and the jobs running are not waited for: their messages stay on disk as they are (no retry, no
   * dead letter) and are delivered again at the next start, as SQS redelivers a message whose consumer died.
   */
  close(opts?: { now?: boolean }): Promise<void>;
}

/** One JSON file per message in flight: written before delivery, removed once handled or dead-lettered. */
function durableStore(dir: string | undefined) {
  if (dir) mkdirSync(dir, { recursive: true });
  const file = (id: string) => path.join(dir!, `${id}.json`);
  return {
    save(id: string, body: string, receiveCount: number) {
      if (!dir) return;
      const tmp = `${file(id)}.tmp`;
      writeFileSync(tmp, JSON.stringify({ id, body, receiveCount }));
      renameSync(tmp, file(id));
    },
    remove(id: string) {
      if (dir) rmSync(file(id), { force: true });
    },
    pending(): { id: string; body: string; receiveCount: number }[] {
      if (!dir) return [];
      return readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .flatMap((name) => {
          try {
            return [JSON.parse(readFileSync(path.join(dir, name), 'utf8'))];
          } catch {
            return [];
          }
        });
    },
  };
}

export function createLocalJobQueue(
  loadHandler: () => Promise<JobHandler>,
  region = 'eu-west-1',
  durableDir?: string,
  /** The queue's maxReceiveCount (the job's own constant). */
  maxReceives = MAX_RECEIVES,
  /** Integrations: the export queue's name and how long a DelaySeconds second lasts here (tests shorten it). */
  opts: {
    queueName?: string;
    msPerDelaySecond?: number;
    /** Objects of this size or more run in one job slot only, so small documents keep flowing past big ones. */
    bigObjectBytes?: number;
    /**
     * The function's timeout: a delivery still running after it counts as failed, as when Lambda kills the
     * function (locally the call cannot be stopped; whatever it does later is what a killed function never does).
     */
    timeoutMs?: number;
    /** The dead-letter queue's consumer: gets each message given up after the last delivery. */
    onDeadLetter?: (message: SQSRecord) => Promise<void>;
  } = {},
): LocalJobQueue {
  const store = durableStore(durableDir);
  const queue: SQSRecord[] = [];
  const deadLetters: SQSRecord[] = [];
  let running = 0;
  let runningBig = 0;
  const big = new WeakMap<SQSRecord, boolean>();
  const bigOf = (msg: SQSRecord) => {
    if (!big.has(msg)) big.set(msg, isBigMessage(msg.body, opts.bigObjectBytes ?? BIG_OBJECT_BYTES));
    return big.get(msg)!;
  };
  let waitingRetries = 0;
  let closed = false;
  const idleWaiters: (() => void)[] = [];

  const checkIdle = () => {
    if (queue.length === 0 && running === 0 && waitingRetries === 0) for (const w of idleWaiters.splice(0)) w();
  };

  const message = (body: string, receiveCount: number, messageId: string = randomUUID()): SQSRecord => ({
    messageId,
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: String(Date.now()),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${region}:000000000000:${opts.queueName ?? 'local-processing'}`,
    awsRegion: region,
  });

  const pump = () => {
    while (!closed && running < CONCURRENCY && queue.length > 0) {
      // The oldest message that may run now: a big one only while the big lane has a free slot.
      const index = queue.findIndex((m) => !bigOf(m) || runningBig < BIG_SLOTS);
      if (index < 0) break;
      const msg = queue.splice(index, 1)[0]!;
      const isBig = bigOf(msg);
      running += 1;
      if (isBig) runningBig += 1;
      void handle(msg).finally(() => {
        running -= 1;
        if (isBig) runningBig -= 1;
        pump();
        checkIdle();
      });
    }
  };

  const handle = async (msg: SQSRecord) => {
    let failed = false;
    try {
      const handler = await loadHandler();
      const run = handler({ Records: [msg] });
      let timer: NodeJS.Timeout | undefined;
      const killed = opts.timeoutMs
        ? new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), opts.timeoutMs);
          })
        : undefined;
      const res = await (killed ? Promise.race([run, killed]) : run).finally(() => clearTimeout(timer));
      if (res === 'timeout') {
        console.error(`[local] job timed out after ${opts.timeoutMs} ms (message ${msg.messageId})`);
        run.catch(() => undefined);
        failed = true;
      } else {
        failed = Boolean(res && res.batchItemFailures.some((f) => f.itemIdentifier === msg.messageId));
      }
    } catch (error) {
      console.error('[local] processing job threw', error);
      failed = true;
    }
    const count = Number(msg.attributes.ApproximateReceiveCount);
    if (!failed) {
      store.remove(msg.messageId);
      return;
    }
    // Stopped meanwhile: the message stays on disk as it is, for the next start.
    if (closed) return;
    if (count >= maxReceives) {
      store.remove(msg.messageId);
      deadLetters.push(msg);
      if (opts.onDeadLetter) {
        await opts.onDeadLetter(msg).catch((error: unknown) => console.error('[local] dead-letter consumer failed', error));
      }
      return;
    }
    store.save(msg.messageId, msg.body, count + 1);
    // The visibility timeout: the message comes back a little later.
    waitingRetries += 1;
    setTimeout(() => {
      waitingRetries -= 1;
      if (!closed) queue.push(message(msg.body, count + 1, msg.messageId));
      pump();
      checkIdle();
    }, 100 * count);
  };

  // Messages left by a process that died mid-job come back first, one receive later.
  for (const pending of store.pending()) {
    const receiveCount = Math.min(pending.receiveCount + 1, maxReceives);
    store.save(pending.id, pending.body, receiveCount);
    queue.push(message(pending.body, receiveCount, pending.id));
  }
  setImmediate(pump);

  return {
    deliver(record) {
      const s3 = { ...record.s3, object: { ...record.s3.object, key: encodeS3EventKey(record.s3.object.key) } };
      const msg = message(JSON.stringify({ Records: [{ ...record, s3 }] }), 1);
      store.save(msg.messageId, msg.body, 1);
      queue.push(msg);
      pump();
    },
    send(body, delaySeconds = 0) {
      const msg = message(body, 1);
      store.save(msg.messageId, msg.body, 1);
      if (delaySeconds <= 0) {
        queue.push(msg);
        pump();
        return;
      }
      waitingRetries += 1;
      setTimeout(() => {
        waitingRetries -= 1;
        if (!closed) queue.push(msg);
        pump();
        checkIdle();
      }, delaySeconds * (opts.msPerDelaySecond ?? 1000));
    },
    idle(timeoutMs = 120_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('processing jobs still running')), timeoutMs);
        idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
        checkIdle();
      });
    },
    deadLetters,
    async close(closeOpts = {}) {
      if (!closeOpts.now) await this.idle(30_000).catch(() => undefined);
      closed = true;
    },
  };
}
