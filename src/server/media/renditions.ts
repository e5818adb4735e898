import type { WaveformDocument } from '../../contracts/songs.contract.ts';
import type { Demuxer, Ffmpeg } from './ffmpeg.ts';
import { parseEbur128Summary, type Loudness } from './loudness.ts';
import { createPeakMeter, WAVEFORM_RATE } from './waveform.ts';

/**
 * The streaming renditions of an upload and how one ffmpeg run makes them all
 * (docs/decisions/0014): one decode of the original feeds every encoder, the EBU R128
 * meter and the waveform's PCM, so the work is the encoders' and little else.
 *
 * Opus in WebM with its seek index (cues) written before the audio, not in Ogg: an Ogg
 * stream does not say how long it is, so a browser reads its last page first (Chromium: a
 * request from the start, one near the end, one back — three round trips before a note),
 * while this WebM carries duration and cues in its first kilobytes and plays, and seeks,
 * with one request each (docs/decisions/0014). AAC-LC in MP4 is for the browsers without
 * Opus (older Safari); `+faststart` puts its index first for the same reason.
 */
export const RENDITIONS = [
  {
    format: 'opus-96',
    codec: 'opus',
    bitrateKbps: 96,
    extension: 'webm',
    contentType: 'audio/webm',
    mime: 'audio/webm; codecs=opus',
    encoder: ['-c:a', 'libopus', '-b:a', '96k', '-vbr', 'on', '-ar', '48000', '-f', 'webm'],
  },
  {
    format: 'aac-128',
    codec: 'aac',
    bitrateKbps: 128,
    extension: 'm4a',
    contentType: 'audio/mp4',
    mime: 'audio/mp4; codecs=mp4a.40.2',
    encoder: ['-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', '-f', 'mp4'],
  },
  {
    format: 'opus-160',
    codec: 'opus',
    bitrateKbps: 160,
    extension: 'webm',
    contentType: 'audio/webm',
    mime: 'audio/webm; codecs=opus',
    encoder: ['-c:a', 'libopus', '-b:a', '160k', '-vbr', 'on', '-ar', '48000', '-f', 'webm'],
  },
] as const;

export type Rendition = (typeof RENDITIONS)[number];
export type RenditionFormat = Rendition['format'];

/**
 * How long one run may take: a minute, plus half the audio's length (a 4-hour file must be
 * encoded at 2× real time at least; here it goes at ~8× on a shared core).
 */
export function transcodeTimeoutMs(durationMs: number): number {
  return 60_000 + Math.ceil(durationMs / 2);
}

/**
 * Bytes kept free before the first WebM cluster for the cues: the muxer writes one cue per
 * 5-second cluster, ~4 bytes per second of audio (14.4 kB for an hour), so twice that plus
 * a margin fits any length the run can find. Too little and ffmpeg writes a file with no
 * index (and says so on stderr, which `transcode` refuses); too much is downloaded as
 * padding before the first note.
 */
export function cuesReserveBytes(durationMs: number): number {
  return 1024 + 8 * Math.ceil(Math.max(0, durationMs) / 1000);
}

export type TranscodeInput = {
  /** A server-made temp path of the original. */
  input: string;
  demuxer: Demuxer;
  /** The length measured at upload (the same decoder's): sizes the WebM cues' room. */
  durationMs: number;
  /** Where each rendition is written (server-made temp paths). */
  outputs: Record<RenditionFormat, string>;
};

/**
 * The arguments of the one run: every output maps the first audio stream only (a cover-art
 * picture or data stream is never carried), without the source's tags or chapters (a tag
 * of absurd size or content does not travel), bit-exact so a re-run writes the same bytes.
 * The filter graph measures loudness (`ebur128`, true peak) and passes the audio on, down
 * to mono 16-bit PCM at WAVEFORM_RATE on fd 3 for the peaks.
 */
export function transcodeArgs(job: TranscodeInput): string[] {
  const args = [
    '-nostdin',
    '-hide_banner',
    // info: ebur128 prints its summary at that level; the per-frame lines only at verbose.
    '-v',
    'info',
    '-nostats',
    '-progress',
    'pipe:1',
    '-f',
    job.demuxer,
    '-i',
    `file:${job.input}`,
    '-filter_complex',
    `[0:a:0]ebur128=peak=true:framelog=verbose,aresample=${WAVEFORM_RATE},` +
      'aformat=sample_fmts=s16:channel_layouts=mono[peaks]',
  ];
  for (const r of RENDITIONS) {
    args.push(
      '-map',
      '0:a:0',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      // More than two channels is downmixed: not every browser decodes 5.1 Opus or AAC.
      '-ac',
      '2',
      '-fflags',
      '+bitexact',
      '-flags:a',
      '+bitexact',
      // WebM: cues (the seek index) in reserved room at the front; `-dash 1` is what makes
      // this ffmpeg (4.1) write cues for an audio-only file at all.
      ...(r.extension === 'webm'
        ? ['-dash', '1', '-reserve_index_space', String(cuesReserveBytes(job.durationMs))]
        : []),
      ...r.encoder,
      '-y',
      `file:${job.outputs[r.format]}`,
    );
  }
  args.push('-map', '[peaks]', '-f', 's16le', 'pipe:3');
  return args;
}

export type Transcoded = {
  /** As the run measured it. */
  durationMs: number;
  loudness: Loudness | null;
  waveform: WaveformDocument;
};

export class TranscodeError extends Error {
  constructor(
    message: string,
    /** Killed by its time limit, an abort or another process: the next attempt may succeed. */
    readonly killed: boolean,
  ) {
    super(message);
    this.name = 'TranscodeError';
  }
}

/**
 * Makes every rendition of `job.input` (files at `job.outputs`), its loudness and its
 * waveform in one ffmpeg run. `expectedDurationMs` (the length measured at upload) sizes
 * the waveform's buckets and the time limit. Throws TranscodeError when ffmpeg fails.
 */
export async function transcode(
  ffmpeg: Ffmpeg,
  job: TranscodeInput,
  expectedDurationMs: number,
  signal?: AbortSignal,
): Promise<Transcoded> {
  const meter = createPeakMeter(expectedDurationMs);
  let pcm: Promise<void> = Promise.resolve();
  const result = await ffmpeg.run({
    args: transcodeArgs(job),
    timeoutMs: transcodeTimeoutMs(expectedDurationMs),
    signal,
    pipe3: (stream) => {
      pcm = new Promise((resolve) => {
        stream.on('data', (chunk: Buffer) => meter.push(chunk));
        // A killed run's pipe ends in an error; the run's own result says what happened.
        stream.on('close', resolve);
        stream.on('error', () => resolve());
      });
    },
  });
  await pcm;
  if (!result.ok) throw new TranscodeError(`ffmpeg failed: ${result.why}`, result.killed);
  // ffmpeg 4.1 still exits 0 when the cues outgrow their room; that file cannot seek.
  if (result.stderr.includes('Insufficient space reserved for cues'))
    throw new TranscodeError('ffmpeg found no room for the WebM cues', false);
  return {
    durationMs: result.durationMs ?? expectedDurationMs,
    loudness: parseEbur128Summary(result.stderr),
    waveform: meter.finish(),
  };
}
