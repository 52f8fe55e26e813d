import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalJobQueue, MAX_RECEIVES } from '../../../scripts/local/jobs';

const record = (key: string) => ({
  eventName: 'ObjectCreated:Put',
  s3: { bucket: { name: 'documents' }, object: { key, size: 10 } },
});

describe('local processing queue', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'queue-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('hands a message left by a killed process to the next one, one receive later', async () => {
    // Prepare: a consumer that never finishes (the process dies mid-job)
    const dir = newDir();
    const stuck = createLocalJobQueue(async () => () => new Promise<never>(() => undefined), 'eu-west-1', dir);
    stuck.deliver(record('uploads/c1/u1/x/receipt one.jpg'));
    await new Promise((r) => setTimeout(r, 20));
    expect(readdirSync(dir)).toHaveLength(1);

    // Act: a new process on the same folder
    const seen: SQSEvent[] = [];
    const next = createLocalJobQueue(async () => async (event: SQSEvent) => void seen.push(event), 'eu-west-1', dir);
    await next.idle(5000);

    // Assess
    expect(seen).toHaveLength(1);
    const msg = seen[0]!.Records[0]!;
    expect(msg.attributes.ApproximateReceiveCount).toBe('2');
    expect(JSON.parse(msg.body).Records[0].s3.object.key).toBe('uploads/c1/u1/x/receipt+one.jpg');
    expect(readdirSync(dir)).toHaveLength(0);
  });

  it('dead-letters a message after the last receive and forgets it', async () => {
    const dir = newDir();
    let calls = 0;
    const q = createLocalJobQueue(async () => async () => {
      calls += 1;
      throw new Error('always fails');
    }, 'eu-west-1', dir);
    const quiet = console.error;
    console.error = () => undefined;
    q.deliver(record('uploads/c1/u1/y/bad.pdf'));
    await q.idle(5000);
    console.error = quiet;
    expect(calls).toBe(MAX_RECEIVES);
    expect(q.deadLetters).toHaveLength(1);
    expect(readdirSync(dir)).toHaveLength(0);
  });
});
