// Multipart uploads with progress. fetch() has no upload progress events, so this one path
// uses XMLHttpRequest; errors come back as the api-client's ApiError, like every other call.
// An upload names its operation by its route table entry, as `api()` calls do.
import type { ErrorBody } from '@/contracts/auth.contract.ts';
import {
  ApiError,
  refreshSession,
  routeUrl,
  type ApiAnswer,
  type ApiInput,
  type JsonRoute,
} from '@/web/lib/api-client.ts';

/** What the upload forms' checks read of a File (so they run without a DOM). */
export type UploadFile = Pick<File, 'size' | 'type'>;

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** An operation of the route table whose body is a multipart form (a song, an episode…). */
export type UploadRoute = JsonRoute & { readonly multipart: true };

/** Where an upload goes: the entry's path params, when it has any. */
export type UploadTarget<R extends UploadRoute> = Pick<ApiInput<R>, 'params'>;

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

const NETWORK_MESSAGE = 'Network error. Please check your connection and try again.';

function sendOnce(
  method: string,
  url: string,
  body: FormData,
  { onProgress, signal }: UploadOptions,
): Promise<{ status: number; data: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.({ loaded: e.loaded, total: e.total });
    };
    xhr.onload = () => resolve({ status: xhr.status, data: xhr.response });
    xhr.onerror = () => reject(new ApiError(0, 'network_error', NETWORK_MESSAGE));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    if (signal?.aborted) return reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/**
 * Sends a multipart body to the operation `route` (its method, its path with `target`'s
 * params); resolves with the JSON answer its entry types, rejects with ApiError.
 */
export async function uploadForm<R extends UploadRoute>(
  route: R,
  target: UploadTarget<R>,
  body: FormData,
  options: UploadOptions = {},
): Promise<ApiAnswer<R>> {
  const url = routeUrl(route, target);
  const sentAt = Date.now();
  let res = await sendOnce(route.method, url, body, options);
  // An access token that expired mid-form: refresh once and send again, like api-client.
  if (res.status === 401 && (await refreshSession(sentAt))) {
    res = await sendOnce(route.method, url, body, options);
  }
  // XHR parsed the JSON (responseType 'json'); the entry's response schema is its shape.
  if (res.status >= 200 && res.status < 300) return res.data as ApiAnswer<R>;
  const error = (res.data as Partial<ErrorBody> | null)?.error;
  throw new ApiError(
    res.status,
    error?.code ?? 'http_error',
    error?.message ?? `Request failed (${res.status})`,
  );
}
