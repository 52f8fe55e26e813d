// zod/mini: the same checks in a tree-shakeable build; this module is part of the first screen's JavaScript.
import { z } from 'zod/mini';

/** Runtime configuration served next to the SPA as /config.json (one build, any environment). */
export const appConfigSchema = z.object({
  apiUrl: z.string().check(z.minLength(1)),
  wsUrl: z.string(),
  region: z.string().check(z.minLength(1)),
  userPoolId: z.string().check(z.minLength(1)),
  userPoolClientId: z.string().check(z.minLength(1)),
  userPoolEndpoint: z.pipe(
    z.nullish(z.string()),
    z.transform((v) => (v ? v : undefined)),
  ),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export async function loadConfig(fetchImpl: typeof fetch = fetch, url = '/config.json'): Promise<AppConfig> {
  let res: Response;
  try {
    res = await fetchImpl(url, { cache: 'no-store' });
  } catch {
    throw new ConfigError('No connection to the internet');
  }
  if (!res.ok) throw new ConfigError(`The configuration could not be loaded (HTTP ${res.status}).`);
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new ConfigError('The configuration is not valid JSON.');
  }
  const parsed = appConfigSchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
    throw new ConfigError(`The configuration is incomplete (${fields}).`);
  }
  return parsed.data;
}
