/**
 * The steps at which the crash-safety tests (tests/integration/upload-crash.test.ts,
 * media-pipeline.test.ts) stop a server: an upload's temp file written; a local put's `.part`
 * file written, not yet renamed; the audio stored; the cover stored (the INSERT not yet run);
 * the row committed (the temp file not yet removed).
 */
export type CrashStep =
  | 'upload:received'
  | 'storage:part-written'
  | 'upload:audio-stored'
  | 'upload:cover-stored'
  | 'upload:inserted'
  // The media job: the original copied to a temp file; the ffmpeg run done; every output
  // stored, the song not yet pointed at them.
  | 'media:input'
  | 'media:transcoded'
  | 'media:stored';

/**
 * Fault injection, called on reaching each step. Only tests supply one, through buildApp's
 * deps (tests/helpers/server-entry.ts kills the process there, as `kill -9` would); the
 * server itself never does, so production has no way to turn it on.
 */
export type CrashPoint = (step: CrashStep) => void;
