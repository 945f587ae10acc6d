// Every answer a sandbox test sees through test/helpers/sandbox.ts request(), and their judgement against the
// OpenAPI document the sandbox publishes (test/helpers/check-responses.ts asks after each test file). Apart from
// sandbox.ts so that the setup file imports neither the sandbox nor ajv in a process that never talks to a
// sandbox through it (the isolated e2e files: each is a process of its own); the checker is loaded on first need.
import type { TestResponse } from './sandbox.js';

export const SEEN_RESPONSES: Array<{ method: string; path: string; res: TestResponse }> = [];

/** The answers seen since the last call that the published documents do not allow, one line each; the seen are let go. */
export async function unallowedAnswers(): Promise<string[]> {
  const seen = SEEN_RESPONSES.splice(0);
  if (seen.length === 0) return [];
  const { publishedChecker } = await import('./contract-check.js');
  const checker = await publishedChecker();
  return seen.map(({ method, path, res }) => checker.check(method, path, res)).filter((f): f is string => f !== null);
}
