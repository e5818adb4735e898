/**
 * `npm start`: builds the web app and the server when missing or older than their sources
 * (scripts/build.mjs), then runs the compiled server (dist/server/main.js) in this same
 * process — npm → one node, no TypeScript runtime and no second copy of node.
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
