// pdfjs-dist ships no types for its worker module; only its message handler is used.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
