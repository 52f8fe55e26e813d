/**
 * One recogniser thread (started by `RecogniserThreads`, threads.ts): a `LocalRecogniser` of its own, which reads
 * one document at a time as the thread's parent asks.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LocalRecogniser } from './index';
import type { ThreadReply, ThreadRequest, ThreadStart } from './threads';

const port = parentPort;
if (!port) throw new Error('recogniser-thread.ts runs as a worker thread (RecogniserThreads)');
const start = workerData as ThreadStart;
/** Set by the parent that closes this thread at once: the document in hand stops after the model run in flight. */
const stopFlag = start.stop ? new Int32Array(start.stop) : undefined;
const recogniser = new LocalRecogniser({
  ...start.options,
  paddle: {
    ...start.options.paddle,
    onModelRun: () => {
      if (stopFlag && Atomics.load(stopFlag, 0) === 1) throw new Error('The recogniser is closing');
    },
  },
});

/** An error as plain data: its name (UnsupportedDocumentError), message and details cross the thread boundary. */
function errorData(error: unknown): Extract<ThreadReply, { ok: false }>['error'] {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const details = (error as { details?: unknown }).details;
  return { name: error.name, message: error.message, ...(details !== undefined ? { details } : {}) };
}

async function answer(request: ThreadRequest): Promise<ThreadReply> {
  try {
    switch (request.kind) {
      case 'warm-up':
        await recogniser.warmUp();
        return { id: request.id, ok: true };
      case 'read': {
        // The bytes arrive as a Uint8Array (a Buffer is cloned as one); the in-process reader is given Buffers.
        const { bytes } = request.input;
        const input = { ...request.input, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
        return { id: request.id, ok: true, result: await recogniser.analyzeExpense(input) };
      }
      case 'close':
        await recogniser.close();
        return { id: request.id, ok: true };
    }
  } catch (error) {
    return { id: request.id, ok: false, error: errorData(error) };
  }
}

port.on('message', (request: ThreadRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});
