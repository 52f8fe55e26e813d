// The first module of a recogniser thread (threads.ts): a thread does not inherit the TypeScript loader of the
// process that starts it, so a TypeScript entry registers tsx's loader in the thread before it is imported.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
