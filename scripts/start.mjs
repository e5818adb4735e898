/**
 * `npm start`: builds the web app and the server when missing or older than their sources
 * (scripts/build.mjs), then runs the compiled server (dist/server/main.js) in this same
 * process — npm → one node, no TypeScript runtime and no second copy of node. The script is
 * `exec node …`: npm runs scripts through `sh -c`, and dash neither execs a lone command nor
 * passes on the SIGTERM/SIGINT npm forwards, so without `exec` the server outlived npm
 * holding its port (docs/decisions/0028).
 *
 * package.json starts it with three V8 settings (docs/decisions/0009 has the figures):
 * --v8-pool-size=2: two V8 background threads instead of four. Each compiled PGlite's WASM
 *   in a malloc arena of its own; fewer keep tens of MB less resident at the same requests/s.
 *   (One was leaner still, but start-up then stalled ~0.15 s on the one busy thread.)
 * --max-semi-space-size=4 (MB): the young generation stops growing at 2 × 4 MB instead of
 *   2 × 16 MB during start-up, ~25 MB less until V8 would shrink it after a long idle.
 * --wasm-tiering-budget=18000000 (10 × V8's default): a WASM function is optimised after ten
 *   times as much use. Start-up no longer optimises the many functions PostgreSQL runs once
 *   (~0.2 s less); searches, which run the same functions over and over, still get them
 *   optimised (search at 200k songs measured the same).
 */
import { pathToFileURL } from 'node:url';
import { ensureBuilt, serverEntry } from './build.mjs';

try {
  await ensureBuilt();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
await import(pathToFileURL(serverEntry).href);
