import { describe, expect, it } from 'vitest';
import {
  decideRetry,
  isRetryable,
  isThrottleAnswer,
  isThrottled,
  parseRetryAfter,
  runWithRetry,
  ThrottleGate,
  type AttemptOutcome,
  type RetryPolicy,
} from '../../../src/client/retry.js';

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, budgetMs: 10_000 };
const decide = (outcome: AttemptOutcome, over: Partial<Parameters<typeof decideRetry>[0]> = {}) =>
  decideRetry({ outcome, method: 'GET', attempt: 1, elapsedMs: 0, nowMs: 0, policy, random: () => 0.5, ...over });

describe('what is retried', () => {
  it('retries 429, 503, 504 and 502 provider_error for every method', () => {
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
      expect(isRetryable({ kind: 'response', status: 429 }, method)).toBe(true);
      expect(isRetryable({ kind: 'response', status: 503 }, method)).toBe(true);
      expect(isRetryable({ kind: 'response', status: 504 }, method)).toBe(true);
      expect(isRetryable({ kind: 'response', status: 502, code: 'provider_error' }, method)).toBe(true);
    }
  });
  it('does not retry other failures', () => {
    for (const status of [400, 401, 402, 403, 404, 409, 413, 415, 422, 500, 501]) {
      expect(isRetryable({ kind: 'response', status }, 'GET')).toBe(false);
    }
    expect(isRetryable({ kind: 'response', status: 502, code: 'something_else' }, 'GET')).toBe(false);
  });
  it('retries a connection failure before sending for every method', () => {
    expect(isRetryable({ kind: 'network', sent: false }, 'POST')).toBe(true);
    expect(isRetryable({ kind: 'network', sent: false }, 'GET')).toBe(true);
  });
  it('retries a lost answer only for safe methods', () => {
    expect(isRetryable({ kind: 'network', sent: true }, 'GET')).toBe(true);
    expect(isRetryable({ kind: 'network', sent: true }, 'POST')).toBe(false);
    expect(isRetryable({ kind: 'network', sent: true }, 'PATCH')).toBe(false);
    expect(isRetryable({ kind: 'network', sent: true }, 'DELETE')).toBe(false);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    const now = Date.parse('2026-11-22T00:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
  it('never retries sooner than asked', () => {
    const d = decide({ kind: 'response', status: 429, retryAfter: '7' }, { random: () => 0 });
    expect(d).toEqual({ retry: true, delayMs: 7000 });
  });
  it("never sooner than the schedule's minimum either: Retry-After 0, negative or in the past is floored", () => {
    const past = 'Sat, 21 Nov 2026 23:00:00 GMT';
    const now = Date.parse(past) + 60_000;
    for (const retryAfter of ['0', '-5', past, '2']) {
      expect(decide({ kind: 'response', status: 503, retryAfter }, { nowMs: now, random: () => 0 }), retryAfter).toEqual({
        retry: true,
        delayMs: retryAfter === '2' ? 2000 : 100,
      });
      // Throttled: the throttle schedule's base (5 s).
      expect(decide({ kind: 'response', status: 429, retryAfter }, { nowMs: now, random: () => 0 }), retryAfter).toEqual({ retry: true, delayMs: 5000 });
    }
  });
  it('gives up when asked to wait longer than the remaining budget', () => {
    const d = decide({ kind: 'response', status: 503, retryAfter: '60' });
    expect(d.retry).toBe(false);
    expect((d as { reason: string }).reason).toMatch(/longer than the remaining retry budget/);
  });
});

describe('backoff', () => {
  it('uses full jitter under an exponential ceiling', () => {
    const delays = [1, 2, 3].map((attempt) => decide({ kind: 'response', status: 503 }, { attempt, random: () => 0.999 }));
    expect(delays.map((d) => (d as { delayMs: number }).delayMs)).toEqual([100, 199, 399]);
    // Floored at the base delay: never an immediate retry.
    expect(decide({ kind: 'response', status: 503 }, { attempt: 2, random: () => 0 })).toEqual({ retry: true, delayMs: 100 });
  });
  it('caps the ceiling at maxDelayMs', () => {
    const d = decideRetry({
      outcome: { kind: 'response', status: 503 },
      method: 'GET',
      attempt: 3,
      elapsedMs: 0,
      nowMs: 0,
      policy: { ...policy, maxAttempts: 20 },
      random: () => 0.999,
    });
    expect(d).toEqual({ retry: true, delayMs: 399 });
    const far = decideRetry({
      outcome: { kind: 'response', status: 503 },
      method: 'GET',
      attempt: 10,
      elapsedMs: 0,
      nowMs: 0,
      policy: { ...policy, maxAttempts: 20 },
      random: () => 0.999,
    });
    expect(far).toEqual({ retry: true, delayMs: 999 });
  });
  it('stops at maxAttempts and when the budget is spent', () => {
    expect(decide({ kind: 'response', status: 503 }, { attempt: 4 }).retry).toBe(false);
    expect(decide({ kind: 'response', status: 503 }, { elapsedMs: 9_990, random: () => 0.5 }).retry).toBe(false);
  });
});

describe('runWithRetry', () => {
  it('sleeps the decided delays and returns the final outcome', async () => {
    let t = 0;
    const slept: number[] = [];
    const statuses = [503, 429, 200];
    const { result, attempts } = await runWithRetry({
      method: 'POST',
      policy,
      deps: {
        now: () => t,
        sleep: async (ms) => {
          slept.push(ms);
          t += ms;
        },
        random: () => 0.5,
      },
      attemptFn: async (attempt) => {
        const status = statuses[attempt - 1]!;
        return { outcome: { kind: 'response', status, retryAfter: status === 429 ? '6' : null }, result: status };
      },
    });
    expect(result).toBe(200);
    expect(attempts).toBe(3);
    expect(slept).toEqual([100, 6000]);
  });
  it('does not resend a POST whose answer was lost', async () => {
    let calls = 0;
    const { attempts } = await runWithRetry({
      method: 'POST',
      policy,
      deps: { now: () => 0, sleep: async () => {}, random: () => 0 },
      attemptFn: async () => {
        calls++;
        return { outcome: { kind: 'network', sent: true }, result: 'lost' };
      },
    });
    expect(calls).toBe(1);
    expect(attempts).toBe(1);
  });
});

describe('the one throttle detector', () => {
  it('429, or a provider_error whose platform error says rate limit; nothing else', () => {
    expect(isThrottleAnswer(429, undefined)).toBe(true);
    expect(isThrottleAnswer(502, { error: 'provider_error', platformError: { message: 'User request limit reached', code: 17 } })).toBe(true);
    expect(isThrottleAnswer(502, { error: 'provider_error', platformError: { message: 'internal failure' } })).toBe(false);
    expect(isThrottleAnswer(503, { error: 'unavailable' })).toBe(false);
    expect(isThrottled({ kind: 'response', status: 429 })).toBe(true);
    expect(isThrottled({ kind: 'response', status: 502, throttled: true })).toBe(true);
    expect(isThrottled({ kind: 'network', sent: false })).toBe(false);
  });
});

describe('ThrottleGate', () => {
  it("a request that shares the gate holds its next attempt until the throttled one's wait ends", async () => {
    let t = 0;
    const deps = { now: () => t, sleep: async (ms: number) => void (t += ms), random: () => 0 };
    const gate = new ThrottleGate();
    const throttlePolicy: RetryPolicy = { ...policy, throttle: { maxAttempts: 2, baseDelayMs: 5_000, maxDelayMs: 5_000, budgetMs: 60_000 } };
    let held!: () => void;
    const throttledOnce = new Promise<void>((resolve) => (held = resolve));
    const first = runWithRetry({
      method: 'POST',
      policy: throttlePolicy,
      deps,
      gate,
      onRetry: () => held(),
      attemptFn: async (attempt) => ({ outcome: attempt === 1 ? { kind: 'response', status: 429 } : { kind: 'response', status: 202 }, result: attempt }),
    });
    await throttledOnce;
    const sentAt: number[] = [];
    const second = runWithRetry({
      method: 'POST',
      policy: throttlePolicy,
      deps,
      gate,
      attemptFn: async () => (sentAt.push(t), { outcome: { kind: 'response', status: 202 }, result: 0 }),
    });
    await Promise.all([first, second]);
    expect(sentAt).toHaveLength(1);
    expect(sentAt[0]).toBeGreaterThanOrEqual(5_000);
  });
});

describe('retryable answers come from the contract table (issue 25)', () => {
  it('408 request_timeout: retried (the table says retryable), ApiError says so, and it exits 6 like the others', async () => {
    const { isRetryableAnswer } = await import('../../../src/contract/errors.js');
    const { ApiError } = await import('../../../src/client/errors.js');
    const { exitCodeForStatus, EXIT } = await import('../../../src/cli/exit-codes.js');
    expect(isRetryable({ kind: 'response', status: 408, code: 'request_timeout' }, 'POST')).toBe(true);
    expect(isRetryable({ kind: 'response', status: 408 }, 'GET')).toBe(true);
    for (const status of [408, 429, 502, 503, 504]) {
      expect(isRetryableAnswer(status)).toBe(true);
      expect(new ApiError({ status, body: {}, method: 'GET', path: '/x' }).retryable).toBe(true);
      expect(exitCodeForStatus(status)).toBe(EXIT.unavailable);
    }
  });
});

describe('one send budget per request (issue 25: a 503 to POST /mutations went out 4 × 4 = 16 times)', () => {
  it('the client retries and a flow resending the same request share one count: at most maxSends in all', async () => {
    const { SendBudget, SendsSpentError, maxSends } = await import('../../../src/client/retry.js');
    let t = 0;
    const deps = { now: () => t, sleep: async (ms: number) => void (t += ms), random: () => 0 };
    const sends = new SendBudget(policy, deps.now);
    let made = 0;
    const call = () =>
      runWithRetry({
        method: 'POST',
        policy,
        deps,
        sends,
        attemptFn: async () => {
          made++;
          return { outcome: { kind: 'response', status: 503 }, result: 503 };
        },
      });
    // The flow's loop: resend while the budget says so (as startMutation does).
    await call();
    while (sends.left()) await call();
    expect(maxSends(policy)).toBe(6);
    expect(made).toBe(6);
    // A loop that does not ask is stopped by the client, nothing sent.
    await expect(call()).rejects.toBeInstanceOf(SendsSpentError);
    expect(made).toBe(6);
  });

  it('--retries R bounds every request to R + 1 sends, throttled ones too', async () => {
    const { maxSends } = await import('../../../src/client/retry.js');
    expect(maxSends({ ...policy, maxAttempts: 2, throttle: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 10 } })).toBe(2);
  });

  it('the time budget is shared too: a resend after the budget was spent is not allowed', async () => {
    const { SendBudget } = await import('../../../src/client/retry.js');
    let t = 0;
    const sends = new SendBudget(policy, () => t);
    sends.start();
    sends.made = 1;
    t = policy.budgetMs;
    expect(sends.left()).toBe(false);
  });
});
