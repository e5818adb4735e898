/// <reference types="vite/client" />
// The one way the web app talks to /api: same origin, cookies carry the session. An operation
// is called by its entry in the route table, `api(entry, input)` (docs/decisions/0025).
import type { z } from 'zod';
import { authApi } from '@/contracts/api/auth.api.ts';
import type { RouteDefinition } from '@/contracts/api/define-route.ts';
import type { ErrorBody } from '@/contracts/auth.contract.ts';
import { toUserMessage } from '@/core/error-messages.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/**
 * The one way the web app words a failure: the server's own words for a refusal (a 4xx says
 * what was wrong, a failed connection says so), else `fallback`, by default spec §8's mapper
 * (a 5xx's text helps nobody). A null fallback: nothing, where a title already says it failed.
 */
export function errorMessage(e: unknown, fallback?: string): string;
export function errorMessage(e: unknown, fallback: null): string | undefined;
export function errorMessage(e: unknown, fallback?: string | null): string | undefined {
  if (e instanceof ApiError && e.status < 500 && e.message) return e.message;
  return fallback === null ? undefined : (fallback ?? toUserMessage(e));
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  signal?: AbortSignal;
  /** Skip the one-time refresh-and-retry on 401. */
  noRefresh?: boolean;
  /** Sent as the Idempotency-Key header: the server answers a retry with the first answer. */
  idempotencyKey?: string;
}

// These endpoints answer 401 as part of their own meaning; refreshing would be wrong.
const NO_REFRESH: ReadonlySet<string> = new Set(
  [authApi.signIn, authApi.signUp, authApi.signOut, authApi.refresh].map((route) => route.path),
);

let onSignedOut: (() => void) | null = null;
/** Called when a refresh fails: the session is gone. */
export function setSignedOutHandler(handler: (() => void) | null): void {
  onSignedOut = handler;
}

let onStepUpRequired: (() => void) | null = null;
/**
 * Called on 403 insufficient_aal: the session is password-only but the account has a verified
 * factor (one added elsewhere since this tab loaded), so the app must show the challenge.
 */
export function setStepUpHandler(handler: (() => void) | null): void {
  onStepUpRequired = handler;
}

let refreshing: Promise<boolean> | null = null;

const REFRESH_LOCK = 'canto:auth-refresh';
const REFRESHED_AT = 'canto:refreshed-at';

function postRefresh(): Promise<boolean> {
  return fetch(authApi.refresh.path, {
    method: 'POST',
    credentials: 'include',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: '{}',
  })
    .then((res) => {
      if (res.ok) localStorage.setItem(REFRESHED_AT, String(Date.now()));
      return res.ok;
    })
    .catch(() => false);
}

/**
 * Tabs share the refresh cookie, and the server treats a second use of a refresh token as
 * theft (the whole session is revoked). So refreshes are serialized across tabs with a Web
 * Lock, and a request that was sent before another tab's refresh finished is simply retried
 * with the new cookies instead of refreshing again.
 */
function refreshAcrossTabs(staleBefore: number): Promise<boolean> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return postRefresh();
  // request() resolves to the callback's awaited result, whatever lib.dom's typing says.
  return locks
    .request(REFRESH_LOCK, async (): Promise<boolean> => {
      const last = Number(localStorage.getItem(REFRESHED_AT) ?? 0);
      if (last > staleBefore) return true;
      return postRefresh();
    })
    .then((ok) => ok);
}

/**
 * POST /auth/refresh once, shared by every caller that hit a 401 at the same time.
 * `sentAt`: when the failed request left; a refresh by another tab after that makes a
 * retry enough. Without it (a scheduled refresh) the refresh always happens.
 */
