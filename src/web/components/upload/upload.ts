// Multipart uploads with progress. fetch() has no upload progress events, so this one path
// uses XMLHttpRequest; errors come back as the api-client's ApiError, like every other call.
import type { ErrorBody } from '@/contracts/auth.contract.ts';
import { ApiError, refreshSession } from '@/web/lib/api-client.ts';

/** What the upload forms' checks read of a File (so they run without a DOM). */
export type UploadFile = Pick<File, 'size' | 'type'>;

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions {
  /** POST (the default) creates; PUT replaces, e.g. a song's cover art. */
  method?: 'POST' | 'PUT';
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

const NETWORK_MESSAGE = 'Network error. Please check your connection and try again.';

function sendOnce<T>(
  path: string,
  body: FormData,
  { method = 'POST', onProgress, signal }: UploadOptions,
): Promise<{ status: number; data: T | ErrorBody | null }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `/api${path}`);
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

/** POST (or PUT) a multipart body to /api<path>; resolves with the JSON answer, rejects with ApiError. */
export async function uploadForm<T>(
  path: string,
  body: FormData,
  options: UploadOptions = {},
): Promise<T> {
  const sentAt = Date.now();
  let res = await sendOnce<T>(path, body, options);
  // An access token that expired mid-form: refresh once and send again, like api-client.
  if (res.status === 401 && (await refreshSession(sentAt))) {
    res = await sendOnce<T>(path, body, options);
  }
  if (res.status >= 200 && res.status < 300) return res.data as T;
  const error = (res.data as Partial<ErrorBody> | null)?.error;
  throw new ApiError(
    res.status,
    error?.code ?? 'http_error',
    error?.message ?? `Request failed (${res.status})`,
  );
}
