// Real media-job failures for the browser journeys ('Processing failed' and Retry, ADR 0014):
// serve.ts gives the server an FFMPEG_PATH wrapper that passes every run through to the real
// ffmpeg unless a journey has put a control file in this server's fault directory. Only
// transcoding runs (the media job's, the ones with `ebur128`) are tampered with; upload checks
// also pass `-progress`, so that is no way to tell them apart, and they always run as is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * fail: a transcode run exits 1 as ffmpeg does on a file it cannot decode;
 * hold: a transcode run waits while the file exists (a job that visibly takes its time).
 */
export type FfmpegFault = 'fail' | 'hold';

/** The fault directory of the journeys' server on `port` (one per port: runs may share a machine). */
export function ffmpegFaultDir(port: number): string {
  return path.join(os.tmpdir(), `canto-e2e-${port}-ffmpeg`);
}

/** Turns a fault on or off for the server on `port`. */
export function setFfmpegFault(port: number, fault: FfmpegFault, on: boolean): void {
  const file = path.join(ffmpegFaultDir(port), fault);
  if (on) fs.writeFileSync(file, '');
  else fs.rmSync(file, { force: true });
}

/** Writes the wrapper into a fresh fault directory (no fault on) and returns its path. */
export function writeFaultyFfmpeg(port: number, realFfmpeg: string): string {
  const dir = ffmpegFaultDir(port);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const wrapper = path.join(dir, 'ffmpeg.sh');
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh
case "$*" in
  *ebur128*)
    if [ -f '${dir}/fail' ]; then echo 'Invalid data found when processing input' >&2; exit 1; fi
    while [ -f '${dir}/hold' ]; do sleep 0.1; done
    ;;
esac
exec '${realFfmpeg}' "$@"
`,
    { mode: 0o755 },
  );
  return wrapper;
}
