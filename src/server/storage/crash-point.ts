/**
 * The steps at which the crash-safety test (tests/integration/upload-crash.test.ts) stops a
 * server: an upload's temp file written; a local put's `.part` file written, not yet renamed;
 * the audio stored; the cover stored (the INSERT not yet run); the row committed (the temp
 * file not yet removed).
 */
export type CrashStep =
  | 'upload:received'
  | 'storage:part-written'
  | 'upload:audio-stored'
  | 'upload:cover-stored'
  | 'upload:inserted'
  // The media job (tests/integration/media-pipeline.test.ts): the original copied to a temp
  // file; the ffmpeg run done; every output stored, the song not yet pointed at them.
  | 'media:input'
  | 'media:transcoded'
  | 'media:stored';

export type CrashPoint = (step: CrashStep) => void;

/**
 * Fault injection for that test (CANTO_TEST_CRASH_AT=<step>): the process SIGKILLs itself on
 * reaching the step, so no `finally`, no close and no flush runs, exactly as after `kill -9`.
 * Without the setting it does nothing.
 */
export function crashPoint(at: string | undefined): CrashPoint {
  if (!at) return () => {};
  return (step) => {
    if (step === at) process.kill(process.pid, 'SIGKILL');
  };
}
