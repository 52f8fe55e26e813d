/**
 * Credentials sealed with AWS KMS Encrypt/Decrypt under the product's own key (docs/decisions.md
 * "Integrations"): secrets are a few hundred bytes, well under KMS's 4 KB limit, so no data key is needed;
 * the encryption context (company id, integration kind) is bound to each ciphertext and shows in CloudTrail.
 * Only functions that bundle this adapter are granted kms:Encrypt/Decrypt on the key (infra/constructs/grants.ts).
 */
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import type { SealedSecret, SecretBox } from '../../core/integrations/ports';
import { env } from '../../runtime/env';

let client: KMSClient | undefined;
const kms = () => (client ??= new KMSClient({}));

export const kmsSecretBox: SecretBox = {
  async seal(plain, context) {
    const keyId = env().SECRETS_KEY_ID;
    if (!keyId) throw new Error('SECRETS_KEY_ID is not set');
    const res = await kms().send(new EncryptCommand({ KeyId: keyId, Plaintext: new TextEncoder().encode(plain), EncryptionContext: context }));
    return { alg: 'kms', key_id: res.KeyId ?? keyId, ciphertext: Buffer.from(res.CiphertextBlob ?? new Uint8Array()).toString('base64') };
  },
  async open(sealed: SealedSecret, context) {
    if (sealed.alg !== 'kms') throw new Error(`cannot open a ${sealed.alg} secret with KMS`);
    const res = await kms().send(new DecryptCommand({ CiphertextBlob: Buffer.from(sealed.ciphertext, 'base64'), KeyId: sealed.key_id, EncryptionContext: context }));
    return new TextDecoder().decode(res.Plaintext);
  },
};
