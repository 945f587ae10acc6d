// Every failure becomes (a) a message on stderr — the service's code and
// message, each issue as `in path: message`, and the suggested action — or
// one JSON object with --output json, and (b) an exit code. One place.
import { ApiError, NetworkError, StoppedWalkError } from '../client/errors.js';
import { InsecureBaseUrlError } from '../client/origin.js';
import { ProxyRefusedError, ProxySettingError } from '../client/proxy.js';
import { TlsCertificateError } from '../client/transport.js';
import { ConfigError } from '../config/errors.js';
import { LocalStateError } from '../state/errors.js';
import { CliError } from './errors.js';
import { EXIT, exitCodeOfAnswer, type ExitCode } from './exit-codes.js';
import { installProblem } from './install-problem.js';
import { extraLines, MAX_ISSUES } from './output/error-details.js';
import { blockText, defuseWorkflowCommands, jsonText, lineText } from './output/sanitize.js';

export interface ErrorReport {
  code: string;
  status: number | null;
  message: string;
  issues: Array<{ in: string; path: string; message: string }>;
  retryable: boolean;
  /** The first of `hints` (a command's own hint comes before the error table's). */
  hint: string | null;
  /** Every hint for a person: the command's (withHint), then the error table's. */
  hints?: string[];
  exitCode: ExitCode;
  extra?: Record<string, unknown>;
  /** A list stopped by this failure resumes from here (--cursor). */
  nextCursor?: string;
}

// Ctrl-C: our abort signal, or @inquirer/prompts' own errors when Ctrl-C is
// pressed inside a prompt (the terminal is in raw mode then, so no SIGINT).
const ABORT_NAMES = new Set(['AbortError', 'ExitPromptError', 'AbortPromptError']);

function isAbort(err: unknown): boolean {
  return err instanceof Error && (ABORT_NAMES.has(err.name) || (err as { code?: string }).code === 'ABORT_ERR');
}

/** A command's hint for a failure: text, or a function of the report (undefined: no hint for this one). */
export type HintSource = string | ((report: ErrorReport) => string | undefined);
const HINTS = Symbol.for('adops.commandHints');

/**
 * Let a command add a hint to a failure it lets through, e.g.
 *   catch (err) { throw withHint(err, (r) => r.code === 'live_read_unsupported' ? 'run `adops observe campaigns list --advertiser acc_1` instead' : undefined); }
 * Returns the same error (a non-object is wrapped in an Error first).
 */
export function withHint<E>(err: E, hint: HintSource): E | Error {
  const target: object = err !== null && typeof err === 'object' ? err : new Error(String(err));
  const list = ((target as { [HINTS]?: HintSource[] })[HINTS] ??= []);
  list.push(hint);
  return target as E | Error;
}

export function toReport(err: unknown): ErrorReport {
  let report = baseReport(err);
  const resume = err && typeof err === 'object' ? (err as { resumeCursor?: unknown }).resumeCursor : undefined;
  if (typeof resume === 'string') report = { ...report, nextCursor: resume };
  const sources = err && typeof err === 'object' ? ((err as { [HINTS]?: HintSource[] })[HINTS] ?? []) : [];
  const own = sources.map((h) => (typeof h === 'function' ? h(report) : h)).filter((h): h is string => typeof h === 'string' && h !== '');
  if (own.length === 0) return report;
  const hints = [...own, ...(report.hint ? [report.hint] : [])];
  return { ...report, hint: hints[0]!, hints };
}

/** A failure of adops's own side (no answer of the service's): no status, no issues. */
function local(code: string, message: string, hint: string | null, exitCode: ExitCode, retryable = false): ErrorReport {
  return { code, status: null, message, issues: [], retryable, hint, exitCode };
}

