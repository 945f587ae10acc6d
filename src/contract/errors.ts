// The error model of the service (spec: Errors). Plain data, no zod: both the
// sandbox (which status to send) and the CLI (exit code, hint, retry) read it.

export const ISSUE_LOCATIONS = ['body', 'query', 'params', 'headers', 'cookie'] as const;
export type IssueLocation = (typeof ISSUE_LOCATIONS)[number];

/** One entry of `issues` on a 400 invalid_request. `path` is a JSON Pointer; '' is the whole part. */
export interface Issue {
  in: IssueLocation;
  path: string;
  message: string;
}

/** Every failure body: `error` is stable (branch on it), `message` is for people. */
export interface ErrorBody {
  error: string;
  message: string;
  [added: string]: unknown;
}

export interface ErrorCodeInfo {
  status: number;
  /** The action the spec's table suggests, phrased for a person. */
  action?: string;
  /** Whether sending the same request again may succeed. */
  retryable: boolean;
}

/** Codes the spec names, with their status. Operation-specific codes we designed are marked in docs/decisions.md. */
export const ERROR_CODES = {
  invalid_request: { status: 400, retryable: false, action: 'Correct the request: the issues name the fields.' },
  invalid_cursor: { status: 400, retryable: false, action: 'Send the previous nextCursor unchanged with the same filters, or omit it.' },
  unauthorized: { status: 401, retryable: false, action: 'Check the API key: it is missing, revoked, expired, or its creator deleted their account.' },
  organization_unentitled: { status: 402, retryable: false, action: 'An owner subscribes at paywallUrl, then retry.' },
  forbidden: { status: 403, retryable: false, action: 'The key lacks the permission this operation needs, or its creator left the organization.' },
  missing_write_access: { status: 403, retryable: false, action: 'A person must reconnect the advertiser and grant write access.' },
  not_found: { status: 404, retryable: false, action: 'Do not retry: it does not exist in this organization.' },
  revision_mismatch: { status: 409, retryable: false, action: 'Somebody wrote first: read again, reapply your change, resend with currentRevision.' },
  slug_conflict: { status: 409, retryable: false, action: 'Choose another slug.' },
  provider_not_connected: { status: 409, retryable: false, action: 'A person reconnects the advertiser. The stored read still answers.' },
  too_large: { status: 413, retryable: false, action: 'Upload a smaller file.' },
  unsupported_type: { status: 415, retryable: false, action: 'Upload an accepted type.' },
  type_mismatch: { status: 415, retryable: false, action: 'Upload again with the real Content-Type.' },
  unreadable: { status: 415, retryable: false, action: 'Upload an intact file of an accepted type.' },
  advertiser_not_owned: { status: 422, retryable: false, action: 'Use an advertiserId your organization owns.' },
  invalid_amount: { status: 422, retryable: false, action: 'Send an amount the service accepts (whole units of the currency).' },
  invalid_slug: { status: 422, retryable: false, action: 'Use a slug of lowercase letters, digits and hyphens.' },
  live_read_unsupported: {
    status: 501,
    retryable: false,
    action: 'Read the stored copy: the same resource without the advertiser in the path, with advertiserId as a filter.',
  },
  provider_error: { status: 502, retryable: true, action: 'The provider refused or did not answer; often temporary: retry.' },
  // Designed by the sandbox where the spec is silent (docs/decisions.md).
  idempotency_key_reused: {
    status: 422,
    retryable: false,
    action: 'This Idempotency-Key was used with a different body: use a new key for a different change.',
  },
  upload_incomplete: { status: 409, retryable: false, action: 'PUT the whole file to the uploadUrl, then finalize again.' },
  asset_not_ready: { status: 409, retryable: false, action: 'Finalize the asset before registering it.' },
  invalid_upload_token: { status: 403, retryable: false, action: 'Use the uploadUrl exactly as the reservation answered it.' },
  upload_url_expired: { status: 403, retryable: false, action: 'Reserve the upload again for a fresh uploadUrl.' },
  upload_already_received: { status: 409, retryable: false, action: 'The upload URL was already used; finalize, or reserve again to replace the file.' },
  // Bounds on one request's work, where the spec is silent (docs/decisions.md, issue 9).
  body_too_large: { status: 413, retryable: false, action: 'Send a smaller JSON body (limitBytes says how large one may be).' },
  request_timeout: { status: 408, retryable: true, action: 'Send the whole request promptly; the connection was closed.' },
  headers_too_large: { status: 431, retryable: false, action: 'Send fewer or shorter request headers.' },
  // Designed for the Context API where the spec is silent (docs/decisions.md).
  not_imported: { status: 422, retryable: false, action: 'Only a Skill imported from the Skill Catalog can be re-imported.' },
  catalog_entry_missing: { status: 422, retryable: false, action: 'The Skill Catalog no longer offers this entry; keep the Skill as it is or delete it.' },
  invalid_currency: { status: 422, retryable: false, action: 'Use an ISO 4217 currency code the service supports.' },
  invalid_dates: { status: 422, retryable: false, action: 'Send an endDate on or after the startDate.' },
  plan_frozen: { status: 409, retryable: false, action: 'The Campaign Plan is approved or archived and no longer changes; archive it and write a new plan.' },
  plan_invalid: { status: 422, retryable: false, action: 'Fix the Line Items listed (validate says what is missing), then approve again.' },
  plan_not_approved: { status: 409, retryable: false, action: 'Approve the Campaign Plan first.' },
  provider_mismatch: { status: 422, retryable: false, action: "Record objects on the Line Item's own provider." },
} as const satisfies Record<string, ErrorCodeInfo>;

export type KnownErrorCode = keyof typeof ERROR_CODES;

export function errorInfo(code: string): ErrorCodeInfo | undefined {
  return Object.hasOwn(ERROR_CODES, code) ? (ERROR_CODES as Record<string, ErrorCodeInfo>)[code] : undefined;
}

/**
 * Statuses that say "not done now, try again" whatever body they carry: a
 * gateway's or proxy's answer names no code of the table (408 request_timeout
 * and 502 provider_error are the table's own, and retryable there too).
 */
export const RETRYABLE_STATUSES: readonly number[] = [408, 429, 502, 503, 504];

/**
 * The one answer to "may sending the same request again succeed?" for an
 * answer of `status` carrying error `code`: the table's word for a code it
 * names at that status, else the status's. The retry policy, ApiError and the
 * exit codes all read it.
 */
export function isRetryableAnswer(status: number, code?: string): boolean {
  const info = code !== undefined ? errorInfo(code) : undefined;
  if (info && info.status === status) return info.retryable;
  // The service's 502 is provider_error; a 502 naming another code is a refusal we cannot vouch for
  // (a bare one, without a code, is a gateway's).
  if (status === 502 && code !== undefined && !code.startsWith('http_')) return false;
  return RETRYABLE_STATUSES.includes(status);
}
