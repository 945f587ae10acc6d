// The error model of the service (spec: Errors). Plain data, no zod: both the
// sandbox (which status to send) and the CLI (exit code, hint, retry) read it.
// With the statuses' rows (./status-dispositions.ts) it is the answer table:
// what becomes of a failed answer, one column per meaning.
import { OTHER_STATUSES, STATUS_DISPOSITIONS, type AnswerExit, type Disposition, type RetryDisposition, type StatusRow } from './status-dispositions.js';

export { OTHER_STATUSES, STATUS_DISPOSITIONS, type AnswerExit, type Disposition, type RetryDisposition, type StatusRow } from './status-dispositions.js';

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
  /** Only where the code is treated unlike its status's row (else that row's cell applies). */
  retry?: RetryDisposition;
  exit?: AnswerExit;
  /**
   * Where an answer naming this code may say "slow down" although its row does not: the body field
   * whose words the client reads for a rate limit used up, at these statuses.
   */
  throttleSignal?: { field: string; statuses: readonly number[] };
}

/**
 * Codes the spec names, with their status; a code's retry and exit are its status's row unless it has its own cell.
 * Operation-specific codes we designed are marked in docs/decisions.md.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, action: 'Correct the request: the issues name the fields.' },
  invalid_cursor: { status: 400, action: 'Send the previous nextCursor unchanged with the same filters, or omit it.' },
  unauthorized: { status: 401, action: 'Check the API key: it is missing, revoked, expired, or its creator deleted their account.' },
  organization_unentitled: { status: 402, action: 'An owner subscribes at paywallUrl, then retry.' },
  forbidden: { status: 403, action: 'The key lacks the permission this operation needs, or its creator left the organization.' },
  missing_write_access: { status: 403, action: 'A person must reconnect the advertiser and grant write access.' },
  not_found: { status: 404, action: 'Do not retry: it does not exist in this organization.' },
  revision_mismatch: { status: 409, action: 'Somebody wrote first: read again, reapply your change, resend with currentRevision.' },
  slug_conflict: { status: 409, action: 'Choose another slug.' },
  provider_not_connected: { status: 409, action: 'A person reconnects the advertiser. The stored read still answers.' },
  too_large: { status: 413, action: 'Upload a smaller file.' },
  unsupported_type: { status: 415, action: 'Upload an accepted type.' },
  type_mismatch: { status: 415, action: 'Upload again with the real Content-Type.' },
  unreadable: { status: 415, action: 'Upload an intact file of an accepted type.' },
  advertiser_not_owned: { status: 422, action: 'Use an advertiserId your organization owns.' },
  invalid_amount: { status: 422, action: 'Send an amount the service accepts (whole units of the currency).' },
  invalid_slug: { status: 422, action: 'Use a slug of lowercase letters, digits and hyphens.' },
  live_read_unsupported: {
    status: 501,
    action: 'Read the stored copy: the same resource without the advertiser in the path, with advertiserId as a filter.',
  },
  provider_error: {
    status: 502,
    action: 'The provider refused or did not answer; often temporary: retry.',
    // A provider's rate limit used up comes as a provider_error (spec: platformError carries the platform's own error).
    throttleSignal: { field: 'platformError', statuses: [502, 503] },
  },
  // Designed by the sandbox where the spec is silent (docs/decisions.md).
  idempotency_key_reused: {
    status: 422,

    action: 'This Idempotency-Key was used with a different body: use a new key for a different change.',
  },
  upload_incomplete: { status: 409, action: 'PUT the whole file to the uploadUrl, then finalize again.' },
  asset_not_ready: { status: 409, action: 'Finalize the asset before registering it.' },
  invalid_upload_token: { status: 403, action: 'Use the uploadUrl exactly as the reservation answered it.' },
  upload_url_expired: { status: 403, action: 'Reserve the upload again for a fresh uploadUrl.' },
  upload_already_received: { status: 409, action: 'The upload URL was already used; finalize, or reserve again to replace the file.' },
  // Bounds on one request's work, where the spec is silent (docs/decisions.md, issue 9).
  body_too_large: { status: 413, action: 'Send a smaller JSON body (limitBytes says how large one may be).' },
  request_timeout: { status: 408, action: 'Send the whole request promptly; the connection was closed.' },
  headers_too_large: { status: 431, action: 'Send fewer or shorter request headers.' },
  // Designed for the Context API where the spec is silent (docs/decisions.md).
  not_imported: { status: 422, action: 'Only a Skill imported from the Skill Catalog can be re-imported.' },
  catalog_entry_missing: { status: 422, action: 'The Skill Catalog no longer offers this entry; keep the Skill as it is or delete it.' },
  invalid_currency: { status: 422, action: 'Use an ISO 4217 currency code the service supports.' },
  invalid_dates: { status: 422, action: 'Send an endDate on or after the startDate.' },
  plan_frozen: { status: 409, action: 'The Campaign Plan is approved or archived and no longer changes; archive it and write a new plan.' },
  plan_invalid: { status: 422, action: 'Fix the Line Items listed (validate says what is missing), then approve again.' },
  plan_not_approved: { status: 409, action: 'Approve the Campaign Plan first.' },
  provider_mismatch: { status: 422, action: "Record objects on the Line Item's own provider." },
} as const satisfies Record<string, ErrorCodeInfo>;

export type KnownErrorCode = keyof typeof ERROR_CODES;

/** The whole table an answer is judged by. The readers take it as a parameter (a test passes a changed copy). */
export interface AnswerTable {
  codes: Readonly<Record<string, ErrorCodeInfo>>;
  statuses: Readonly<Record<number, StatusRow>>;
  /** Any status without a row (a 3xx included: adops follows no redirect). */
  otherwise: Disposition;
}

