// Issue 35: one list of statuses (RETRYABLE_STATUSES) had carried three meanings, whether
// to retry, which exit code, whether to wait out a throttle; making 502 not retried
// turned its exit code from 6 into 1 and stopped the waits. Now each row of the
// contract's answer table has a retry cell and an exit cell, and each reader reads its
// own: the retry policy (through the real client, its checkers OR-ed as botocore's
// standard mode does), the throttle detector, the exit code.
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT, exitCodeForStatus } from '../../../src/cli/exit-codes.js';
import { ApiError } from '../../../src/client/errors.js';
import { ApiClient, type RetryWait } from '../../../src/client/http.js';
import { modeledChecker, throttledChecker, transientChecker, type AttemptOutcome } from '../../../src/client/retry-checkers.js';
import type { RetryDeps } from '../../../src/client/retry.js';
import { ANSWER_TABLE, ERROR_CODES, STATUS_DISPOSITIONS, isRetryableAnswer, type AnswerTable } from '../../../src/contract/errors.js';
import { HttpStubs, json } from '../../helpers/http-stub.js';

const BASE = 'https://api.adops.test';
let http: HttpStubs | undefined;
afterEach(() => {
  const stubs = http;
  http = undefined;
  stubs?.verify();
});

/** The contract's table with one cell changed: 502's retry. */
const no502: AnswerTable = { ...ANSWER_TABLE, statuses: { ...ANSWER_TABLE.statuses, 502: { ...STATUS_DISPOSITIONS[502], retry: 'never' } } };

function client(answers: AnswerTable | undefined, waits: RetryWait[] = []) {
  http = new HttpStubs();
  let t = 0;
  const deps: RetryDeps = { now: () => t, sleep: async (ms) => void (t += ms), random: () => 0 };
  const c = new ApiClient({
    baseUrl: BASE,
    apiKey: 'acr_test_key_abcd',
    userAgent: 'adops/test',
    deps,
    transport: http,
    onRetryWait: (w) => waits.push(w),
    ...(answers ? { answers } : {}),
  });
  return { c, http };
}

const providerFailed = json(502, {
  error: 'provider_error',
  message: 'provider_a failed',
  provider: 'provider_a',
  platformError: { message: 'internal failure' },
});
const providerThrottled = json(502, {
  error: 'provider_error',
  message: 'provider_a throttled the request',
  provider: 'provider_a',
  platformError: { message: 'User request limit reached', code: 17 },
});
const ok = json(200, { data: [] });

async function failure(c: ApiClient): Promise<ApiError> {
  const err: unknown = await c.request({ method: 'GET', path: '/observe/campaigns' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err instanceof ApiError ? err : expect.unreachable();
}

describe('making 502 not retried is one cell that leaves its exit code and throttle waits alone', () => {
  it('with the contract as it is, a 502 provider_error is sent 4 times and exits 6', async () => {
    const { c, http } = client(undefined);
    for (let i = 0; i < 4; i++) http.on('GET', '/observe/campaigns', providerFailed);
    const err = await failure(c);
    expect(http.requests).toHaveLength(4);
    expect(exitCodeForStatus(err.status, err.code)).toBe(EXIT.unavailable);
    expect(EXIT.unavailable).toBe(6);
  });

  it("with 502's retry cell 'never': a 502 provider_error and a gateway's bare 502 are sent once, and still exit 6", async () => {
    const { c, http } = client(no502);
    http.on('GET', '/observe/campaigns', providerFailed);
    const coded = await failure(c);
    http.on('GET', '/observe/campaigns', () => ({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: Readable.from([Buffer.from('<html>Bad Gateway</html>')]),
    }));
    const bare = await failure(c);
    expect(http.requests).toHaveLength(2);
    expect(isRetryableAnswer(502, 'provider_error', no502)).toBe(false);
    for (const err of [coded, bare]) expect(exitCodeForStatus(err.status, err.code, no502)).toBe(6);
  });

  it("with 502's retry cell 'never': a throttled provider and a 429 are still waited out (the throttle's schedule, not a blip's)", async () => {
    const waits: RetryWait[] = [];
    const { c, http } = client(no502, waits);
    http.on('GET', '/observe/campaigns', providerThrottled).on('GET', '/observe/campaigns', ok);
    http.on('GET', '/observe/campaigns', json(429, { error: 'rate_limited', message: 'slow down' })).on('GET', '/observe/campaigns', ok);
    await c.request({ method: 'GET', path: '/observe/campaigns' });
    await c.request({ method: 'GET', path: '/observe/campaigns' });
    expect(http.requests).toHaveLength(4);
    expect(waits.map((w) => [w.reason, w.throttled])).toEqual([
      ['502 provider_error', true],
      ['429 rate_limited', true],
    ]);
    for (const w of waits) expect(w.delayMs).toBeGreaterThanOrEqual(5_000);
  });
});

describe('the checkers, each reading one kind of "try again" (botocore standard mode)', () => {
  const context = { resendable: false, table: ANSWER_TABLE };
  const says = (o: AttemptOutcome, table: AnswerTable = ANSWER_TABLE) =>
    [transientChecker, throttledChecker, modeledChecker].map((check) => check(o, { ...context, table }));

  it("a bare 503 is transient, a 429 throttled, a 502 provider_error modeled (its row, its blank cell its status's)", () => {
    expect(says({ kind: 'response', status: 503 })).toEqual([true, false, false]);
    expect(says({ kind: 'response', status: 429 })).toEqual([false, true, false]);
    expect(says({ kind: 'response', status: 502, code: 'provider_error' })).toEqual([false, false, true]);
    expect(says({ kind: 'response', status: 502, code: 'something_else' })).toEqual([false, false, false]);
    expect(says({ kind: 'network', sent: false })).toEqual([true, false, false]);
  });

  it("with 502 'never', only the throttle checker still says yes, and only to a throttled answer", () => {
    expect(says({ kind: 'response', status: 502, code: 'provider_error' }, no502)).toEqual([false, false, false]);
    expect(says({ kind: 'response', status: 502, code: 'provider_error', throttled: true }, no502)).toEqual([false, true, false]);
  });
});

describe('the table is whole', () => {
  it("every code's status has a row (a code never falls to 'otherwise'), and no code repeats its status's cells", () => {
    for (const [code, row] of Object.entries(ANSWER_TABLE.codes)) {
      expect(Object.hasOwn(STATUS_DISPOSITIONS, row.status), code).toBe(true);
      const status = ANSWER_TABLE.statuses[row.status]!;
      if (row.retry !== undefined) expect(row.retry, `${code}: a retry cell equal to its status's is a second place for one fact`).not.toBe(status.retry);
      if (row.exit !== undefined) expect(row.exit, `${code}: an exit cell equal to its status's is a second place for one fact`).not.toBe(status.exit);
    }
    expect(Object.keys(ERROR_CODES).length).toBeGreaterThan(30);
  });
});
