/**
 * Upload lane bench (docs/decisions/0028): an artist uploads an album, one song after the
 * other, while the media jobs of the songs before it transcode. Each upload (the 42 MB WAV
 * streamed, counted, parsed and decoded to measure it, stored, the row written) is timed to
 * its 201, beside the same upload on an idle server (a fresh one, warmed up, no job running)
 * in the same run. Target: every upload of the album within 1.5× the idle one's p95.
 *
 * The production server (`npm start`'s command) on PGlite in a temp directory, MEDIA_WORKERS
 * at its default. Run alone: npx tsx bench/uploads.bench.ts
 *   UPLOADS_BENCH_MB (42), UPLOADS_BENCH_IDLE (4 baseline uploads), UPLOADS_BENCH_ALBUMS (2
 *   albums of UPLOADS_BENCH_TRACKS = 5 songs, back to back)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { row, withTimeout, type BenchRow, type Log } from './bench-kit.ts';
import { ensureProductionBuild, signIn, startServer, uploadSong } from './server-process.ts';

const MB = Number(process.env.UPLOADS_BENCH_MB ?? 42);
const IDLE = Number(process.env.UPLOADS_BENCH_IDLE ?? 4);
const ALBUMS = Number(process.env.UPLOADS_BENCH_ALBUMS ?? 2);
const TRACKS = Number(process.env.UPLOADS_BENCH_TRACKS ?? 5);
const TARGET = 1.5;

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

async function post(url: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

type Session = {
  /** Uploads a `bytes`-byte WAV as the artist; milliseconds to the 201. */
  upload(bytes: number): Promise<number>;
  /** Until every song uploaded so far is 'ready' (no media job left). */
  idle(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * A fresh server (its own DATA_DIR) with an approved artist, warmed up by one small upload
 * whose transcode has finished: what is loaded on first use is loaded, and no job runs.
 */
async function freshServer(work: string, name: string): Promise<Session> {
  const admin = { email: 'admin@canto.test', password: 'bench-admin-1' };
  const dataDir = path.join(work, name);
  const server = await startServer('canto', {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    DEMO: '0',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  });
  const ids: string[] = [];
  const session: Session = {
    async upload(bytes) {
      const started = performance.now();
      const id = await uploadSong(server.url, token, bytes);
      if (id) ids.push(id);
      return performance.now() - started;
    },
    async idle() {
      for (const id of ids) {
        for (;;) {
          const res = await fetch(`${server.url}/api/songs/${id}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const status = ((await res.json()) as { status?: string }).status;
          if (status === 'failed') throw new Error(`song ${id}: its media job failed`);
          if (status === 'ready') break;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    },
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  let token = '';
  try {
    const artist = await post(`${server.url}/api/auth/sign-up`, {
      email: 'band@canto.test',
      password: 'bench-band-1',
      display_name: 'Bench Band',
      is_artist: true,
    });
    const adminToken = await signIn(server.url, admin.email, admin.password);
    await post(
      `${server.url}/api/admin/artist-requests/${artist.user.id}/approve`,
      undefined,
      adminToken,
    );
    token = artist.access_token as string;
    await session.upload(512 * 1024);
    await session.idle();
    return session;
  } catch (error) {
    await session.stop();
    throw error;
  }
}

export async function uploadsBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  ensureProductionBuild();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-uploads-'));
  const bytes = MB * 1024 * 1024;
  try {
    // The baseline: each upload on a server of its own with no job running (waiting for a
    // 42 MB transcode at nice 10 on a busy machine could take minutes).
    const alone: number[] = [];
    for (let i = 0; i < IDLE; i++) {
      const session = await freshServer(work, `idle-${i}`);
      try {
        alone.push(await session.upload(bytes));
      } finally {
        await session.stop();
      }
      log(`  idle server, upload ${i + 1}: ${Math.round(alone.at(-1)!)} ms`);
    }
    const baseline = percentile(alone, 95);

    // Albums back to back on one server: every upload after the first meets the transcodes
    // of the songs before it.
    const byTrack: number[][] = Array.from({ length: TRACKS }, () => []);
    const session = await freshServer(work, 'albums');
    try {
      for (let album = 0; album < ALBUMS; album++) {
        for (let track = 0; track < TRACKS; track++) {
          const ms = await session.upload(bytes);
          byTrack[track]!.push(ms);
          log(`  album ${album + 1}, song ${track + 1}: ${Math.round(ms)} ms`);
        }
      }
    } finally {
      await session.stop();
    }

    const rows: BenchRow[] = byTrack.map((times, track) => {
      const p95 = percentile(times, 95);
      return row(
        `album upload ${track + 1} of ${TRACKS}, ${MB} MB WAV, p95 of ${times.length} (transcodes running)`,
        p95 / 1000,
        baseline / 1000,
        'lower',
        {
          unit: 's',
          baselineName: `same upload, idle server, p95 of ${IDLE}`,
          target: { text: `≤ ${TARGET}× idle`, met: p95 <= TARGET * baseline },
        },
      );
    });
    const all = byTrack.flat();
    const p95 = percentile(all, 95);
    rows.push(
      row(`every album upload, p95 of ${all.length}`, p95 / 1000, baseline / 1000, 'lower', {
        unit: 's',
        baselineName: 'idle server',
        target: { text: `≤ ${TARGET}× idle`, met: p95 <= TARGET * baseline },
      }),
    );
    return rows;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await withTimeout(30 * 60_000, 'uploads bench', uploadsBench({ log: console.log }));
  console.table(rows);
  process.exit(0);
}
