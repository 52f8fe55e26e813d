/**
 * The route table: every HTTP route of the API. CDK creates one Lambda and one
 * API Gateway route per entry; the local API adapter dispatches from the same list.
 * `handler` is the file under lambdas/ (without extension) that exports `handler`.
 */
export type AuthLevel = 'public' | 'user' | 'company-admin' | 'global-admin';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway path syntax, e.g. /receipts/{id} */
  path: string;
  handler: string;
  auth: AuthLevel;
}

export const routes: RouteDef[] = [
  { method: 'GET', path: '/companies', handler: 'http/companies/get-companies', auth: 'user' },
  { method: 'POST', path: '/company', handler: 'http/companies/post-company', auth: 'user' },
  { method: 'DELETE', path: '/company', handler: 'http/companies/delete-company', auth: 'company-admin' },
  { method: 'GET', path: '/user', handler: 'http/user/get-user', auth: 'user' },
  { method: 'POST', path: '/user', handler: 'http/user/post-user', auth: 'user' },
];

/** Non-HTTP entry points that CDK wires to other event sources. */
export const websocketRoutes = [
  { routeKey: '$connect', handler: 'ws/connect' },
  { routeKey: '$disconnect', handler: 'ws/disconnect' },
  { routeKey: '$default', handler: 'ws/default' },
] as const;

export const triggerHandlers = {
  postConfirmation: 'triggers/post-confirmation',
} as const;

export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
