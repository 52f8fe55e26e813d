/**
 * Local mode's SecretBox: AES-256-GCM (node:crypto) with a 32-byte key kept in a file under the data folder
 * (created with mode 0600 on first use). The context is the GCM additional data, as KMS binds its encryption
 * context: a ciphertext moved to another company or kind fails to open.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SealedSecret, SecretBox } from '../../core/integrations/ports';

const aad = (context: Record<string, string>) =>
  Buffer.from(
    JSON.stringify(
      Object.keys(context)
        .sort()
        .map((k) => [k, context[k]]),
    ),
  );

function loadKey(file: string): Buffer {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

export function localSecretBox(keyFile: string): SecretBox {
  let key: Buffer | undefined;
  const k = () => (key ??= loadKey(keyFile));
  const keyId = () => `local:${createHash('sha256').update(k()).digest('hex').slice(0, 12)}`;
  return {
    async seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', k(), iv);
      cipher.setAAD(aad(context));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return { alg: 'local-aes-256-gcm', key_id: keyId(), iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ciphertext: ciphertext.toString('base64') };
    },
    async open(sealed: SealedSecret, context) {
      if (sealed.alg !== 'local-aes-256-gcm' || !sealed.iv || !sealed.tag) throw new Error(`cannot open a ${sealed.alg} secret with the local key`);
      const decipher = createDecipheriv('aes-256-gcm', k(), Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(aad(context));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
