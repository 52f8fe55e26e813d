/**
 * The local recogniser on several cores: documents read at once (local mode runs two processing jobs at a time,
 * `scripts/local/jobs.ts`) are each read in a thread of its own, by the thread's own `LocalRecogniser`
 * (`recogniser-thread.ts`). ONNX Runtime runs the models off the JavaScript thread already, but the JavaScript around
 * them (cutting the line images, the language model's search, the extraction) runs on a process's one JavaScript
 * thread, where documents read at once in one process wait for each other (docs/recognition.md, "Local
 * recogniser"). A thread starts when a document finds every thread busy, up to `threads` (default: the machine's
 * cores), and keeps its models for the documents after it.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { UnsupportedDocumentError } from '../../core/recognition/file-type';
import type { AnalyzeExpenseResult, Recogniser, RecogniserInput } from '../../core/recognition/types';
import type { LocalRecogniserOptions } from './index';
import type { PaddleOcrOptions } from './paddle-ocr';

/** A thread's recogniser settings: data only, since they are copied into the thread (no trace callbacks). */
export type ThreadRecogniserOptions = Omit<LocalRecogniserOptions, 'paddle'> & { paddle?: Omit<PaddleOcrOptions, 'onLine' | 'onModelRun'> };

/** What a thread is started with (`workerData`). */
export interface ThreadStart {
  /** The module the thread runs (`recogniser-thread.ts`), as a file URL. */
  entry: string;
  options: ThreadRecogniserOptions;
  /**
   * One Int32 the parent sets to 1 when it closes the thread at once (`close({ now: true })`): the document in hand
   * stops after the model run in flight (none is started after it), so the thread ends without a run in flight.
   */
  stop?: SharedArrayBuffer;
}

export type ThreadRequest = { id: number } & ({ kind: 'warm-up' } | { kind: 'read'; input: RecogniserInput } | { kind: 'close' });

export type ThreadReply = { id: number } & (
  | { ok: true; result?: AnalyzeExpenseResult }
  | { ok: false; error: { name: string; message: string; details?: unknown } }
);

/** `thread-boot.mjs` registers the TypeScript loader in the thread, then imports the entry. */
const BOOT = new URL('./thread-boot.mjs', import.meta.url);
const ENTRY = new URL('./recogniser-thread.ts', import.meta.url).href;
/** How long a closing thread may take to release its models before it is stopped. */
const CLOSE_WAIT_MS = 5_000;

/** An error that crossed from a thread, as the in-process recogniser would have thrown it. */
function threadError(e: Extract<ThreadReply, { ok: false }>['error']): Error {
  if (e.name === 'UnsupportedDocumentError') {
    const detail = (e.details as { detail?: unknown } | undefined)?.detail;
    return new UnsupportedDocumentError(typeof detail === 'string' ? detail : undefined);
  }
  const error = new Error(e.message);
  error.name = e.name;
  return error;
}

type Pending = { resolve: (result: AnalyzeExpenseResult | undefined) => void; reject: (error: Error) => void; settled: Promise<unknown> };

/** How a thread is closed: by default after the document in hand; `now`: after the model run in flight. */
export interface CloseOptions {
  /**
   * The document in hand stops after its model run in flight and its call is left unanswered, as if the process had
   * ended there (local mode's stop: the job's message stays on disk and is delivered again at the next start).
   */
  now?: boolean;
}

/** One worker thread and its calls in flight. */
class RecogniserThread {
  private readonly worker: Worker;
  private readonly calls = new Map<number, Pending>();
  /** The thread's stop flag (`ThreadStart.stop`). */
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  /** Closed at once: calls in flight are left unanswered. */
  private abandoned = false;
  private nextId = 1;
  /** Why the thread stopped; every call after it fails with this. */
  stopped: Error | undefined;
  busy = false;

  constructor(options: ThreadRecogniserOptions) {
    this.worker = new Worker(BOOT, { workerData: { entry: ENTRY, options, stop: this.stopFlag.buffer as SharedArrayBuffer } satisfies ThreadStart });
    this.worker.on('message', (reply: ThreadReply) => {
      const call = this.calls.get(reply.id);
      if (!call) return;
      this.calls.delete(reply.id);
      // An idle thread does not keep the process alive.
      if (this.calls.size === 0) this.worker.unref();
      if (this.abandoned) call.resolve(undefined);
      else if (reply.ok) call.resolve(reply.result);
      else call.reject(threadError(reply.error));
    });
    this.worker.on('error', (error: Error) => this.stop(error));
    this.worker.on('exit', (code) => this.stop(new Error(`The recogniser thread stopped (exit code ${code})`)));
    this.worker.unref();
  }

  call(request: { kind: 'warm-up' } | { kind: 'read'; input: RecogniserInput }): Promise<AnalyzeExpenseResult | undefined> {
    // A caller of a thread closed at once is never answered (`CloseOptions.now`).
    return this.send(request).then((result) => (this.abandoned ? new Promise<never>(() => undefined) : result));
  }

