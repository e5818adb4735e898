// Starts the real server for the browser journeys: port 3100, a fresh DATA_DIR, no demo
// content, a known admin and an approved artist (fixture-accounts.ts, run first: PGlite
// allows one process at a time), an ffmpeg journeys can make fail (ffmpeg-faults.ts) and a
// mailbox for the links the server mails (mail-sink.ts), and fakes of ListenBrainz and Last.fm
// (scrobbling-fakes.ts).
// Runs the production server the way `npm start` does (node with package.json's options,
// scripts/start.mjs, the compiled dist/server that the webServer command has just built), so
// the journeys exercise what ships.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ffmpegPackage from '@ffmpeg-installer/ffmpeg';
import { E2E_ADMIN } from './accounts.ts';
import { ffmpegFaultDir, writeFaultyFfmpeg } from './ffmpeg-faults.ts';
import { startMailSink } from './mail-sink.ts';
import { startScrobblingFakes } from './scrobbling-fakes.ts';

// Keep in step with playwright.config.ts (port).
const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-e2e-'));
const tsx = path.resolve('node_modules/.bin/tsx');
// `exec node <options> scripts/start.mjs`, as package.json's start script says.
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
const [, , ...startArgs] = pkg.scripts.start.split(/\s+/);

const fixtures = spawnSync(tsx, ['tests/e2e/fixture-accounts.ts'], {
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: dataDir },
});
if (fixtures.status !== 0) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.error('serve.ts: the fixture accounts could not be made');
  process.exit(1);
}

// The real ffmpeg behind a wrapper that journeys can make fail (media-retry.spec.ts).
const ffmpegPath = writeFaultyFfmpeg(E2E_PORT, process.env.FFMPEG_PATH ?? ffmpegPackage.path);

// Real mail to a local mailbox (mail-sink.ts): journeys open the links people are mailed.
const mail = await startMailSink(E2E_PORT);

// ListenBrainz and Last.fm as local fakes (scrobbling-fakes.ts): scrobbles never leave here.
const scrobbling = await startScrobblingFakes();

const child = spawn(process.execPath, startArgs, {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(E2E_PORT),
    DATA_DIR: dataDir,
    DEMO: '0',
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    // 'error': journeys' expected refusals (401s, 4xx) would otherwise fill the output.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    // No external catalogue: a loopback address is refused before any connection (the
    // outbound guard), so home stays empty and journeys never depend on the internet.
    CATALOGUE_URL: 'http://127.0.0.1:9',
    FFMPEG_PATH: ffmpegPath,
    // A failing media job spends its five attempts in ~8-15 s rather than ~40-75 s (the
    // default 5 s first wait), so a journey can see it fail (docs/decisions/0013).
    JOB_RETRY_SECONDS: '1',
    // One shared listener sees several ads in a row across the ad journeys: no frequency cap
    // (docs/decisions/0023; the cap's tests are tests/integration/ad-impressions.test.ts).
    AD_SHOWING_INTERVAL_SECONDS: '0',
    // Every journey's full page load asks for a showing as the one shared listener.
    AD_SHOWING_ASKS_PER_MINUTE: '10000',
    // Journeys that make accounts through the API say so as a proxy would (X-Forwarded-For,
    // support.ts ownAddress), so they don't spend the browser's sign-up allowance (5 an hour
    // per address); requests without the header stay 127.0.0.1.
    TRUST_PROXY: '127.0.0.1',
    SMTP_URL: mail.url,
    ...scrobbling.env,
  },
});

let stopping = false;
function cleanUp() {
  mail.stop();
  void scrobbling.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(ffmpegFaultDir(E2E_PORT), { recursive: true, force: true });
}

function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  child.kill(signal);
}

process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
child.on('exit', (code, signal) => {
  cleanUp();
  process.exit(code ?? (signal ? 0 : 1));
});
