/**
 * The contracts of every HTTP handler of the route table: imports each handler module (lambdas/<handler>.ts)
 * and reads the `contract` httpHandler attaches. Used by local mode (GET /api/openapi.json), the web build
 * (dist/api/openapi.json, published with the deployment) and the tests.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HandlerContract } from '../../lambdas/runtime/http-handler';
import { routeKey, routes as routeTable, type RouteDef } from '../../shared/routes';
import { buildOpenApiDocument, type DocumentOptions, type OpenApiDocument } from './document';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface ContractCarrier {
  route?: string;
  contract?: HandlerContract;
}

export async function loadContracts(routes: readonly RouteDef[] = routeTable): Promise<Map<string, HandlerContract>> {
  const contracts = new Map<string, HandlerContract>();
  for (const route of routes) {
    const file = pathToFileURL(path.join(ROOT, 'lambdas', `${route.handler}.ts`)).href;
    const mod = (await import(file)) as { handler?: ContractCarrier };
    const key = routeKey(route);
    if (mod.handler?.route !== key) throw new Error(`lambdas/${route.handler}.ts handles ${mod.handler?.route ?? 'nothing'}, not ${key}`);
    if (mod.handler.contract) contracts.set(key, mod.handler.contract);
  }
  return contracts;
}

export async function generateOpenApi(options: DocumentOptions): Promise<OpenApiDocument> {
  return buildOpenApiDocument(routeTable, await loadContracts(), options);
}
