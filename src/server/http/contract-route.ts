import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RouteDefinition } from '../../contracts/api/define-route.ts';

/*
 * A route registered from its entry in the route table (src/contracts/api/, docs/decisions/0025):
 * method, path and the params, querystring, body and response schemas come from the entry,
 * so the server validates and serializes exactly what the web client is typed by. The route
 * file adds what only the server knows: config.access, the document's tags and summary, hooks
 * and the handler.
 */

type Part<R, K extends string> = R extends { readonly [P in K]: infer T } ? T : undefined;
type StatusOf<R> = R extends { readonly status: infer S extends number } ? S : 200;
type Responses<R> = (R extends { readonly response: infer S }
  ? { [K in StatusOf<R>]: S }
  : unknown) &
  (R extends { readonly errors: infer E } ? E : unknown);

/** The schema Fastify types the handler by (fastify-type-provider-zod, as for `app.get`). */
export type ContractSchema<R extends RouteDefinition> = {
  params: Part<R, 'params'>;
  querystring: Part<R, 'query'>;
  body: Part<R, 'body'>;
  response: Responses<R>;
};

export type ContractRouteOptions<R extends RouteDefinition> = Omit<
  RouteOptions<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    ContractSchema<R>,
    ZodTypeProvider,
    FastifyBaseLogger
  >,
  'method' | 'url' | 'schema'
> & {
  /** The API document's words (tags, summary) and, for a multipart body, its parts. */
  schema: Omit<FastifySchema, 'params' | 'querystring' | 'body' | 'response' | 'headers'>;
};

// Route files are plugins of any type provider (the Stripe webhook's scope has none).
type AnyFastify = FastifyInstance<any, any, any, any, any>;

/**
 * `path` as a route of `app`, whose plugin is registered under a prefix (e.g. /api): the
 * table holds whole paths, the way clients call them.
 */
export function pathUnder(app: Pick<AnyFastify, 'prefix'>, path: string): string {
  const { prefix } = app;
  if (prefix && path !== prefix && !path.startsWith(`${prefix}/`))
    throw new Error(`The route ${path} is registered in a plugin under ${prefix}`);
  return path.slice(prefix.length);
}

/** The validation and serialization schemas of an entry, only those it has. */
function schemasOf(route: RouteDefinition): FastifySchema {
  const schema: FastifySchema = {};
  if (route.params) schema.params = route.params;
  if (route.query) schema.querystring = route.query;
  if (route.body) schema.body = route.body;
  const response: Record<number, unknown> = {};
  if (route.response) response[route.status ?? 200] = route.response;
  Object.assign(response, route.errors);
  if (Object.keys(response).length > 0) schema.response = response;
  return schema;
}

/** Registers the operation `route` of the table on `app`, with the server's own parts. */
export function contractRoute<const R extends RouteDefinition>(
  app: AnyFastify,
  route: R,
  options: ContractRouteOptions<R>,
): void {
  const { schema, ...rest } = options;
  app.route({
    ...(rest as Omit<RouteOptions, 'method' | 'url' | 'schema'>),
    method: route.head ? [route.method, 'HEAD'] : route.method,
    url: pathUnder(app, route.path),
    schema: { ...schema, ...schemasOf(route) },
  });
}
