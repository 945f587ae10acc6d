// Setup file (vitest.config.ts): after each test file, every answer that file
// saw through test/helpers/sandbox.ts request() is judged against the OpenAPI
// document the sandbox publishes (ajv, helpers/contract-check.ts; the
// document depends on the routes only, so a fresh sandbox's is the one). No
// sandbox test passes on an answer the published documents do not allow, and
// a document and the code cannot drift apart.
import { afterAll, expect } from 'vitest';
import { publishedChecker } from './contract-check.js';
import { SEEN_RESPONSES } from './sandbox.js';

// The checker is built once per worker (publishedChecker), not per file.
afterAll(async () => {
  const seen = SEEN_RESPONSES.splice(0);
  if (seen.length === 0) return;
  const checker = await publishedChecker();
  const failures = seen.map(({ method, path, res }) => checker.check(method, path, res)).filter((f): f is string => f !== null);
  expect(failures, 'answers the published OpenAPI documents do not allow').toEqual([]);
}, 30_000);
