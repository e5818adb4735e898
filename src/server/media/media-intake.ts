import { once } from 'node:events';
import fs from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, ErrorCode } from '../../core/errors.ts';
import { songLimits, songMessages } from '../../core/validation/song.rules.ts';
import {
  claimProblem,
  decodedProblem,
  type AudioProblem,
} from '../../core/validation/audio.rules.ts';
import type { Demuxer, Ffmpeg } from './ffmpeg.ts';
import { detectAudioContainer, SIGNATURE_BYTES, type AudioContainer } from './audio-signature.ts';
import type { Log } from '../log.ts';

/*
 * What every uploaded file goes through (songs, podcast shows and episodes, ads, avatars;
 * ADR 0006): audio is streamed to a temp file while counted and sniffed, then parsed and
 * decoded to measure it; images are read into memory (a few MB at most), then decoded and
 * re-encoded. Each form names its field and its spec messages (upload-form.ts declares them).
 */

/** An upload's audio field as its feature's form and spec call it. */
export type AudioIntakeRules = {
  /** The multipart field, reported as `details.field`. */
  field: string;
  maxBytes: number;
  messages: {
    tooLarge: string;
    /** Content that is not the audio its name says (415), or audio we refuse (422). */
    invalid: string;
  };
};

/** An upload's image field (a cover, an ad's image, an avatar) as its form and spec call it. */
export type ImageIntakeRules = {
  /** The multipart field, reported as `details.field`. */
  field: string;
  maxBytes: number;
  messages: {
    tooLarge: string;
    /** Content that is not a picture we can decode (415). */
    invalid: string;
  };
};

/** Cover art (a song's, a podcast show's), in spec §5/§8's cover words. */
export const COVER_ART: Omit<ImageIntakeRules, 'field'> = {
  maxBytes: songLimits.coverMaxBytes,
  messages: { tooLarge: songMessages.coverTooLarge, invalid: songMessages.coverInvalid },
};

// Stable codes for the client (details.reason), beside the spec §5/§8 message.
export const audioTooLarge = (rules: AudioIntakeRules) =>
  new AppError(ErrorCode.payloadTooLarge, rules.messages.tooLarge, {
    field: rules.field,
    maxBytes: rules.maxBytes,
  });
export const imageTooLarge = (rules: ImageIntakeRules) =>
  new AppError(ErrorCode.payloadTooLarge, rules.messages.tooLarge, {
    field: rules.field,
    maxBytes: rules.maxBytes,
  });
export const audioInvalid = (rules: AudioIntakeRules, why: string) =>
  new AppError(ErrorCode.unsupportedMedia, rules.messages.invalid, {
    field: rules.field,
    reason: why,
  });
/** 422: audio we recognised but refuse; the reason is a fixed word, never a path. */
export const audioUnprocessable = (rules: AudioIntakeRules, reason: AudioProblem) =>
  new AppError(ErrorCode.unprocessableMedia, rules.messages.invalid, {
    field: rules.field,
    reason,
  });
export const imageInvalid = (rules: ImageIntakeRules, why: string) =>
  new AppError(ErrorCode.unsupportedMedia, rules.messages.invalid, {
    field: rules.field,
    reason: why,
  });

/**
 * Counts bytes (failing the moment the count passes `maxBytes`) and checks the audio
 * signature on the first bytes, so a non-audio body fails after a few bytes, not 100 MB.
 */
class AudioGate extends Transform {
  bytes = 0;
  container: AudioContainer | null = null;
  private head: Buffer[] = [];
  private headBytes = 0;

  constructor(private readonly rules: AudioIntakeRules) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.rules.maxBytes) return callback(audioTooLarge(this.rules));
    if (!this.container) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes >= SIGNATURE_BYTES) {
        const error = this.decide();
        if (error) return callback(error);
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback) {
    // Zero bytes is "no file chosen" (a form's empty file input), decided by the caller.
    callback(this.container || this.bytes === 0 ? null : this.decide());
  }

  private decide(): AppError | null {
    this.container = detectAudioContainer(Buffer.concat(this.head));
    this.head = [];
    return this.container ? null : audioInvalid(this.rules, 'signature');
  }
}

export type ReceivedAudio = {
  path: string;
  size: number;
  container: AudioContainer;
  /** Its form's words, for the checks that come after (probeAudio). */
  rules: AudioIntakeRules;
};

/**
 * Streams an audio part into `tempPath` while counting and sniffing; never holds the file
 * in memory. `truncated` reports a cut made by the multipart parser's own size limit.
 * Null for an empty part: a form sends one when no file was chosen.
 */
export async function receiveAudio(
  source: Readable,
  tempPath: string,
  truncated: () => boolean,
  rules: AudioIntakeRules,
): Promise<ReceivedAudio | null> {
  const gate = new AudioGate(rules);
  const sink = fs.createWriteStream(tempPath, { flags: 'w' });
  try {
    await pipeline(source, gate, sink);
  } catch (error) {
    // pipeline() rejects at the first error, before the file is closed and possibly before it
    // was even opened: the caller's rm() could run first and the file then appear behind it.
    if (!sink.closed) await once(sink, 'close').catch(() => {});
    throw error;
  }
  if (truncated()) throw audioTooLarge(rules);
  if (gate.bytes === 0) return null;
  return { path: tempPath, size: gate.bytes, container: gate.container!, rules };
}

