/**
 * What a Lambda behind API Gateway can answer: at most 6 MB (Lambda's synchronous response limit, the whole JSON
 * result with its base64 body). API Gateway has no compression of its own, so large answers — the word boxes of a
 * long PDF, an XML export of many documents, a long list — are gzipped here when the browser accepts it (every
 * browser does); the browser unpacks them before the app sees them. An answer that would still not fit is refused
 * with a message instead of the gateway's bare 500.
 */
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** Lambda's limit on a synchronous invocation's response, in bytes (the serialised result). */
export const LAMBDA_RESPONSE_MAX_BYTES = 6 * 1024 * 1024;
/** Answers from this size on are compressed: below it gzip saves little time on the wire. */
export const COMPRESS_FROM_BYTES = 32 * 1024;
export const RESPONSE_TOO_LARGE = 'The answer is too large to send: ask for fewer documents at once';

type Result = APIGatewayProxyStructuredResultV2;

function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase().split(';'))
    .some(([coding, ...params]) => (coding === 'gzip' || coding === '*') && !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)));
}

/** The serialised size Lambda counts: the result as the runtime sends it. */
export function serialisedSize(result: Result): number {
  return Buffer.byteLength(JSON.stringify(result));
}

/**
 * The answer as it leaves the Lambda: compressed when large and accepted; refused (500, with why) when still over the
 * limit — `overBytes` is then the size that did not fit.
 */
export function fitResponse(result: Result, acceptEncoding: string | undefined, requestId: string): { result: Result; overBytes?: number } {
  const body = result.body ?? '';
  let fitted = result;
  if (!result.isBase64Encoded && Buffer.byteLength(body) >= COMPRESS_FROM_BYTES && acceptsGzip(acceptEncoding)) {
    fitted = {
      ...result,
      headers: { ...result.headers, 'content-encoding': 'gzip', vary: 'accept-encoding' },
      body: gzipSync(body).toString('base64'),
      isBase64Encoded: true,
    };
  }
  const size = serialisedSize(fitted);
  if (size <= LAMBDA_RESPONSE_MAX_BYTES) return { result: fitted };
  const refused = {
    statusCode: 500,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify({ statusCode: 500, error: 'ResponseTooLarge', message: RESPONSE_TOO_LARGE }),
  };
  return { result: refused, overBytes: size };
}
