/**
 * Local mode's AWS credentials: one access key whose secret is made at the first start and kept in the
 * data folder (readable by its owner only). The handlers sign their SDK calls with it, as in AWS; the
 * stand-ins whose real counterparts require IAM (Cognito's admin operations, the WebSocket @connections
 * API) verify those signatures with it (scripts/local/sigv4.ts). The browser never has it.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LocalCredentials } from './sigv4';

export const LOCAL_ACCESS_KEY_ID = 'LOCALMODEKEY';

export function localCredentials(dataDir: string): LocalCredentials {
  const file = path.join(dataDir, 'credentials.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalCredentials>;
    if (stored.accessKeyId && stored.secretAccessKey) return { accessKeyId: stored.accessKeyId, secretAccessKey: stored.secretAccessKey };
  }
  mkdirSync(dataDir, { recursive: true });
  const credentials = { accessKeyId: LOCAL_ACCESS_KEY_ID, secretAccessKey: randomBytes(30).toString('base64url') };
  writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
  chmodSync(file, 0o600);
  return credentials;
}