export type AudioFacts = {
  durationMs: number;
  extension: AudioContainer;
  tagTitle?: string;
  tagGenre?: string;
};

const DEMUXERS: Record<AudioContainer, Demuxer> = {
  mp3: 'mp3',
  wav: 'wav',
  flac: 'flac',
  ogg: 'ogg',
  m4a: 'mov',
};

/** The demuxer for a stored original's key (its extension is the container it was recognised as). */
export function demuxerOfKey(key: string): Demuxer | null {
  const extension = key.slice(key.lastIndexOf('.') + 1);
  return Object.hasOwn(DEMUXERS, extension) ? DEMUXERS[extension as AudioContainer] : null;
}

/**
 * A real parse of the stored temp file, then a real decode. The parse (music-metadata) must
 * find the container it claimed; its header claims (sample rate, duration) must be sane. The
 * duration stored is the one ffmpeg measured by decoding every frame, and it must agree with
 * the claim: a header that lies (a Xing frame count of 2^32) is refused, never stored.
 */
export async function probeAudio(
  file: ReceivedAudio,
  ffmpeg: Ffmpeg,
  log: Log,
): Promise<AudioFacts> {
  const { rules } = file;
  // Loaded on the first upload, not at start (docs/decisions/0009).
  const { parseFile } = await import('music-metadata');
  let meta;
  try {
    meta = await parseFile(file.path, { duration: true, skipCovers: true });
  } catch (error) {
    // The parser's message may quote the file's path: it stays in the log.
    log.warn({ err: error }, 'uploaded audio did not parse');
    throw audioInvalid(rules, 'parse');
  }
  const container = (meta.format.container ?? '').toLowerCase();
  let extension: AudioContainer = file.container;
  // An ID3 tag may prefix FLAC as well as MPEG audio; the parser knows which it was.
  if (file.container === 'mp3' && container.includes('flac')) extension = 'flac';
  else if (file.container === 'mp3' && !container.includes('mpeg'))
    throw audioInvalid(rules, 'container');

  // No length at all: the parser found no real audio stream in the container (415). A length,
  // however absurd, is a claim for the rules below (422).
  const claimedSeconds = meta.format.duration;
  if (!claimedSeconds || claimedSeconds < 0) throw audioInvalid(rules, 'no duration');
  const claimedMs = claimedSeconds * 1000;
  const early = claimProblem({ durationMs: claimedMs, sampleRate: meta.format.sampleRate });
  if (early) throw audioUnprocessable(rules, early);

  const decoded = await ffmpeg.decodeAudio(file.path, DEMUXERS[extension]);
  if (!decoded.ok) {
    log.warn({ why: decoded.why, container: extension }, 'uploaded audio did not decode');
    throw audioUnprocessable(rules, 'undecodable');
  }
  const problem = decodedProblem(decoded.durationMs, claimedMs);
  if (problem) throw audioUnprocessable(rules, problem);
  return {
    durationMs: decoded.durationMs,
    extension,
    tagTitle: meta.common.title,
    tagGenre: meta.common.genre?.[0],
  };
}

export type ReceivedImage = {
  bytes: Buffer;
  /** Its form's words, for the checks that come after (processImage). */
  rules: ImageIntakeRules;
};

/**
 * Reads an image part into memory (it is at most a few MB), failing past the limit. Null for
 * an empty part: a form sends one when no file was chosen.
 */
export async function receiveImage(
  source: Readable,
  truncated: () => boolean,
  rules: ImageIntakeRules,
): Promise<ReceivedImage | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > rules.maxBytes) {
      source.destroy();
      throw imageTooLarge(rules);
    }
    chunks.push(chunk);
  }
  if (truncated()) throw imageTooLarge(rules);
  return bytes === 0 ? null : { bytes: Buffer.concat(chunks), rules };
}

const RASTER_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
export const COVER_MAX_SIDE = 1000;

/**
 * Decodes the image for real and re-encodes it as WebP, at most 1000 px a side: what is
 * stored is pixels we made, with no metadata and no script. SVG is refused (a document, not
 * pixels), as is anything sharp cannot decode — an HTML file named .png among them.
 */
export async function processImage({ bytes, rules }: ReceivedImage): Promise<Buffer> {
  if (bytes.length === 0) throw imageInvalid(rules, 'empty');
  // sharp (libvips, ~15 MB resident) is loaded on the first image, not at start (ADR 0009).
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: 40_000_000 });
    const { format } = await image.metadata();
    if (!format || !RASTER_FORMATS.has(format))
      throw imageInvalid(rules, `format ${format ?? 'unknown'}`);
    return await image
      .rotate()
      .resize(COVER_MAX_SIDE, COVER_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw imageInvalid(rules, 'decode');
  }
}

/**
 * A stored cover as a square sRGB JPEG of `side` px, the whole picture kept (letterboxed on
 * black when it is not square): what Apple's podcast directory asks of a show's artwork
 * (JPEG or PNG, 1400-3000 px, square, RGB), which the stored WebP of at most 1000 px is not.
 */
export async function squareJpeg(cover: Buffer, side: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(cover, { failOn: 'error', limitInputPixels: 40_000_000 })
    .resize(side, side, { fit: 'contain', background: '#000000' })
    .flatten({ background: '#000000' })
    .toColourspace('srgb')
    .jpeg({ quality: 85 })
    .toBuffer();
}