/** Each kind of failure, in order (the first that matches); anything else is a bug of adops's. */
function baseReport(err: unknown): ErrorReport {
  if (err instanceof ApiError) return answerReport(err);
  if (err instanceof NetworkError) return local(err.kind === 'timeout' ? 'timeout' : 'network_error', err.message, err.hint, EXIT.unavailable, true);
  if (err instanceof ProxyRefusedError) {
    const hint =
      "Put the proxy's user name and password in the variable (http://USER:PASSWORD@host:port; percent-encode special characters), or ask whoever runs the proxy.";
    return { ...local('proxy_auth_required', err.message, hint, EXIT.auth), status: err.status };
  }
  if (err instanceof TlsCertificateError) {
    const hint = `If ${err.host} is signed by a private CA (a corporate proxy inspecting TLS, an internal service), trust that CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem adops … (a PEM file; verification is never turned off).`;
    return local('tls_certificate_refused', err.message, hint, EXIT.unavailable);
  }
  if (err instanceof ProxySettingError) {
    return local('bad_proxy', err.message, 'Fix or unset the variable (e.g. HTTPS_PROXY=http://proxy.corp:3128), or list the host in NO_PROXY.', EXIT.usage);
  }
  if (err instanceof InsecureBaseUrlError) {
    return local('insecure_base_url', err.message, 'Change it with `adops config set base-url URL` or ADOPS_BASE_URL.', EXIT.usage);
  }
  if (err instanceof ConfigError) return local(err.code, err.message, err.hint ?? null, err.kind === 'auth' ? EXIT.auth : EXIT.usage);
  // A config file adops cannot use as written is fixed like a bad flag (2); a disk that will not read or write, 1.
  if (err instanceof LocalStateError) return local(err.code, err.message, err.hint, err.code === 'local_state_corrupt' ? EXIT.usage : EXIT.unexpected);
  if (err instanceof StoppedWalkError) return local(err.code, err.message, err.hint, EXIT.unexpected);
  if (err instanceof CliError) return local(err.code, err.message, err.hint ?? null, err.exitCode);
  if (isAbort(err)) return local('interrupted', 'interrupted', null, EXIT.interrupted, true);
  const install = installProblem(err);
  if (install) return { ...install, status: null, issues: [], retryable: false, exitCode: EXIT.unexpected };
  const message = err instanceof Error ? err.message : String(err);
  return local('unexpected', message, 'This is a bug in adops if it persists; rerun with --debug.', EXIT.unexpected);
}

/** The service's answer: its code, message, issues and hint. */
function answerReport(err: ApiError): ErrorReport {
  return {
    code: err.code,
    status: err.status,
    message: err.message,
    issues: err.issues.map((i) => ({ in: String(i.in), path: String(i.path), message: String(i.message) })),
    retryable: err.retryable,
    hint: err.hint ?? null,
    exitCode: exitCodeOfAnswer(err.status, err.code),
    ...(Object.keys(err.extra).length ? { extra: err.extra } : {}),
  };
}

/**
 * Text for a person, through the boundary (sanitize.ts): masked, stripped. The service's own words (its code,
 * message, issues, cursor) are one line each; a message adops composed keeps its line breaks, each indented,
 * so nothing from outside starts a line of its own.
 */
export function formatReport(r: ErrorReport): string {
  const head = r.status ? `${lineText(r.code)} (${r.status}): ` : r.code === 'usage_error' ? '' : `${lineText(r.code)}: `;
  const lines = [`error: ${head}${r.status ? lineText(r.message) : blockText(r.message)}`];
  const shown = r.issues.slice(0, MAX_ISSUES);
  for (const issue of shown) lines.push(`  ${lineText(issue.in)} ${lineText(issue.path) || '(whole)'}: ${lineText(issue.message)}`);
  if (r.issues.length > shown.length) lines.push(`  … and ${r.issues.length - shown.length} more (see --output json)`);
  lines.push(...extraLines(r.extra ?? {}, (r.hints ?? [r.hint ?? '']).join(' ')));
  for (const hint of r.hints ?? (r.hint ? [r.hint] : [])) lines.push(`hint: ${blockText(hint)}`);
  // The cursor once, on the line a script reads (as a list that stops early prints it).
  if (r.nextCursor) lines.push(`next cursor: ${lineText(r.nextCursor)}`);
  // Whole, once joined: parts cleaned one by one can still meet as `::` (sanitize.ts).
  return defuseWorkflowCommands(lines.join('\n') + '\n');
}

export function formatReportJson(r: ErrorReport): string {
  const { exitCode, extra, hints, ...rest } = r;
  return jsonText({ error: { ...rest, ...(hints && hints.length > 1 ? { hints } : {}), ...(extra ? { extra } : {}), exitCode } }) + '\n';
}
