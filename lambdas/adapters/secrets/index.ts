import type { SecretBox } from '../../core/integrations/ports';
import { env } from '../../runtime/env';
import { kmsSecretBox } from './kms-secret-box';
import { localSecretBox } from './local-secret-box';

let local: SecretBox | undefined;
/** KMS in AWS; the key file under the data folder in local mode. */
export function secretBox(): SecretBox {
  const e = env();
  if (e.STAGE === 'local') {
    if (!e.LOCAL_SECRETS_KEY_FILE) throw new Error('LOCAL_SECRETS_KEY_FILE is not set');
    return (local ??= localSecretBox(e.LOCAL_SECRETS_KEY_FILE));
  }
  return kmsSecretBox;
}
/** Local mode and tests change the data folder between runs. */
export function resetSecretBox(): void {
  local = undefined;
}
