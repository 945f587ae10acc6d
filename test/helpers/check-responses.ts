// Setup file (vitest.config.ts): after each test file, every answer that file
// saw through test/helpers/sandbox.ts request() is judged against the OpenAPI
// document the sandbox publishes (ajv, helpers/contract-check.ts; the
// document depends on the routes only, so a fresh sandbox's is the one). No
// sandbox test passes on an answer the published documents do not allow, and
// a document and the code cannot drift apart.
import { afterAll, expect } from 'vitest';
import { unallowedAnswers } from './seen-responses.js';

// The checker is built once per worker (contract-check.ts publishedChecker), not per file, and loaded only
// by a file that saw an answer (seen-responses.ts).
afterAll(async () => {
  expect(await unallowedAnswers(), 'answers the published OpenAPI documents do not allow').toEqual([]);
}, 30_000);
