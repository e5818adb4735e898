import fs from 'node:fs';
import { expect, it } from 'vitest';
import { buildOpenApiJson, OPENAPI_FILE } from '../../scripts/openapi-document.ts';

/** The document's paths that differ between two versions of it, for the failure's message. */
function changedPaths(committed: string, built: string): string[] {
  const paths = (text: string): Record<string, unknown> => {
    try {
      return (JSON.parse(text) as { paths?: Record<string, unknown> }).paths ?? {};
    } catch {
      return {};
    }
  };
  const [before, after] = [paths(committed), paths(built)];
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (url) => JSON.stringify(before[url]) !== JSON.stringify(after[url]),
  );
}

it('has docs/openapi.json be the document the app serves', async () => {
  const built = await buildOpenApiJson();
  const committed = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : '';
  const changed = committed === built ? [] : changedPaths(committed, built);
  expect(
    committed === built,
    `docs/openapi.json is stale (${changed.join(', ') || 'outside the paths'}): run \`npm run openapi\` and commit the file`,
  ).toBe(true);
});
