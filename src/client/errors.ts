// Typed failures of the HTTP client. ApiError is a failure the service answered;
// NetworkError is one where no usable answer came back. Both say whether
// sending again may help, so the runner and flows never re-derive it.
import { oldFailure } from './old-failure-bodies.js';
import { errorInfo, isRetryableAnswer, type Issue } from '../contract/errors.js';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The service's stable `error` code ('http_<status>' when the body had none). */
  readonly code: string;
  readonly issues: Issue[];
  /** Fields the error carried beyond error/message/issues (paywallUrl, provider, currentRevision...). */
  readonly extra: Record<string, unknown>;
  readonly retryable: boolean;
  /** The action the spec's error table suggests, if any. */
  readonly hint: string | undefined;
  readonly method: string;
  readonly path: string;

  /** Set when the retry policy gave up on this answer: how long it tried. */
  readonly retriedFor: { attempts: number; elapsedMs: number; throttled: boolean } | undefined;

  constructor(init: { status: number; body: unknown; method: string; path: string; retriedFor?: { attempts: number; elapsedMs: number; throttled: boolean } }) {
    const body: Record<string, unknown> = init.body && typeof init.body === 'object' ? { ...init.body } : {};
    const legacy = oldFailure(init.status, init.body);
    const code = typeof body.error === 'string' ? body.error : (legacy?.code ?? `http_${init.status}`);
    const message =
      legacy?.message ??
      (typeof body.message === 'string'
        ? body.message
        : typeof init.body === 'string' && init.body.trim()
          ? init.body.trim().slice(0, 500)
          : `the service answered ${init.status}`);
    super(message);
    this.status = init.status;
    this.code = code;
    this.method = init.method;
    this.path = init.path;
    this.issues = legacy?.issues ?? (Array.isArray(body.issues) ? (body.issues as Issue[]) : []);
    const { error: _e, message: _m, issues: _i, ...extra } = body;
    // The old framework body's own fields are already read into code, message and issues.
    if (legacy) for (const k of ['type', 'errors', 'title', 'detail']) delete extra[k];
    this.extra = extra;
    const info = errorInfo(code);
    // unexpected_answer is ours, not the service's: an answer adops will not act on (exit 1), whatever its status.
    this.retryable = code !== 'unexpected_answer' && isRetryableAnswer(init.status, code);
    this.retriedFor = init.retriedFor;
    this.hint = init.retriedFor?.throttled ? throttledHint(init.retriedFor, extra) : hintFor(code, init.status, extra, info?.action);
  }
}

function hintFor(code: string, status: number, extra: Record<string, unknown>, action?: string): string | undefined {
  if (code === 'organization_unentitled' && typeof extra.paywallUrl === 'string') {
    return `An owner subscribes at ${extra.paywallUrl}, then retry.`;
  }
  if (code === 'unauthorized') return `${action} Log in again with \`adops auth login\`.`;
  if (action) return action;
  if (status === 429) return 'Rate limited: wait and retry.';
  if (status >= 500) return 'The service failed; retry later.';
  return undefined;
}

// Honest about what was tried: the provider's own "retry in a minute" is
// already spent when we give up, so say how long we waited and what to do.
function throttledHint(r: { attempts: number; elapsedMs: number }, extra: Record<string, unknown>): string {
  const who = typeof extra.provider === 'string' ? extra.provider : 'the service';
  const tries = `${r.attempts} attempt${r.attempts === 1 ? '' : 's'}`;
  return `${who} was still rate limiting after ${tries} over ${Math.round(r.elapsedMs / 1000)} s; wait a few minutes before running again (raise the wait with --retry-budget SECONDS).`;
}

export type NetworkFailureKind = 'connect' | 'timeout' | 'lost';

/** No usable answer: the connection failed, timed out, or the answer was lost after sending. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    message: string,
    readonly kind: NetworkFailureKind,
    /** Whether the request may have reached the service (its effect is unknown). */
    readonly sent: boolean,
    readonly method: string,
    readonly path: string,
    readonly attempts: number = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
  get retryable(): boolean {
    return true;
  }
  get hint(): string {
    if (/\bthe proxy\b/.test(this.message))
      return 'Check the proxy in HTTPS_PROXY / HTTP_PROXY and that it is reachable (list hosts it must not be used for in NO_PROXY).';
    if (/--retry-budget/.test(this.message)) return 'The answer did not end within --retry-budget: raise it (seconds), or check the service.';
    return this.kind === 'timeout'
      ? 'The service did not answer in time: retry, or raise --timeout.'
      : 'Check the base URL (`adops auth status`) and that the service is reachable.';
  }
}

/**
 * A walk adops stopped because following the service's pages would never end (the CLI exits 1, as for any
 * answer it will not act on). The rows printed so far are complete up to there.
 */
export abstract class StoppedWalkError extends Error {
  abstract readonly code: string;
  readonly hint: string;
  constructor(
    message: string,
    why: string,
    readonly path: string,
  ) {
    super(message);
    this.hint = `the rows printed so far are complete up to here; ${why}, a fault of the service to report`;
  }
}

/** The service sent a cursor it had already sent: following it would loop. */
export class RepeatedCursorError extends StoppedWalkError {
  override readonly name = 'RepeatedCursorError';
  readonly code = 'repeated_cursor';
  /** The cursor given twice. */
  readonly cursor: string;
  constructor(cursor: string, path: string) {
    super(`the service repeated a cursor while paging ${path}; stopped instead of looping`, 'the service gave a cursor twice', path);
    this.cursor = cursor;
  }
}

/** A walk that makes no progress: page after page without a row, each with a new cursor. */
export class NoProgressError extends StoppedWalkError {
  override readonly name = 'NoProgressError';
  readonly code = 'no_progress';
  constructor(
    /** How many empty pages came in a row. */
    readonly pages: number,
    path: string,
  ) {
    const why = 'the service keeps answering empty pages with new cursors';
    super(`the service answered ${pages} empty pages in a row while paging ${path}, each with a new cursor; stopped instead of paging for ever`, why, path);
  }
}

export { causeOf, codeOf } from './transport.js';
