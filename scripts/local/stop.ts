/**
 * How `npm start` stops (Ctrl+C, SIGTERM): its steps run in order — the servers closed, the documents being read
 * finished (a model run cannot be cut short: ending the process under one aborts it) — and then the process ends.
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
      opts.warn(`[local] stopping: documents being read finish first (at most ${opts.waitMs / 1000} s)`);
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
