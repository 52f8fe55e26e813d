/**
 * How `npm start` stops (Ctrl+C, SIGTERM): its steps run in order — no queue takes another message, the recogniser
 * threads end after their model run in flight (a model run cannot be cut short: ending the process under one aborts
 * it; the documents being read are read again at the next start), the servers closed — and then the process ends.
 * A signal while stopping only says what it waits for; past `waitMs` the process ends without waiting longer.
 */
export interface StopOptions {
  waitMs: number;
  exit: (code: number) => void;
  warn: (line: string) => void;
}

export function stopInOrder(steps: readonly (() => Promise<unknown>)[], opts: StopOptions): () => Promise<void> {
  let stopping = false;
  return async () => {
    if (stopping) {
      opts.warn(`[local] stopping: the recogniser ends its model run in flight (at most ${opts.waitMs / 1000} s)`);
      return;
    }
    stopping = true;
    const deadline = setTimeout(() => {
      opts.warn(`[local] still stopping after ${opts.waitMs / 1000} s; ending without waiting longer`);
      opts.exit(1);
    }, opts.waitMs);
    deadline.unref();
    for (const step of steps) await step().catch(() => undefined);
    clearTimeout(deadline);
    opts.exit(0);
  };
}