export function refreshSession(sentAt: number = Number.POSITIVE_INFINITY): Promise<boolean> {
  refreshing ??= refreshAcrossTabs(sentAt).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function send(
  method: Method,
  url: string,
  body: unknown,
  signal?: AbortSignal,
  idempotencyKey?: string,
) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  try {
    return await fetch(url, {
      method,
      headers,
      body: payload,
      credentials: 'include',
      signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(
      0,
      'network_error',
      'Network error. Please check your connection and try again.',
    );
  }
}

async function toError(res: Response): Promise<ApiError> {
  let code = 'http_error';
  let message = `Request failed (${res.status})`;
  try {
    const data = (await res.json()) as Partial<ErrorBody>;
    if (data?.error) {
      code = data.error.code ?? code;
      message = data.error.message ?? message;
    }
  } catch {
    // Not JSON (proxy page, empty body): keep the generic message.
  }
  return new ApiError(res.status, code, message);
}

async function parse<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Sends once, and once more after a refresh when the session had expired (401). */
async function exchange(
  method: Method,
  url: string,
  body: unknown,
  options: RequestOptions,
): Promise<Response> {
  const sentAt = Date.now();
  const path = url.split('?')[0]!;
  let res = await send(method, url, body, options.signal, options.idempotencyKey);
  if (res.status === 401 && !options.noRefresh && !NO_REFRESH.has(path)) {
    if (await refreshSession(sentAt)) {
      res = await send(method, url, body, options.signal, options.idempotencyKey);
    } else {
      onSignedOut?.();
    }
  }
  if (!res.ok) {
    const error = await toError(res);
    if (error.code === 'insufficient_aal') onStepUpRequired?.();
    throw error;
  }
  return res;
}

/** An operation the web app calls: one that answers JSON (or nothing). */
export type JsonRoute = RouteDefinition & { readonly produces?: undefined };

type ParamsInput<R> = R extends { readonly params: infer P extends z.ZodType }
  ? { params: z.input<P> }
  : { params?: undefined };
type QueryInput<R> = R extends { readonly query: infer Q extends z.ZodType }
  ? object extends z.input<Q>
    ? { query?: z.input<Q> }
    : { query: z.input<Q> }
  : { query?: undefined };
type BodyInput<R> = R extends { readonly multipart: true }
  ? { body: FormData }
  : R extends { readonly body: infer B extends z.ZodType }
    ? undefined extends z.input<B>
      ? { body?: z.input<B> }
      : { body: z.input<B> }
    : { body?: undefined };

/** What a call of `route` takes: its path params, query and body, as the table types them. */
export type ApiInput<R extends JsonRoute> = ParamsInput<R> &
  QueryInput<R> &
  BodyInput<R> &
  RequestOptions;

/** What a call of `route` resolves to: its response schema's type, or nothing. */
export type ApiAnswer<R extends JsonRoute> = R extends { readonly status: 204 }
  ? void
  : R extends { readonly response: infer S extends z.ZodType }
    ? z.output<S>
    : void;

/**
 * The URL of `route` with its path params filled in (encoded) and its query (undefined values
 * left out), e.g. `/api/playlists/1c…/tracks?…`.
 */
export function routeUrl(
  route: RouteDefinition,
  input: { params?: unknown; query?: unknown } = {},
): string {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`${route.method} ${route.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>))
    if (value !== undefined) query.append(name, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * In development, an answer is checked against its entry as it arrives, so a server and a
 * client that drifted apart fail at once and by name. The answer is returned as received
 * either way: development behaves as production does.
 */
function checkAnswer(route: JsonRoute, status: number, data: unknown): void {
  const expected = route.status ?? (route.response ? 200 : 204);
  const problems: string[] = [];
  if (status !== expected) problems.push(`status ${status}, not ${expected}`);
  else if (route.response && status !== 204) {
    const result = route.response.safeParse(data);
    if (!result.success)
      for (const issue of result.error.issues)
        problems.push(`${issue.path.join('.') || 'the answer'}: ${issue.message}`);
  }
  if (problems.length > 0)
    throw new Error(
      `${route.method} ${route.path} answered outside its contract: ${problems.join('; ')}`,
    );
}

async function callRoute<R extends JsonRoute>(
  route: R,
  input: Partial<ApiInput<R>> = {},
): Promise<ApiAnswer<R>> {
  const { signal, noRefresh, idempotencyKey } = input as RequestOptions;
  const res = await exchange(
    route.method,
    routeUrl(route, input as { params?: unknown; query?: unknown }),
    (input as { body?: unknown }).body,
    { signal, noRefresh, idempotencyKey },
  );
  const data = await parse<ApiAnswer<R>>(res);
  if (import.meta.env.DEV) checkAnswer(route, res.status, data);
  return data;
}

/** `api(entry)` or `api(entry, input)` when the entry has params, a query or a body. */
type CallRoute = <R extends JsonRoute>(
  route: R,
  ...input: object extends ApiInput<R> ? [input?: ApiInput<R>] : [input: ApiInput<R>]
) => Promise<ApiAnswer<R>>;

/**
 * `api(playlistsApi.addTrack, { params: { id }, body: { song_id } })`: calls an operation of
 * the route table, typed by its entry; the only way the web app reaches the API's JSON.
 */
export const api = callRoute as CallRoute;
