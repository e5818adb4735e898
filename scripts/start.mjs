/**
 * `npm start`: builds the web app and the server when missing or older than their sources
 * (scripts/build.mjs), then runs the compiled server (dist/server/main.js) in this same
 * process — npm → one node, no TypeScript runtime and no second copy of node.
 *
 * package.json starts it with two V8 settings (docs/decisions/0009 has the figures):
 * --v8-pool-size=1: one V8 background thread instead of four. Each compiled PGlite's WASM
 *   in its own malloc arena; one thread keeps ~40 MB less resident, same requests/s here.
 * --max-semi-space-size=4 (MB): the young generation stops growing at 2 × 4 MB instead of
 *   2 × 16 MB during start-up, ~25 MB less until V8 would shrink it after a long idle.
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
