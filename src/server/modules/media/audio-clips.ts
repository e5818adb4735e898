import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Ffmpeg } from '../../media/ffmpeg.ts';
import type { Log } from '../../log.ts';
import type { Storage } from '../../storage/storage.ts';
import type { StoredFile } from './cover-sizes.ts';

/** The opening of a rendition kept as its own file: a song page's preview for visitors. */
export const OPENING_CLIP_SECONDS = 30;

// A rendition's key: a UUID (jobScopedName) and its extension.
const RENDITION_KEY = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.webm$/;
// A 30 s clip of a 160 kb/s rendition is ~600 kB; far more is something else.
const MAX_CLIP_BYTES = 8 * 1024 * 1024;
const CLIP_TIMEOUT_MS = 30_000;

/**
 * Where a rendition's opening clip lives: under the rendition's own UUID
 * (`<uuid>/<seconds>.webm`, an owned key's form), so the media reconciler keeps it exactly as
 * long as a row still names the rendition (media-reconciler.ts, derived files). Null for a
 * file that is not a WebM rendition.
 */
export function openingClipKey(rendition: StoredFile): StoredFile | null {
  const own = RENDITION_KEY.exec(rendition.key)?.[1];
  return own ? { bucket: rendition.bucket, key: `${own}/${OPENING_CLIP_SECONDS}.webm` } : null;
}

/**
 * The first OPENING_CLIP_SECONDS of an Opus/WebM rendition, stream-copied by the shared ffmpeg
 * (no re-encode: a few ms of work), made on the first request and kept beside the rendition.
 * Concurrent first requests share one run.
 */
export function createAudioClips(deps: {
  storage: Storage;
  ffmpeg: Ffmpeg;
  tempDir: string;
  log: Log;
}) {
  const { storage, ffmpeg, log } = deps;
  const making = new Map<string, Promise<StoredFile>>();
  let tempReady: Promise<unknown> | undefined;

  async function make(rendition: StoredFile, clip: StoredFile): Promise<StoredFile> {
    await (tempReady ??= fsp.mkdir(deps.tempDir, { recursive: true }));
    // `.upload`: the reconciler's temp sweep removes what a crash leaves here.
    const input = path.join(deps.tempDir, `${crypto.randomUUID()}.upload`);
    const output = path.join(deps.tempDir, `${crypto.randomUUID()}.upload`);
    try {
      await pipeline(
        await storage.read(rendition.bucket, rendition.key),
        fs.createWriteStream(input),
      );
      const result = await ffmpeg.run({
        args: [
          '-nostdin',
          '-hide_banner',
          '-v',
          'error',
          '-y',
          // Renditions are WebM: ffmpeg never guesses another demuxer for the bytes.
          '-f',
          'matroska',
          '-i',
          `file:${input}`,
          '-t',
          String(OPENING_CLIP_SECONDS),
          '-map',
          '0:a:0',
          '-c',
          'copy',
          '-f',
          'webm',
          `file:${output}`,
        ],
        timeoutMs: CLIP_TIMEOUT_MS,
        // A visitor waits for it: not behind a long transcode.
        interactive: true,
      });
      if (!result.ok) throw new Error(`opening clip failed: ${result.why}`);
      await storage.put(clip.bucket, clip.key, fs.createReadStream(output), {
        contentType: 'audio/webm',
        maxBytes: MAX_CLIP_BYTES,
      });
      log.debug({ rendition: rendition.key }, 'made an opening clip');
      return clip;
    } finally {
      await Promise.all([input, output].map((f) => fsp.rm(f, { force: true })));
    }
  }

  return {
    /** The rendition's opening clip, made and stored on the first request for it. */
    async openingClip(rendition: StoredFile): Promise<StoredFile> {
      const clip = openingClipKey(rendition);
      if (!clip) throw new Error(`no opening clip of ${rendition.key}: not a WebM rendition`);
      if (await storage.exists(clip.bucket, clip.key)) return clip;
      const id = `${clip.bucket}/${clip.key}`;
      let pending = making.get(id);
      if (!pending) {
        pending = make(rendition, clip).finally(() => making.delete(id));
        making.set(id, pending);
      }
      return pending;
    },
  };
}