  private send(request: { kind: 'warm-up' } | { kind: 'read'; input: RecogniserInput } | { kind: 'close' }): Promise<AnalyzeExpenseResult | undefined> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    let answer!: Omit<Pending, 'settled'>;
    const answered = new Promise<AnalyzeExpenseResult | undefined>((resolve, reject) => (answer = { resolve, reject }));
    this.calls.set(id, { ...answer, settled: answered.catch(() => undefined) });
    this.worker.ref();
    this.worker.postMessage({ ...request, id } satisfies ThreadRequest);
    return answered;
  }

  /**
   * Waits for the document in hand, releases the thread's models, then ends the thread. A thread is never ended
   * with a model run in flight: ONNX Runtime would answer into a thread that is gone, which aborts the process.
   */
  async close(opts: CloseOptions = {}): Promise<void> {
    if (opts.now) {
      this.abandoned = true;
      Atomics.store(this.stopFlag, 0, 1);
    }
    const inHand = Promise.allSettled([...this.calls.values()].map((c) => c.settled));
    if (opts.now) {
      // The model run in flight ends the document in hand; a thread that does not answer is ended after the wait.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([inHand, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
    } else {
      await inHand;
    }
    if (!this.stopped) {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
      await Promise.race([this.send({ kind: 'close' }).catch(() => undefined), waited]);
      clearTimeout(timer);
    }
    this.stop(new Error('The recogniser is closed'));
    await this.worker.terminate();
  }

  private stop(reason: Error): void {
    this.stopped ??= reason;
    for (const call of this.calls.values()) {
      if (this.abandoned) call.resolve(undefined);
      else call.reject(this.stopped);
    }
    this.calls.clear();
  }
}

export interface RecogniserThreadsOptions {
  /** Threads at most, one document each (default: the machine's cores). */
  threads?: number;
  /** Each thread's recogniser. */
  recogniser?: ThreadRecogniserOptions;
}

export class RecogniserThreads implements Recogniser {
  private readonly max: number;
  private readonly options: ThreadRecogniserOptions;
  private readonly threads: RecogniserThread[] = [];
  /** Documents waiting for a thread, first come first served. */
  private readonly waiting: { resolve: (thread: RecogniserThread) => void; reject: (error: Error) => void }[] = [];
  private closed = false;
  /** Closed at once (`close({ now: true })`): documents given after it are never answered either. */
  private halted = false;

  constructor(opts: RecogniserThreadsOptions = {}) {
    this.max = Math.max(1, Math.floor(opts.threads ?? availableParallelism()));
    this.options = opts.recogniser ?? {};
  }

  /** Threads started and still running. */
  get threadCount(): number {
    return this.threads.length;
  }

  async analyzeExpense(input: RecogniserInput): Promise<AnalyzeExpenseResult> {
    if (this.halted) return new Promise<never>(() => undefined);
    return (await this.inThread((thread) => thread.call({ kind: 'read', input })))!;
  }

  /** Starts a thread and loads its models ahead of the first document. */
  async warmUp(): Promise<void> {
    if (this.halted) return;
    await this.inThread((thread) => thread.call({ kind: 'warm-up' }));
  }

  /**
   * Ends the threads: by default each after its document in hand; with `now` (local mode's stop) each after its model
   * run in flight, the documents in hand and those waiting for a thread left unanswered (their jobs' messages stay
   * on disk and are delivered again at the next start), as are documents given after it.
   */
  async close(opts: CloseOptions = {}): Promise<void> {
    this.closed = true;
    if (opts.now) {
      this.halted = true;
      this.waiting.splice(0);
    }
    for (const w of this.waiting.splice(0)) w.reject(new Error('The recogniser is closed'));
    await Promise.all(this.threads.splice(0).map((t) => t.close(opts)));
  }

  private start(): RecogniserThread {
    const thread = new RecogniserThread(this.options);
    thread.busy = true;
    this.threads.push(thread);
    return thread;
  }

  /**
   * Runs a call in a thread of its own. A thread at hand gets it at once (nothing is awaited before the call), so a
   * close right after waits for it; else it waits for the next thread given back.
   */
  private async inThread<T>(call: (thread: RecogniserThread) => Promise<T>): Promise<T> {
    const thread = this.threadAtHand() ?? (await this.nextThread());
    try {
      return await call(thread);
    } finally {
      this.give(thread);
    }
  }

  /** An idle thread, or a new one while there are fewer than `max`; none when all are busy. */
  private threadAtHand(): RecogniserThread | undefined {
    if (this.closed) throw new Error('The recogniser is closed');
    // A thread that stopped while idle (an uncaught error, its memory limit) is replaced.
    for (const t of this.threads.filter((x) => !x.busy && x.stopped)) this.threads.splice(this.threads.indexOf(t), 1);
    const idle = this.threads.find((t) => !t.busy);
    if (idle) {
      idle.busy = true;
      return idle;
    }
    return this.threads.length < this.max ? this.start() : undefined;
  }

  /** The next thread given back, in turn. */
  private nextThread(): Promise<RecogniserThread> {
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** A thread done with a document: to the next waiting one, or idle. A stopped thread is replaced. */
  private give(thread: RecogniserThread): void {
    if (thread.stopped) {
      const k = this.threads.indexOf(thread);
      if (k >= 0) this.threads.splice(k, 1);
      if (this.closed) return;
      const next = this.waiting.shift();
      if (next) next.resolve(this.start());
      return;
    }
    const next = this.waiting.shift();
    if (next) next.resolve(thread);
    else thread.busy = false;
  }
}
