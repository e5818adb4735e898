// One multipart upload as a form runs it: the percent sent so far, Cancel, and a stop when the
// form leaves the screen (the server keeps nothing of a stopped upload).
import { useEffect, useRef, useState } from 'react';
import { uploadForm } from './upload.ts';

/** The upload was stopped (Cancel, or the form left the screen): nothing to tell anyone. */
export const isUploadStopped = (e: unknown): boolean =>
  e instanceof DOMException && e.name === 'AbortError';

export function useUpload() {
  const abortRef = useRef<AbortController | null>(null);
  const [percent, setPercent] = useState<number | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  /** POSTs `body` to /api<path> with progress; rejects as uploadForm does. */
  const send = async <T>(path: string, body: FormData): Promise<T> => {
    const abort = new AbortController();
    abortRef.current = abort;
    setPercent(0);
    try {
      return await uploadForm<T>(path, body, {
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
