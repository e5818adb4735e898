import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { wavHeader } from '../../src/server/demo/synth.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { packagedBinary } from '../../src/server/media/ffmpeg.ts';

// `npm start` as a supervisor or a container runtime runs it: a signal to the npm process
// must stop the server gracefully (in-flight requests answered, the running job's lease
// given back) and leave no process behind holding the port (docs/decisions/0028).

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-npm-start-'));
const spawned = new Set<ChildProcess>();
afterAll(() => {
  for (const child of spawned) if (child.pid) tryKill(-child.pid, 'SIGKILL');
  fs.rmSync(work, { recursive: true, force: true, maxRetries: 5 });
});

function tryKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Processes of the group `pgid` still alive (Linux /proc; zombies count as gone). */
function groupMembers(pgid: number): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: state, ppid, pgrp, …
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') found.push(`${entry} ${stat.slice(0, 80)}`);
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

/**
 * FFMPEG_PATH for the test: the upload's measuring decode runs the real ffmpeg; a transcode
 * marks that it started and then runs until killed, so a job is running at shutdown.
 */
function ffmpegStandIn(marker: string): string {
  const file = path.join(work, `ffmpeg-${crypto.randomUUID()}.sh`);
  fs.writeFileSync(
    file,
    `#!/bin/sh
case " $* " in
  *" -f null "*) exec '${packagedBinary()}' "$@" ;;
esac
touch '${marker}'
exec sleep 300
`,
    { mode: 0o755 },
  );
  return file;
}

/** 16-bit mono PCM at 8 kHz, `seconds` long (silence). */
function wav(seconds: number): Buffer {
  const data = seconds * 16_000;
  return Buffer.concat([wavHeader(data, 8000), Buffer.alloc(data)]);
}

type Multipart = { contentType: string; head: Buffer; file: Buffer; tail: Buffer };

function songForm(title: string, audio: Buffer): Multipart {
  const boundary = `----canto-test-${crypto.randomUUID()}`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${title}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="song.wav"\r\n` +
        'Content-Type: audio/wav\r\n\r\n',
    ),
    file: audio,
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
  };
}

/**
 * POST /api/songs whose body stops halfway until `resume` is called; `sentHalf` resolves once
 * the first half is written.
 */
function slowUpload(port: number, token: string, form: Multipart) {
  const length = form.head.length + form.file.length + form.tail.length;
  let resume!: () => void;
  const resumed = new Promise<void>((r) => (resume = r));
  let sentHalf!: () => void;
  const halfway = new Promise<void>((r) => (sentHalf = r));
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent: false,
        method: 'POST',
        path: '/api/songs',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': form.contentType,
          'content-length': length,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(form.file.length / 2);
    req.write(Buffer.concat([form.head, form.file.subarray(0, half)]), () => sentHalf());
    void resumed.then(() => req.end(Buffer.concat([form.file.subarray(half), form.tail])));
  });
  return { answer, halfway, resume };
}

async function json(res: Response): Promise<any> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops gracefully on %s to the npm process: the request in flight is answered, the running job given back, the port freed, nothing left running',
    async (signal) => {
      const dataDir = path.join(work, signal);
      const marker = path.join(work, `${signal}.transcoding`);
      const port = await freePort();
      const admin = {
        email: `admin-${signal.toLowerCase()}@example.com`,
        password: 'admin-pass-1',
      };
      const npm = spawn('npm', ['start'], {
        cwd: process.cwd(),
        // Its own process group: what is left of the tree afterwards can be found and killed.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          DEMO: '0',
          LOG_LEVEL: 'warn',
          ADMIN_EMAIL: admin.email,
          ADMIN_PASSWORD: admin.password,
          FFMPEG_PATH: ffmpegStandIn(marker),
          MEDIA_WORKERS: '1',
          JOB_STOP_TIMEOUT_SECONDS: '1',
          JOB_POLL_INTERVAL_MS: '100',
        },
      });
      spawned.add(npm);
      let output = '';
      npm.stdout!.on('data', (d: Buffer) => (output += d));
      npm.stderr!.on('data', (d: Buffer) => (output += d));
      const exited = new Promise<number | string | null>((resolve) =>
        npm.once('exit', (code, sig) => resolve(sig ?? code)),
      );
      const base = `http://127.0.0.1:${port}`;
      const alive = () => npm.exitCode === null && npm.signalCode === null;

      // npm start builds what is stale first, which can take a while on a busy machine.
      await waitFor(
        'the server to answer',
        async () => {
          if (!alive()) throw new Error(`npm start exited early:\n${output}`);
          return fetch(`${base}/api/health`).then(
            (r) => r.ok,
            () => false,
          );
        },
        240_000,
      );

      const post = (url: string, body: unknown, token?: string) =>
        fetch(`${base}${url}`, {
          method: 'POST',
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const artist = await json(
        await post('/api/auth/sign-up', {
          email: `artist-${signal.toLowerCase()}@example.com`,
          password: 'artist-pass-1',
          display_name: 'Signal Artist',
          is_artist: true,
        }),
      );
      const adminSession = await json(await post('/api/auth/sign-in', admin));
      await json(
        await post(
          `/api/admin/artist-requests/${artist.user.id}/approve`,
          undefined,
          adminSession.access_token,
        ),
      );
      const token = artist.access_token as string;

      // A first song: its media job runs (the stand-in transcode never ends by itself).
      const first = songForm('Running Job', wav(2));
      const firstUpload = slowUpload(port, token, first);
      firstUpload.resume();
      const firstAnswer = await firstUpload.answer;
      expect(firstAnswer.status, firstAnswer.body).toBe(201);
      await waitFor('the media job to start', () => fs.existsSync(marker), 30_000);

      // A second upload, halfway sent when the signal comes.
      const second = slowUpload(port, token, songForm('In Flight', wav(2)));
      await second.halfway;
      await new Promise((r) => setTimeout(r, 200));
      process.kill(npm.pid!, signal);
      await new Promise((r) => setTimeout(r, 500));
      second.resume();
      const secondAnswer = await second.answer.catch((error: Error) => {
        throw new Error(`the request in flight failed (${error.message}):\n${output}`);
      });
      expect(secondAnswer.status, secondAnswer.body).toBe(201);

      const how = await Promise.race([
        exited,
        new Promise((r) => setTimeout(() => r('still running after 20 s'), 20_000)),
      ]);
      expect(how, output).toBe(0);
      expect(await listening(port)).toBe(false);
      expect(groupMembers(npm.pid!)).toEqual([]);

      // The lease was given back: the job waits for the next worker instead of for its lease.
      const database = await openPglite(path.join(dataDir, 'db'));
      try {
        const jobs = (await database.db.execute(
          sql`select j.state, j.locked_by, s.title from jobs j
                join songs s on s.id::text = j.payload->>'songId' order by j.id`,
        )) as unknown as { rows: unknown[] };
        expect(jobs.rows).toEqual([
          { state: 'queued', locked_by: null, title: 'Running Job' },
          { state: 'queued', locked_by: null, title: 'In Flight' },
        ]);
      } finally {
        await database.close();
      }
    },
    360_000,
  );
});
