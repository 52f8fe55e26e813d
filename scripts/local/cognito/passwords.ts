import { randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { CognitoError } from './errors';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

const N = 16384;
const R = 8;
const P = 1;
const KEY_LEN = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LEN, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * The pool's password policy: at least 8 characters with upper-case,
 * lower-case and numeric characters (symbols not required). Messages are
 * Cognito's own.
 */
export function assertPasswordPolicy(password: string, type = 'InvalidPasswordException'): void {
  const fail = (reason: string): never => {
    throw new CognitoError(type, `Password did not conform with policy: ${reason}`);
  };
  if (password.length < 8) fail('Password not long enough');
  if (password.length > 256) fail('Password is too long');
  if (!/[A-Z]/.test(password)) fail('Password must have uppercase characters');
  if (!/[a-z]/.test(password)) fail('Password must have lowercase characters');
  if (!/[0-9]/.test(password)) fail('Password must have numeric characters');
}

/** Six-digit verification code, as Cognito e-mails them. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** A temporary password that satisfies the policy (used by AdminCreateUser without TemporaryPassword). */
export function newTemporaryPassword(): string {
  return `${randomBytes(6).toString('base64url')}Aa1!`;
}
