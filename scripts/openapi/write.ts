/**
 * Writes the OpenAPI document to a file: `tsx scripts/openapi/write.ts <file> [server url]`.
 * The web build runs it (web/vite.config.ts) into dist/api/openapi.json; the deployment publishes that file at
 * <site>/api/openapi.json with the deployed API's URL as its server (infra/stacks/web-content-stack.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateOpenApi } from './load';

const [file, serverUrl = '/api'] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx scripts/openapi/write.ts <file> [server url]');
  process.exit(2);
}
const document = await generateOpenApi({ serverUrl });
mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
console.log(`OpenAPI ${document.openapi}: ${Object.values(document.paths).reduce((n, p) => n + Object.keys(p).length, 0)} operations → ${file}`);
process.exit(0);
