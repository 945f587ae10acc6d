// The one failure type of the sandbox. Handlers and middleware throw it; the
// app's onError renders it as the spec's `{ error, message, ...added }` body.
import { errorInfo } from '../../contract/errors.js';
import type { Issue, KnownErrorCode } from '../../contract/errors.js';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;

  constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.extra = extra;
  }

  /** The wire body. `error` and `message` win over any same-named extra field. */
  toBody(): Record<string, unknown> {
    const { error: _e, message: _m, ...added } = this.extra;
    return { error: this.code, message: this.message, ...added };
  }
}

/**
 * Build (not throw) a failure: `throw fail('not_found', 'No campaign 12 on this advertiser.')`.
 * The status comes from ERROR_CODES unless given; an unknown code without a status is a 500,
 * so a typo shows up loudly in tests rather than as a plausible 400.
 */
export function fail(
  code: KnownErrorCode | (string & {}),
  message: string,
  extra: Record<string, unknown> = {},
  status?: number,
): ApiError {
  return new ApiError(status ?? errorInfo(code)?.status ?? 500, code, message, extra);
}

/**
 * 400 invalid_request with the given issues (messages must never repeat what was sent).
 * `total` above issues.length: the list was cut, and `issueCount` says how many there were.
 */
export function invalidRequest(issues: Issue[], message?: string, total = issues.length): ApiError {
  const where = [...new Set(issues.map((i) => i.in))].join(', ');
  const cut = total > issues.length;
  const text = message ?? `The request does not match the schema (${where})${cut ? `; the first ${issues.length} of ${total} issues are listed` : ''}.`;
  return fail('invalid_request', text, cut ? { issues, issueCount: total } : { issues });
}
