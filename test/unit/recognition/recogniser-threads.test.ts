/**
 * Documents read at once by the local recogniser in threads of its own (`RecogniserThreads`, the processing job's
 * recogniser in local mode): each reads as the recogniser in this process reads it, errors keep their kind, and no
 * more threads start than documents wait.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecogniser } from '../../../lambdas/adapters/local-recogniser';
import { RecogniserThreads } from '../../../lambdas/adapters/local-recogniser/threads';
import { mapExpenseToFields } from '../../../lambdas/core/recognition/map-fields';
import { closeRecogniser, recogniser, warmUpRecogniser } from '../../../lambdas/jobs/lib/recogniser';
import { resetEnvCache } from '../../../lambdas/runtime/env';
import type { RecogniserInput } from '../../../lambdas/core/recognition/types';
import { INVOICE_EN, RECEIPT_ROTATED, RECEIPT_SCANNED_PDF, UBL } from '../../fixtures/recognition/data';

const dir = join(import.meta.dirname, '../../fixtures/recognition');
const input = (file: string, mime: string): RecogniserInput => ({ bytes: readFileSync(join(dir, file)), mime, fileName: file });
const documents = [
  input(RECEIPT_ROTATED.file, 'image/jpeg'),
  input(RECEIPT_SCANNED_PDF.file, 'application/pdf'),
  input(INVOICE_EN.file, 'application/pdf'),
  input(UBL.file, 'application/xml'),
];

describe('the local recogniser in threads', () => {
  const threads = new RecogniserThreads({ threads: 2 });
  afterAll(() => threads.close());

  it('reads documents given at once, two threads for four documents, each as the recogniser in this process reads it', async () => {
    const read = await Promise.all(documents.map((d) => threads.analyzeExpense(d)));
    expect(threads.threadCount).toBe(2);
    const here = new LocalRecogniser();
    try {
      for (const [k, d] of documents.entries()) expect(read[k], d.fileName).toEqual(await here.analyzeExpense(d));
    } finally {
      await here.close();
    }
    const receipt = mapExpenseToFields(read[0]!);
    expect(receipt.supplier_name?.value).toBe(RECEIPT_ROTATED.company);
    expect(receipt.amount_total?.value).toBe(RECEIPT_ROTATED.total);
  }, 180_000);

  it("readies the processing job's recogniser before its first document: local mode's first thread with its models, nothing for Textract", async () => {
    const saved = { RECOGNISER: process.env.RECOGNISER, TABLE_NAME: process.env.TABLE_NAME };
    const use = async (kind: string) => {
      await closeRecogniser();
      process.env.RECOGNISER = kind;
      process.env.TABLE_NAME ??= 'receipts';
      resetEnvCache();
    };
    try {
      await use('local');
      await warmUpRecogniser();
      const local = await recogniser();
      expect(local).toBeInstanceOf(RecogniserThreads);
      expect((local as RecogniserThreads).threadCount).toBe(1);
      await use('textract');
      await expect(warmUpRecogniser()).resolves.toBeUndefined();
    } finally {
      await closeRecogniser();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      resetEnvCache();
    }
  }, 60_000);

  it('starts no thread more than one document at a time needs', async () => {
    const one = new RecogniserThreads({ threads: 4 });
    try {
      await one.analyzeExpense(documents[3]!);
      await one.analyzeExpense(documents[2]!);
      expect(one.threadCount).toBe(1);
    } finally {
      await one.close();
    }
    expect(one.threadCount).toBe(0);
  }, 60_000);

  it('fails a file it cannot read with the error the recogniser in this process throws, and reads the next', async () => {
    const strange = { bytes: new Uint8Array([1, 2, 3, 4]), mime: 'application/x-strange', fileName: 'notes.strange' };
    const error = await threads.analyzeExpense(strange).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'UnsupportedDocumentError', message: 'Preview cannot be made for this file type', details: { detail: 'application/x-strange' } });
    expect(mapExpenseToFields(await threads.analyzeExpense(documents[3]!)).document_id?.value).toBe(UBL.documentId);
  }, 60_000);

  it('closing while a document is read lets it finish, and refuses the documents still waiting', async () => {
    const closing = new RecogniserThreads({ threads: 1 });
    await closing.warmUp();
    const outcome = (p: Promise<unknown>) => p.then(() => 'read', (e: Error) => e.message);
    const reading = outcome(closing.analyzeExpense(documents[0]!));
    const waiting = outcome(closing.analyzeExpense(documents[3]!));
    await closing.close();
    expect(await reading).toBe('read');
    expect(await waiting).toBe('The recogniser is closed');
    expect(closing.threadCount).toBe(0);
  }, 60_000);

  it('closing at once ends the thread after its model run in flight and leaves its documents unanswered, then and later', async () => {
    const stopping = new RecogniserThreads({ threads: 1 });
    await stopping.warmUp();
    const outcome = (p: Promise<unknown>) => p.then(() => 'read', (e: Error) => e.message);
    const reading = outcome(stopping.analyzeExpense(documents[1]!));
    const waiting = outcome(stopping.analyzeExpense(documents[3]!));
    await stopping.close({ now: true });
    expect(stopping.threadCount).toBe(0);
    const later = outcome(stopping.analyzeExpense(documents[3]!));
    const pending = (p: Promise<string>) => Promise.race([p, new Promise((resolve) => setImmediate(() => resolve('unanswered')))]);
    expect(await pending(reading)).toBe('unanswered');
    expect(await pending(waiting)).toBe('unanswered');
    expect(await pending(later)).toBe('unanswered');
  }, 60_000);

  it('replaces a thread that stopped while idle', async () => {
    const pool = new RecogniserThreads({ threads: 1 });
    try {
      await pool.warmUp();
      // The thread ends as one does on an uncaught error: from outside the recogniser, while it reads nothing.
      const [thread] = (pool as unknown as { threads: { worker: Worker }[] }).threads;
      const exited = new Promise((resolve) => thread!.worker.once('exit', resolve));
      await thread!.worker.terminate();
      await exited;
      expect(mapExpenseToFields(await pool.analyzeExpense(documents[3]!)).document_id?.value).toBe(UBL.documentId);
      expect(pool.threadCount).toBe(1);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('reads nothing once closed', async () => {
    const closing = new RecogniserThreads({ threads: 1 });
    await closing.warmUp();
    expect(closing.threadCount).toBe(1);
    await closing.close();
    await expect(closing.analyzeExpense(documents[3]!)).rejects.toThrow('The recogniser is closed');
  }, 60_000);
});
