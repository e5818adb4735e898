/**
 * The committed API document (docs/openapi.json, docs/decisions/0025) is valid OpenAPI by two
 * independent validators, so a third-party client's generator reads it as the app serves it
 * (the integration tier checks the file is the one the app serves).
 */
import fs from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { compileErrors, validate } from '@readme/openapi-parser';
import { expect, it } from 'vitest';

// Each validator dereferences the object it is given in place: each gets its own copy.
const committed = () => JSON.parse(fs.readFileSync('docs/openapi.json', 'utf8'));

it('passes @apidevtools/swagger-parser', async () => {
  await expect(SwaggerParser.validate(committed())).resolves.toBeTruthy();
});

it('passes @readme/openapi-parser', async () => {
  const result = await validate(committed());
  expect(result.valid ? '' : compileErrors(result)).toBe('');
  expect(result.valid).toBe(true);
});
