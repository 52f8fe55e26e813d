import type { LiveMessage } from './live-client';

export type LiveListener = (message: LiveMessage) => void;

export interface LiveBus {
  emit(message: LiveMessage): void;
  subscribe(listener: LiveListener): () => void;
}

export function createLiveBus(): LiveBus {
  const listeners = new Set<LiveListener>();
  return {
    emit(message) {
      for (const l of [...listeners]) l(message);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The events of the one live channel, for screens that follow them beyond the caches (the upload cards). */
export const liveBus = createLiveBus();
