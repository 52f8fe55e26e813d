/** What a handler's answer becomes on its way out of the Lambda: gzipped when large and accepted, refused when it still does not fit. */
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPRESS_FROM_BYTES, fitResponse, LAMBDA_RESPONSE_MAX_BYTES, RESPONSE_TOO_LARGE, serialisedSize } from '../../../lambdas/runtime/response-size';

const answer = (body: string) => ({ statusCode: 200, headers: { 'content-type': 'application/xml' }, body });

describe('fitResponse', () => {
  it('leaves small answers and answers a client does not take gzip for as they are', () => {
    const small = answer('<a/>');
    expect(fitResponse(small, 'gzip', 'r1')).toEqual({ result: small });
    const large = answer('x'.repeat(COMPRESS_FROM_BYTES));
    expect(fitResponse(large, undefined, 'r1')).toEqual({ result: large });
    expect(fitResponse(large, 'gzip;q=0, identity', 'r1')).toEqual({ result: large });
    expect(fitResponse(large, 'br', 'r1')).toEqual({ result: large });
  });

  it('gzips a large answer the client accepts, keeping its status and headers', () => {
    const body = '<Documents>' + '<Document><Total>12.00</Total></Document>'.repeat(200_000) + '</Documents>';
    expect(Buffer.byteLength(body)).toBeGreaterThan(LAMBDA_RESPONSE_MAX_BYTES);
    for (const accepted of ['gzip, deflate, br, zstd', 'GZIP;q=0.5', '*']) {
      const { result, overBytes } = fitResponse(answer(body), accepted, 'r1');
      expect(overBytes).toBeUndefined();
      expect(result).toMatchObject({ statusCode: 200, isBase64Encoded: true, headers: { 'content-type': 'application/xml', 'content-encoding': 'gzip', vary: 'accept-encoding' } });
      expect(gunzipSync(Buffer.from(result.body!, 'base64')).toString()).toBe(body);
      expect(serialisedSize(result)).toBeLessThan(LAMBDA_RESPONSE_MAX_BYTES);
    }
  });

  it('refuses, with why, an answer that does not fit even gzipped', () => {
    // Random bytes do not compress.
    const body = randomBytes(LAMBDA_RESPONSE_MAX_BYTES).toString('base64');
    const { result, overBytes } = fitResponse(answer(body), 'gzip', 'r7');
    expect(overBytes).toBeGreaterThan(LAMBDA_RESPONSE_MAX_BYTES);
    expect(result.statusCode).toBe(500);
    expect(result.headers).toMatchObject({ 'x-request-id': 'r7' });
    expect(JSON.parse(result.body!)).toEqual({ statusCode: 500, error: 'ResponseTooLarge', message: RESPONSE_TOO_LARGE });
  });
});
