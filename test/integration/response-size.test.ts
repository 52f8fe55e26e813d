/**
 * Answers over Lambda's 6 MB response limit: the local gateway refuses them as AWS does (API Gateway's bare 500), and
 * the handlers send large answers gzipped when the client accepts it, so the word boxes of a long, dense PDF still
 * reach the edit screen.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentItemsWithIndex } from '../../lambdas/adapters/ddb/documents-store';
import { batchWrite } from '../../lambdas/adapters/ddb/table-ops';
import { s3 } from '../../lambdas/adapters/s3/files';
import { LAMBDA_RESPONSE_MAX_BYTES, RESPONSE_TOO_LARGE } from '../../lambdas/runtime/response-size';
import type { PageBoxes } from '../../shared/schemas/content';
import { seededDocument } from '../support/document-records';
import { registeredUser, startTestStack, type TestStack } from '../support/local-stack';

/** A dense page as Textract gives it: 700 words in 100 lines, with their ids. */
function densePage(page: number): PageBoxes {
  const words = Array.from({ length: 700 }, (_, i) => ({
    id: `${page.toString(16).padStart(4, '0')}${i.toString(16).padStart(4, '0')}-6a1e-4c55-9d3b-2b8f0c4e71aa`,
    text: `word${(i * 7919 + page) % 10007}`,
    left: (i % 7) / 7,
    top: Math.floor(i / 7) / 100,
    width: 0.1312345,
    height: 0.0123456,
    confidence: 97.4321,
  }));
  const lines = Array.from({ length: 100 }, (_, l) => ({
    ...words[l * 7]!,
    id: `line-${page}-${l}-6a1e-4c55-9d3b-2b8f0c4e71aa`,
    text: words.slice(l * 7, l * 7 + 7).map((w) => w.text).join(' '),
    word_ids: words.slice(l * 7, l * 7 + 7).map((w) => w.id),
  }));
  return { page, file: null, words, lines };
}

describe('answers larger than a Lambda may return', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('the word boxes of a 50-page dense PDF come gzipped; a client that takes no gzip gets the reason, not a broken answer', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'boxes');
    const receiptId = 'BIGBOXES0000000000000000001';
    const boxesKey = `content/${companyId}/${receiptId}/boxes.json`;
    const boxes = Array.from({ length: 50 }, (_, i) => densePage(i + 1));
    const json = JSON.stringify(boxes);
    expect(json.length).toBeGreaterThan(LAMBDA_RESPONSE_MAX_BYTES);
    await s3().send(new PutObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: boxesKey, Body: json, ContentType: 'application/json' }));
    const doc = seededDocument({ receipt_id: receiptId, scope: `C#${companyId}`, created_at: new Date().toISOString(), boxes_key: boxesKey });
    await batchWrite(documentItemsWithIndex(doc).map((Item) => ({ PutRequest: { Item } })));

    // fetch, as a browser, accepts gzip and unpacks it.
    const res = await api.get(`/receipts/${receiptId}/bboxes?company_id=${companyId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const pages = (res.body as { pages: PageBoxes[] }).pages;
    expect(pages).toHaveLength(50);
    expect(pages[49]!.words).toHaveLength(700);
    expect(pages[49]!.lines[99]!.word_ids).toHaveLength(7);

    const identity = await fetch(`${t.stack.apiUrl}/receipts/${receiptId}/bboxes?company_id=${companyId}`, {
      headers: { authorization: `Bearer ${api.token}`, 'accept-encoding': 'identity' },
    });
    expect(identity.status).toBe(500);
    expect(await identity.json()).toEqual({ statusCode: 500, error: 'ResponseTooLarge', message: RESPONSE_TOO_LARGE });

    // Small answers go as they are.
    const list = await api.get(`/receipts?company_id=${companyId}`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-encoding')).toBeNull();
  }, 120_000);
});
