/**
 * Local mode's stand-in for the EventBridge schedule of the Google Drive and Dropbox imports: a timer that runs
 * the same job handler every `seconds` (one tick at a time; a tick that is still running skips the next).
 */
import { jobHandlers } from '../../shared/routes';
import { loadHandler } from './api-adapter';

export interface DriveSchedule {
  /** Runs one tick now (what the timer does), answering the job's result. */
  tick(): Promise<unknown>;
  stop(): void;
}

export function startDriveSchedule(seconds: number, onError: (error: unknown) => void = (e) => console.warn('[drive] import run failed', e)): DriveSchedule {
  let running: Promise<unknown> | undefined;
  const tick = async () => {
    const handler = await loadHandler<() => Promise<unknown>>(jobHandlers.importDriveFiles);
    return handler();
  };
  const timer =
    seconds > 0
      ? setInterval(() => {
          if (running) return;
          running = tick()
            .catch(onError)
            .finally(() => (running = undefined));
        }, seconds * 1000)
      : undefined;
  timer?.unref();
  return {
    tick,
    stop: () => {
      if (timer) clearInterval(timer);
    },
  };
}
