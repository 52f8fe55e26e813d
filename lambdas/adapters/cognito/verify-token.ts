import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { AppError } from '../../../shared/errors';
import { env } from '../../runtime/env';

/** The issuer of the user pool's tokens: COGNITO_ISSUER locally, the eu-west-1 Cognito issuer in AWS. */
export function cognitoIssuer(): string {
  const e = env();
  if (e.COGNITO_ISSUER) return e.COGNITO_ISSUER;
  const region = e.USER_POOL_ID.split('_')[0] || 'eu-west-1';
  return `https://cognito-idp.${region}.amazonaws.com/${e.USER_POOL_ID}`;
}

const jwksByIssuer = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/**
 * Verifies a user pool access token the way API Gateway's JWT authorizer does:
 * signature by the pool's keys, issuer, expiry, token_use access and the app client id.
 */
export async function verifyAccessToken(token: string): Promise<JWTPayload & { sub: string }> {
  const issuer = cognitoIssuer();
  let jwks = jwksByIssuer.get(issuer);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
    jwksByIssuer.set(issuer, jwks);
  }
  try {
    // Cognito's access tokens always carry exp, token_use and client_id: a token without them is refused,
    // as aws-jwt-verify (Cognito's own verifier) and API Gateway's JWT authorizer refuse it.
    const { payload } = await jwtVerify(token, jwks, { issuer, algorithms: ['RS256'], requiredClaims: ['exp', 'iat', 'sub', 'token_use', 'client_id'] });
    const clientId = env().USER_POOL_CLIENT_ID;
    if (payload.token_use !== 'access') throw new Error('not an access token');
    if (clientId && payload.client_id !== clientId) throw new Error('token of another app client');
    if (typeof payload.sub !== 'string') throw new Error('token without subject');
    return payload as JWTPayload & { sub: string };
  } catch (error) {
    throw new AppError('Unauthorized', 'Your previous session has expired.', {
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}
