// The one failure type of the sandbox: ServiceError, an error answer the
// sandbox renders as the spec's `{ error, message, ...added }` body (app.ts's
// onError). Models, providers and the store throw it by code (domainError);
// the HTTP status each code answers with lives in the one error table
// (src/contract/errors.ts) and is read here, so nothing inside picks a status.
// Only http/ (errors.ts's `fail`) may answer a code outside the table or name
// a status itself, and the inside cannot import http/ (.dependency-cruiser.cjs).
import { errorInfo } from '../../contract/errors.js';
import type { Issue, KnownErrorCode } from '../../contract/errors.js';

export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;

  /** The status comes from the error table; an unknown code is a 500, so a typo shows loudly in tests. */
  constructor(code: string, message: string, extra: Record<string, unknown> = {}, status: number = errorInfo(code)?.status ?? 500) {
    super(message);
    this.name = 'ServiceError';
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

/** `throw domainError('not_found', 'No Brand with this slug in your organization.')`. */
export function domainError(code: KnownErrorCode, message: string, extra: Record<string, unknown> = {}): ServiceError {
  return new ServiceError(code, message, extra);
}

/**
 * 400 invalid_request with the given issues (messages must never repeat what was sent).
 * `total` above issues.length: the list was cut, and `issueCount` says how many there were.
 */
export function invalidRequest(issues: Issue[], message?: string, total = issues.length): ServiceError {
  const where = [...new Set(issues.map((i) => i.in))].join(', ');
  const cut = total > issues.length;
  const text = message ?? `The request does not match the schema (${where})${cut ? `; the first ${issues.length} of ${total} issues are listed` : ''}.`;
  return domainError('invalid_request', text, cut ? { issues, issueCount: total } : { issues });
}
