// Bounds on the work one request can cause (issue 9). Each value is recorded
// in docs/decisions.md; tests pass smaller ones through StartOptions.limits so
// they stay fast, and check the defaults separately.

export interface HttpLimits {
  /** Largest JSON request body read, in bytes; past it: 413 body_too_large at once. */
  jsonBodyBytes: number;
  /** A JSON body must arrive whole within this many ms after the headers; else 408 request_timeout. */
  jsonBodyMs: number;
  /** Deepest nesting of arrays and objects accepted in a JSON body. */
  jsonDepth: number;
  /** invalid_request lists at most this many issues (issueCount tells how many there were). */
  maxIssues: number;
  /** Request headers must arrive within this many ms (node's headersTimeout). */
  headersMs: number;
  /** A connection with a request in flight and no bytes moving for this long is answered 408 and closed. */
  idleMs: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  // A Brand carries four markdown sections of up to 256 Ki characters: 4 MiB holds them even in
  // three-byte UTF-8 (CJK), with room for the rest of the body.
  jsonBodyBytes: 4 * MiB,
  jsonBodyMs: 10_000,
  jsonDepth: 64,
  maxIssues: 20,
  headersMs: 10_000,
  // Longer than any simulated provider latency, far shorter than node's 300 s request timeout.
  idleMs: 30_000,
});

export function httpLimits(overrides: Partial<HttpLimits> = {}): HttpLimits {
  return { ...DEFAULT_HTTP_LIMITS, ...overrides };
}
