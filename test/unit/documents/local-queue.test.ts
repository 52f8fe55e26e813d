import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createLocalJobQueue, encodeS3EventKey } from '../../../scripts/local/jobs';

const record = (key: string) => ({ eventName: 'ObjectCreated:Put', s3: { bucket: { name: 'documents' }, object: { key, size: 3, eTag: 'abc' } } });

describe('local S3 → SQS → job stand-in', () => {
  it('delivers the S3 notification as the SQS body, key encoded like S3, and retries failures up to 3 times', async () => {
    const seen: { count: string; body: { Records: { s3: { object: { key: string } } }[] } }[] = [];
    let failuresLeft = 2;
    const queue = createLocalJobQueue(async () => async (event: SQSEvent) => {
      const msg = event.Records[0]!;
      seen.push({ count: msg.attributes.ApproximateReceiveCount, body: JSON.parse(msg.body) });
      if (failuresLeft-- > 0) return { batchItemFailures: [{ itemIdentifier: msg.messageId }] };
      return { batchItemFailures: [] };
    });
    queue.deliver(record('uploads/c/u/1/my file (1).pdf'));
    await queue.idle(5000);
    expect(seen.map((s) => s.count)).toEqual(['1', '2', '3']);
    expect(seen[0]!.body.Records[0]!.s3.object.key).toBe('uploads/c/u/1/my+file+(1).pdf');
    expect(queue.deadLetters).toEqual([]);
    await queue.close();
  });

  it('gives a message that keeps failing to the dead-letter list after the third delivery', async () => {
    let calls = 0;
    const queue = createLocalJobQueue(async () => async () => {
      calls += 1;
      throw new Error('crash');
    });
    queue.deliver(record('uploads/c/u/1/a.pdf'));
    await queue.idle(5000);
    expect(calls).toBe(3);
    expect(queue.deadLetters).toHaveLength(1);
    expect(queue.deadLetters[0]!.attributes.ApproximateReceiveCount).toBe('3');
    await queue.close();
  });

  it('keeps small documents flowing while big ones wait for their own lane', async () => {
    const sized = (key: string, size: number) => ({ eventName: 'ObjectCreated:Put', s3: { bucket: { name: 'documents' }, object: { key, size, eTag: 'abc' } } });
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const smallDone = new Promise<void>((resolve) => finish.set('done-signal', resolve));
    const queue = createLocalJobQueue(
      async () => async (event: SQSEvent) => {
        const key = (JSON.parse(event.Records[0]!.body) as { Records: { s3: { object: { key: string } } }[] }).Records[0]!.s3.object.key;
        started.push(key);
        if (key.startsWith('small')) {
          finish.get('done-signal')!();
          return { batchItemFailures: [] };
        }
        // A big document runs until the test lets it finish.
        await new Promise<void>((resolve) => finish.set(key, resolve));
        return { batchItemFailures: [] };
      },
      'eu-west-1',
      undefined,
      3,
      { bigObjectBytes: 1000 },
    );
    queue.deliver(sized('big-1.pdf', 50_000));
    queue.deliver(sized('big-2.pdf', 50_000));
    queue.deliver(sized('small.pdf', 10));
    // Two big files were queued first, yet the small one runs while the first big one is still running.
    await smallDone;
    expect(started).toEqual(['big-1.pdf', 'small.pdf']);
    finish.get('big-1.pdf')!();
    await new Promise<void>((resolve) => {
      const check = () => (finish.has('big-2.pdf') ? resolve() : setImmediate(check));
      check();
    });
    expect(started).toEqual(['big-1.pdf', 'small.pdf', 'big-2.pdf']);
    finish.get('big-2.pdf')!();
    await queue.idle(5000);
    await queue.close();
  });

  it('encodes keys as S3 notifications do', () => {
    expect(encodeS3EventKey('uploads/a b/c+d/ž.pdf')).toBe('uploads/a+b/c%2Bd/%C5%BE.pdf');
  });
});
