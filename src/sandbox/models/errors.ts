// Models, providers and the store throw domain errors named by their code;
// the HTTP status each code answers with lives in the one error table
// (src/contract/errors.ts) and is read here, so no model picks a status.
// (ApiError is the type the app renders; models only ever build it here.)
import type { KnownErrorCode } from '../../contract/errors.js';
import { ApiError, fail } from '../http/errors.js';

export { ApiError as DomainError };

/** `throw domainError('not_found', 'No Brand with this slug in your organization.')`. */
export function domainError(code: KnownErrorCode, message: string, extra: Record<string, unknown> = {}): ApiError {
  return fail(code, message, extra);
}
