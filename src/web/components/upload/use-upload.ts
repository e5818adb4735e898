// One multipart upload as a form runs it: the percent sent so far, Cancel, and a stop when the
// form leaves the screen (the server keeps nothing of a stopped upload).
import { useEffect, useRef, useState } from 'react';
import type { ApiAnswer } from '@/web/lib/api-client.ts';
import { uploadForm, type UploadRoute, type UploadTarget } from './upload.ts';

/** The upload was stopped (Cancel, or the form left the screen): nothing to tell anyone. */
export const isUploadStopped = (e: unknown): boolean =>
  e instanceof DOMException && e.name === 'AbortError';

export function useUpload() {
  const abortRef = useRef<AbortController | null>(null);
  const [percent, setPercent] = useState<number | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  /** Sends `body` to the operation `route` with progress; rejects as uploadForm does. */
  const send = async <R extends UploadRoute>(
    route: R,
    target: UploadTarget<R>,
    body: FormData,
  ): Promise<ApiAnswer<R>> => {
    const abort = new AbortController();
    abortRef.current = abort;
    setPercent(0);
    try {
      return await uploadForm(route, target, body, {
        signal: abort.signal,
        onProgress: ({ loaded, total }) => setPercent(Math.round((loaded / total) * 100)),
      });
    } finally {
      if (abortRef.current === abort) abortRef.current = null;
      // Unmounted (a cancel, or the form left the screen): nothing to reset.
      if (!abort.signal.aborted) setPercent(null);
    }
  };

  const cancel = () => {
    abortRef.current?.abort();
    setPercent(null);
  };

  /** Null while no upload runs. */
  return { percent, uploading: percent !== null, send, cancel };
}
