import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeWav, parseWav, resampleLinear } from '../../../core/ai/pcm.ts';

/*
 * The local engine's ears and voice, both offline (docs/decisions/0033): pocketsphinx turns an
 * utterance into words with a grammar of what the companion understands (a free language
 * model hears little of a short command right), espeak-ng says the answer. Each is used
 * only when its binary (and pocketsphinx's model) is on this machine, found once at start.
 */

export type Speech = {
  readonly input: boolean;
  readonly output: boolean;
  /** 16 kHz mono samples → the words heard ('' for none). */
  transcribe(samples16k: Int16Array): Promise<string>;
  /** Text → 24 kHz mono samples; null when it could not be said. */
  synthesize(text: string): Promise<Int16Array | null>;
  /** Removes the working directory (the grammar, utterances in flight). */
  close(): void;
};

export type SpeechSettings = {
  /** Where pocketsphinx's en-us model is. */
  modelDir: string;
  timeoutMs: number;
};

export const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const RECOGNIZER = 'pocketsphinx_continuous';
const VOICE = 'espeak-ng';

/** The first `name` on PATH that is an executable file, or null. */
export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

// The sentences the grammar hears: the playback commands, play or recommend by genre.
const GENRE_WORDS = [
  'jazzy',
  'jazz',
  'rock',
  'rocky',
  'pop',
  'poppy',
  'blues',
  'bluesy',
  'funky',
  'funk',
  'chill',
  'classical',
  'country',
  'electronic',
  'soul',
  'folk',
  'reggae',
  'metal',
];
const GRAMMAR = `#JSGF V1.0;
grammar companion;
public <command> = <playback> | <play> | <recommend> | <help>;
<playback> = pause | stop | resume | continue | play | next | next song | skip | skip song
  | previous | previous song | go back;
<play> = play something [<genre>] | play some <genre> [music] | play <genre> [music];
<recommend> = recommend something [<genre>] | recommend some <genre> [music];
<help> = help | what can you do;
<genre> = ${GENRE_WORDS.join(' | ')};
`;

type Run = { code: number | null; stdout: Buffer };

function run(bin: string, args: string[], input: string | null, timeoutMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      stdio: [input === null ? 'ignore' : 'pipe', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks) });
    });
    if (input !== null) child.stdin!.end(input);
  });
}

export function createSpeech(settings: SpeechSettings): Speech {
  const recognizer = onPath(RECOGNIZER);
  const voice = onPath(VOICE);
  const model = settings.modelDir;
  const input =
    recognizer !== null &&
    fs.existsSync(path.join(model, 'en-us')) &&
    fs.existsSync(path.join(model, 'cmudict-en-us.dict'));
  let dir: string | null = null;
  const workDir = () => {
    if (!dir) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-companion-'));
      fs.writeFileSync(path.join(dir, 'companion.gram'), GRAMMAR);
    }
    return dir;
  };
  let serial = 0;
  return {
    input,
    output: voice !== null,
    async transcribe(samples16k) {
      if (!input) return '';
      const work = workDir();
      const file = path.join(work, `utterance-${process.pid}-${serial++}.wav`);
      await fs.promises.writeFile(file, encodeWav(samples16k, 16_000));
      try {
        const { stdout } = await run(
          recognizer!,
          [
            '-infile',
            file,
            '-hmm',
            path.join(model, 'en-us'),
            '-dict',
            path.join(model, 'cmudict-en-us.dict'),
            '-jsgf',
            path.join(work, 'companion.gram'),
            '-logfn',
            '/dev/null',
          ],
          null,
          settings.timeoutMs,
        );
        return stdout
          .toString()
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .join(' ');
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    },
    async synthesize(text) {
      if (!voice) return null;
      // The text goes in on stdin: a title starting with '-' is never an option.
      const { code, stdout } = await run(
        voice,
        ['--stdout', '-s', '165'],
        text,
        settings.timeoutMs,
      );
      if (code !== 0) return null;
      const wav = parseWav(new Uint8Array(stdout));
      return wav ? resampleLinear(wav.samples, wav.sampleRate, 24_000) : null;
    },
    close() {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      dir = null;
    },
  };
}
