// The one way the web app talks to /api: same origin, cookies carry the session.
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
}

const BASE = '/api';

// These endpoints answer 401 as part of their own meaning; refreshing would be wrong.
const NO_REFRESH_PATHS = ['/auth/sign-in', '/auth/sign-up', '/auth/sign-out', '/auth/refresh'];

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
  return fetch(`${BASE}/auth/refresh`, {
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

async function send(method: Method, path: string, body: unknown, signal?: AbortSignal) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  try {
    return await fetch(`${BASE}${path}`, {
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

export async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const sentAt = Date.now();
  let res = await send(method, path, body, options.signal);
  if (res.status === 401 && !options.noRefresh && !NO_REFRESH_PATHS.includes(path)) {
    if (await refreshSession(sentAt)) {
      res = await send(method, path, body, options.signal);
    } else {
      onSignedOut?.();
    }
  }
  if (!res.ok) {
    const error = await toError(res);
    if (error.code === 'insufficient_aal') onStepUpRequired?.();
    throw error;
  }
  return parse<T>(res);
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, body, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) =>
    request<T>('DELETE', path, undefined, options),
};
