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
  /**
   * 16 kHz mono samples → the words heard ('' for none). `names`: the catalogue's song titles
   * and artists, heard after 'play', 'who is' and 'tell me about'.
   */
  transcribe(samples16k: Int16Array, names?: CatalogueNames): Promise<string>;
  /** Text → 24 kHz mono samples; null when it could not be said. */
  synthesize(text: string): Promise<Int16Array | null>;
  /** Removes the working directory (the grammar, utterances in flight). */
  close(): void;
};

export type CatalogueNames = { titles: string[]; artists: string[] };

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
/** Names longer than this many words are left out of the grammar. */
const MAX_NAME_WORDS = 6;

/**
 * The grammar: the commands, and with catalogue names (each spelled only with words the
 * dictionary can say; the others are left out) 'play <name>', 'who is <name>' and
 * 'tell me about <name>'.
 */
export function companionGrammar(names: string[]): string {
  const rules = ['<playback>', '<play>', '<recommend>', '<help>'];
  const extra: string[] = [];
  if (names.length > 0) {
    rules.push('<ask>', '<play-name>');
    extra.push(
      '<ask> = (who is | tell me about) <name>;',
      '<play-name> = play <name>;',
      `<name> = ${names.join(' | ')};`,
    );
  }
  return `#JSGF V1.0;
grammar companion;
public <command> = ${rules.join(' | ')};
${GRAMMAR_RULES}${extra.join('\n')}
`;
}

/** `name` as the grammar's words (lower case, letters and apostrophes), or null. */
export function speakable(name: string, dictionary: ReadonlySet<string>): string | null {
  const words = name
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(' ')
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
  if (words.length === 0 || words.length > MAX_NAME_WORDS) return null;
  return words.every((w) => dictionary.has(w)) ? words.join(' ') : null;
}

const GRAMMAR_RULES = `<playback> = pause | stop | resume | continue | play | next | next song | skip | skip song
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
  let serial = 0;
  const workDir = () => {
    dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'canto-companion-'));
    return dir;
  };
  // The dictionary's words, read once when names first need checking.
  let dictionary: Set<string> | null = null;
  const words = () => {
    if (!dictionary) {
      const text = fs.readFileSync(path.join(model, 'cmudict-en-us.dict'), 'utf8');
      dictionary = new Set(text.split('\n').map((line) => line.split(/[\s(]/, 1)[0]!));
    }
    return dictionary;
  };
  // One grammar file per distinct vocabulary; the newest is kept, the one before removed.
  let grammar: { key: string; file: string } | null = null;
  const grammarFile = (names: CatalogueNames | undefined) => {
    const said = new Set<string>();
    for (const name of [...(names?.titles ?? []), ...(names?.artists ?? [])]) {
      const words_ = speakable(name, words());
      if (words_) said.add(words_);
    }
    const key = [...said].sort().join('|');
    if (grammar?.key !== key) {
      const file = path.join(workDir(), `companion-${serial++}.gram`);
      fs.writeFileSync(file, companionGrammar([...said].sort()));
      if (grammar) fs.rmSync(grammar.file, { force: true });
      grammar = { key, file };
    }
    return grammar.file;
  };
  return {
    input,
    output: voice !== null,
    async transcribe(samples16k, names) {
      if (!input) return '';
      const work = workDir();
      const jsgf = grammarFile(names);
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
            jsgf,
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
      grammar = null;
    },
  };
}
