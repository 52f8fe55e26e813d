import { existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The specification folder beside the checkout (../shared), where CI places it. */
export function datasetPath(...parts: string[]): string {
  const candidates = [path.resolve(ROOT, '../shared/datasets', ...parts), path.resolve('/work/shared/datasets', ...parts)];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`dataset file not found: ${candidates.join(' or ')}`);
  return found;
}
