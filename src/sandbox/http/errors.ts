// Failures only the HTTP layer raises: codes outside the error table (the
// storage endpoint's, the framework's refusals) or with a status of their own.
// Everything else is thrown by code with domainError (models/errors.ts).
import type { KnownErrorCode } from '../../contract/errors.js';
import { ServiceError } from '../models/errors.js';

/**
 * Build (not throw) a failure: `throw fail('not_found', 'No campaign 12 on this advertiser.')`.
 * The status comes from ERROR_CODES unless given; an unknown code without a status is a 500,
 * so a typo shows up loudly in tests rather than as a plausible 400.
 */
export function fail(code: KnownErrorCode | (string & {}), message: string, extra: Record<string, unknown> = {}, status?: number): ServiceError {
  return new ServiceError(code, message, extra, status);
}
