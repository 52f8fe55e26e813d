/** `npm start`'s stop: steps in order, then the end; a second signal waits; a step that never ends is given up on. */
import { describe, expect, it } from 'vitest';
import { stopInOrder } from '../../../scripts/local/stop';

function recorder() {
  const exits: number[] = [];
  const warnings: string[] = [];
  return { exits, warnings, opts: { exit: (code: number) => void exits.push(code), warn: (line: string) => void warnings.push(line) } };
}

describe('stopping local mode', () => {
  it('runs the steps in order, a failing one too, then ends with 0', async () => {
    const r = recorder();
    const done: string[] = [];
    const stop = stopInOrder(
      [
        async () => void done.push('servers'),
        async () => {
          done.push('failing');
          throw new Error('already closed');
        },
        async () => void done.push('recogniser'),
      ],
      { waitMs: 1_000, ...r.opts },
    );
    await stop();
    expect(done).toEqual(['servers', 'failing', 'recogniser']);
    expect(r.exits).toEqual([0]);
  });

  it('a second signal while stopping says what it waits for and does not end the process', async () => {
    const r = recorder();
    let finish!: () => void;
    const stop = stopInOrder([() => new Promise<void>((resolve) => (finish = resolve))], { waitMs: 20_000, ...r.opts });
    const first = stop();
    await stop();
    expect(r.exits).toEqual([]);
    expect(r.warnings).toEqual(['[local] stopping: the recogniser ends its model run in flight (at most 20 s)']);
    finish();
    await first;
    expect(r.exits).toEqual([0]);
  });

  it('ends with 1 when a step has not ended after the wait', async () => {
    const r = recorder();
    const stop = stopInOrder([() => new Promise<void>(() => undefined)], { waitMs: 50, ...r.opts });
    void stop();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(r.exits).toEqual([1]);
    expect(r.warnings).toEqual(['[local] still stopping after 0.05 s; ending without waiting longer']);
  });
});
