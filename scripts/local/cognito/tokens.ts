import { randomUUID } from 'node:crypto';
import {
  SignJWT,
  calculateJwkThumbprint,
  errors as joseErrors,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { notAuthorized } from './errors';
import { loadKeys, saveKeys, type StoredKeys, type StoredSession, type StoredUser } from './store';

export const ACCESS_TOKEN_TTL_S = 60 * 60;
export const ID_TOKEN_TTL_S = 60 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  iss: string;
  client_id: string;
  origin_jti: string;
  event_id: string;
  token_use: 'access';
  scope: string;
  auth_time: number;
  exp: number;
  iat: number;
  jti: string;
  username: string;
}

/** RS256 signing key: generated on first start, persisted in the data directory when there is one. */
export class SigningKeys {
  private constructor(
    readonly kid: string,
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly publicJwk: JWK,
  ) {}

  static async open(dataDir: string | undefined): Promise<SigningKeys> {
    const stored = dataDir ? await loadKeys(dataDir) : undefined;
    if (stored) {
      const privateKey = (await importJWK(stored.privateJwk, 'RS256')) as CryptoKey;
      const publicKey = (await importJWK(stored.publicJwk, 'RS256')) as CryptoKey;
      return new SigningKeys(stored.kid, privateKey, publicKey, stored.publicJwk);
    }
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    if (dataDir) {
      const keys: StoredKeys = {
        kid,
        privateJwk: await exportJWK(privateKey),
        publicJwk,
      };
      await saveKeys(dataDir, keys);
    }
    return new SigningKeys(kid, privateKey, publicKey, publicJwk);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [{ ...this.publicJwk, kid: this.kid, alg: 'RS256', use: 'sig' }] };
  }

  sign(payload: JWTPayload): Promise<string> {
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: this.kid }).sign(this.privateKey);
  }

  /** Verifies an access token's signature, issuer, expiry and `token_use`; maps failures to Cognito's errors. */
  async verifyAccessToken(token: string, issuer: string, nowMs: number): Promise<AccessTokenClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.publicKey, {
        issuer,
        algorithms: ['RS256'],
        currentDate: new Date(nowMs),
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw notAuthorized('Access Token has expired');
      throw notAuthorized('Invalid Access Token');
    }
    if (payload.token_use !== 'access' || typeof payload.sub !== 'string' || typeof payload.origin_jti !== 'string') {
      throw notAuthorized('Invalid Access Token');
    }
    return payload as AccessTokenClaims;
  }
}

/** Standard and custom attributes that go into the ID token (everything the user can read). */
function idTokenAttributes(user: StoredUser): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(user.attributes)) {
    if (name === 'email_verified' || name === 'phone_number_verified') claims[name] = value === 'true';
    else claims[name] = value;
  }
  return claims;
}

export interface IssuedTokens {
  AccessToken: string;
  IdToken: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
}

export async function issueTokens(
  keys: SigningKeys,
  params: { issuer: string; user: StoredUser; session: StoredSession; nowMs: number },
): Promise<IssuedTokens> {
  const { issuer, user, session, nowMs } = params;
  const iat = Math.floor(nowMs / 1000);
  const access: AccessTokenClaims = {
    sub: user.sub,
    iss: issuer,
    client_id: session.clientId,
    origin_jti: session.originJti,
    event_id: session.eventId,
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    auth_time: session.authTime,
    exp: iat + ACCESS_TOKEN_TTL_S,
    iat,
    jti: randomUUID(),
    username: user.username,
  };
  const id: JWTPayload = {
    ...idTokenAttributes(user),
    sub: user.sub,
    aud: session.clientId,
    iss: issuer,
    'cognito:username': user.username,
    origin_jti: session.originJti,
    event_id: session.eventId,
    token_use: 'id',
    auth_time: session.authTime,
    exp: iat + ID_TOKEN_TTL_S,
    iat,
    jti: randomUUID(),
  };
  return {
    AccessToken: await keys.sign(access),
    IdToken: await keys.sign(id),
    ExpiresIn: ACCESS_TOKEN_TTL_S,
    TokenType: 'Bearer',
  };
}