export const ANSWER_TABLE: AnswerTable = { codes: ERROR_CODES, statuses: STATUS_DISPOSITIONS, otherwise: OTHER_STATUSES };

/** The code's row, if the table holds the code (at any status). */
export function codeRow(code: string, table: AnswerTable = ANSWER_TABLE): ErrorCodeInfo | undefined {
  return Object.hasOwn(table.codes, code) ? table.codes[code] : undefined;
}

export function errorInfo(code: string): ErrorCodeInfo | undefined {
  return codeRow(code);
}

function statusRow(status: number, table: AnswerTable): StatusRow {
  return (Object.hasOwn(table.statuses, status) ? table.statuses[status] : undefined) ?? table.otherwise;
}

/** For an answer naming a code the table holds at this status: that code's row, its blank cells its status's. */
export function codeDisposition(status: number, code: string | undefined, table: AnswerTable = ANSWER_TABLE): Disposition | undefined {
  const row = code === undefined ? undefined : codeRow(code, table);
  if (row?.status !== status) return undefined;
  const byStatus = statusRow(status, table);
  return { retry: row.retry ?? byStatus.retry, exit: row.exit ?? byStatus.exit };
}

/** For an answer naming no code the table holds at this status: the status's row. */
export function statusDisposition(status: number, code: string | undefined, table: AnswerTable = ANSWER_TABLE): Disposition {
  const row = statusRow(status, table);
  // A bare answer has no code, or the client's stand-in `http_<status>`.
  const named = code !== undefined && !code.startsWith('http_');
  return { retry: (named ? row.retryWhenCoded : undefined) ?? row.retry, exit: row.exit };
}

/** The one answer to "what becomes of an answer of `status` naming `code`": the code's row at its status, else the status's. */
export function answerDisposition(status: number, code?: string, table: AnswerTable = ANSWER_TABLE): Disposition {
  return codeDisposition(status, code, table) ?? statusDisposition(status, code, table);
}

/** Whether sending the same request again may succeed (ApiError.retryable; the retry policy reads the same column). */
export function isRetryableAnswer(status: number, code?: string, table: AnswerTable = ANSWER_TABLE): boolean {
  return answerDisposition(status, code, table).retry !== 'never';
}
