/**
 * Values kept in AWS Secrets Manager (the Google OAuth client secret, docs/integrations.md): read with GetSecretValue
 * on first use, once per container. The value is kept in memory only: never returned to a caller outside the
 * adapters, never logged (errors name the secret id and the SDK's error, not the value).
 *
 * Loaded lazily (lambdas/runtime/lazy-adapters.ts): only the handlers that declare the need `googleClientSecret`
 * bundle it, and only they are granted secretsmanager:GetSecretValue on that one secret.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;
const secretsManager = () => (client ??= new SecretsManagerClient({}));

/** One read per secret id per container; a failed read is forgotten, so the next call tries again. */
const reads = new Map<string, Promise<string>>();

/** The SecretString of `secretId` (a secret's name or ARN). */
export function secretValue(secretId: string): Promise<string> {
  let read = reads.get(secretId);
  if (!read) {
    read = fetchSecret(secretId);
    reads.set(secretId, read);
    read.catch(() => {
      if (reads.get(secretId) === read) reads.delete(secretId);
    });
  }
  return read;
}

async function fetchSecret(secretId: string): Promise<string> {
  const res = await secretsManager().send(new GetSecretValueCommand({ SecretId: secretId }));
  const value = res.SecretString?.trim();
  if (!value) throw new Error(`the secret ${secretId} has no string value`);
  return value;
}

/** Tests: forget the values read and the client. */
export function resetSecretValues(): void {
  reads.clear();
  client?.destroy();
  client = undefined;
}
