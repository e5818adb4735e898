import type { z } from 'zod';

/*
 * The route table (docs/decisions/0025): one entry per operation of the API, written once
 * here and used by both sides. The server registers each route from its entry
 * (src/server/http/contract-route.ts: params, querystring, body and response schemas), and
 * the web app calls it through `api(entry, input)` (src/web/lib/api-client.ts), which fills
 * the path, serializes the query and infers the answer's type from the same schemas.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The status of a successful answer; the table names it when it is not 200. */
export type SuccessStatus = 200 | 201 | 202 | 204;

/**
 * What a route answers instead of JSON. The web app never calls these through `api()`: their
 * URLs are handed out by the server (a show's `feed_url`, an episode's enclosure) and read by
 * podcast apps, or are downloads a link opens (an artist's CSV statement).
 */
export type NonJsonAnswer = 'application/rss+xml' | 'image/jpeg' | 'audio' | 'text/csv';

export type RouteDefinition = {
  readonly method: HttpMethod;
  /** The whole path in Fastify's syntax, e.g. `/api/playlists/:id`; each `:name` is in `params`. */
  readonly path: `/${string}`;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** A JSON body. */
  readonly body?: z.ZodType;
  /**
   * The body is multipart/form-data: the route reads its parts itself (files are streamed),
   * so there is no schema to validate it with; the client sends a FormData.
   */
  readonly multipart?: true;
  /** Default 200 (with a `response`) or 204 (without one). */
  readonly status?: SuccessStatus;
  /** The successful answer's JSON; the server serializes through it (unknown fields dropped). */
  readonly response?: z.ZodType;
  /** Error answers the API document spells out (every error has the errorBody shape anyway). */
  readonly errors?: Readonly<Record<number, z.ZodType>>;
  readonly produces?: NonJsonAnswer;
  /** The route answers HEAD itself too (not Fastify's automatic HEAD of a GET). */
  readonly head?: true;
};

/** The `:name` segments of a path. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsKeys<R> = R extends { params: z.ZodType } ? keyof z.input<R['params']> : never;

/** `{}` when the path's `:name`s and the keys of `params` are the same set; else a type error. */
type ParamsMatchPath<R extends RouteDefinition> = [PathParamNames<R['path']>] extends [
  ParamsKeys<R>,
]
  ? [ParamsKeys<R>] extends [PathParamNames<R['path']>]
    ? unknown
    : { params: `the path ${R['path']} has no segment for one of these params` }
  : { params: `params must name every :segment of ${R['path']}` };

/**
 * One operation of the table. The literal type is kept (method, path, every schema), so the
 * server's handler and the client's answer are typed from it.
 */
export function defineRoute<const R extends RouteDefinition>(route: R & ParamsMatchPath<R>): R {
  return route;
}
