// The upload PUT under the one retry policy: the same count, waits and
// Retry-After as every request of the client (--retries, --retry-budget), so
// no flow loops around it. What differs, and why:
// - a lost answer is sent again (the storage keeps the first complete PUT and
//   answers 409 upload_already_received to the next, which the flow adopts by
//   hash), where a POST's is not;
// - no deadline on the attempt in flight: a long upload whose bytes keep
//   moving is bounded by its idle timer (--idle-timeout) only. The budget's
//   clock starts again after each attempt, so --retry-budget bounds the waits
//   between attempts (a Retry-After longer than it is not waited).
import { NetworkError } from './errors.js';
import { isRecord } from './json.js';
import { isThrottled, maxSends, runWithRetry, SendBudget, type AttemptOutcome, type RetryDeps, type RetryPolicy } from './retry.js';
import { putBytes, PutNetworkError, type PutBody, type PutOptions, type PutResult } from './upload-put.js';

export interface SendUploadOptions extends PutOptions {
  policy: RetryPolicy;
  deps: RetryDeps;
  /** Shared by every PUT to one upload URL (the flow sends again after finalize says incomplete). */
  sends?: SendBudget;
  onRetry?: (info: { attempt: number; delayMs: number; outcome: AttemptOutcome; elapsedMs: number }) => void;
  /** Told before each resend: why the last attempt failed, and which attempt comes (of how many at most). */
  onResend?: (why: string, attempt: number, maxAttempts: number) => void;
}

/** PUT the bytes to `url`, retried under the policy; the storage's answer, or NetworkError (exit 6). */
export async function sendUpload(url: string, open: () => PutBody, o: SendUploadOptions): Promise<PutResult> {
  const sends = o.sends ?? new SendBudget(o.policy, o.deps.now);
  type Attempt = { answer?: PutResult; error?: PutNetworkError };
  let last: Attempt = {};
  const { result, attempts } = await runWithRetry<Attempt>({
    method: 'PUT',
    resendable: true,
    policy: o.policy,
    deps: o.deps,
    sends,
    ...(o.signal ? { signal: o.signal } : {}),
    onRetry: (info) => {
      o.onRetry?.(info);
      const why = last.error?.message ?? `the storage answered ${last.answer?.status ?? '?'}`;
      o.onResend?.(why, info.attempt + 1, isThrottled(info.outcome) ? maxSends(o.policy) : o.policy.maxAttempts);
    },
    attemptFn: async () => {
      try {
        const answer = await putBytes(url, open, o);
        const code = isRecord(answer.body) && typeof answer.body.error === 'string' ? answer.body.error : undefined;
        const outcome: AttemptOutcome = { kind: 'response', status: answer.status, ...(code !== undefined ? { code } : {}), retryAfter: answer.retryAfter };
        last = { answer };
        return { outcome, result: last };
      } catch (err) {
        // A file that changed, a refused certificate, the proxy's 407, Ctrl-C: not the network's doing, not retried.
        if (!(err instanceof PutNetworkError)) throw err;
        last = { error: err };
        return { outcome: { kind: 'network', sent: err.sent }, result: last };
      } finally {
        sends.restartClock();
      }
    },
  });
  if (result.error) {
    const e = result.error;
    throw new NetworkError(e.message + (attempts > 1 ? ` after ${attempts} attempts` : ''), e.kind, e.sent, 'PUT', '(upload URL)', attempts, { cause: e });
  }
  return result.answer!;
}
