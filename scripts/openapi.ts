/**
 * `npm run openapi`: writes docs/openapi.json, the API document third-party clients build on
 * (docs/decisions/0025). Run it after changing a route or a contract, and commit the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildOpenApiJson, OPENAPI_FILE } from './openapi-document.ts';

fs.writeFileSync(OPENAPI_FILE, await buildOpenApiJson());
console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
