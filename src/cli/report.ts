// Every failure becomes (a) a message on stderr — the service's code and
// message, each issue as `in path: message`, and the suggested action — or
// one JSON object with --output json, and (b) an exit code. One place.
import { ApiError, NetworkError } from '../client/errors.js';
import { InsecureBaseUrlError } from '../client/origin.js';
import { redactText } from '../client/redact.js';
import { CliError } from './errors.js';
import { EXIT, exitCodeForStatus, type ExitCode } from './exit-codes.js';
import { stripControl } from './output/sanitize.js';

export interface ErrorReport {
  code: string;
  status: number | null;
  message: string;
  issues: Array<{ in: string; path: string; message: string }>;
  retryable: boolean;
  hint: string | null;
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

export function toReport(err: unknown): ErrorReport {
  const report = baseReport(err);
  const resume = err && typeof err === 'object' ? (err as { resumeCursor?: unknown }).resumeCursor : undefined;
  return typeof resume === 'string' ? { ...report, nextCursor: resume } : report;
}

function baseReport(err: unknown): ErrorReport {
  if (err instanceof ApiError) {
    return {
      code: err.code,
      status: err.status,
      message: err.message,
      issues: err.issues.map((i) => ({ in: String(i.in), path: String(i.path), message: String(i.message) })),
      retryable: err.retryable,
      hint: err.hint ?? null,
      exitCode: err.status >= 300 && err.status < 400 ? EXIT.unexpected : exitCodeForStatus(err.status),
      ...(Object.keys(err.extra).length ? { extra: err.extra } : {}),
    };
  }
  if (err instanceof NetworkError) {
    return { code: err.kind === 'timeout' ? 'timeout' : 'network_error', status: null, message: err.message, issues: [], retryable: true, hint: err.hint, exitCode: EXIT.unavailable };
  }
  if (err instanceof InsecureBaseUrlError) {
    return { code: 'insecure_base_url', status: null, message: err.message, issues: [], retryable: false, hint: 'Change it with `adops config set base-url URL` or ADOPS_BASE_URL.', exitCode: EXIT.usage };
  }
  if (err instanceof CliError) {
    return { code: err.code, status: null, message: err.message, issues: [], retryable: false, hint: err.hint ?? null, exitCode: err.exitCode };
  }
  if (isAbort(err)) {
    return { code: 'interrupted', status: null, message: 'interrupted', issues: [], retryable: true, hint: null, exitCode: EXIT.interrupted };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'unexpected', status: null, message, issues: [], retryable: false, hint: 'This is a bug in adops if it persists; rerun with --debug.', exitCode: EXIT.unexpected };
}

/** Text for a person; server text is stripped of control characters and keys are masked. */
export function formatReport(r: ErrorReport): string {
  const clean = (s: string) => redactText(stripControl(s));
  const lines = [`error: ${r.status ? `${r.code} (${r.status}): ` : r.code === 'usage_error' ? '' : `${r.code}: `}${clean(r.message)}`];
  for (const issue of r.issues) lines.push(`  ${clean(issue.in)} ${clean(issue.path) || '(whole)'}: ${clean(issue.message)}`);
  if (r.extra?.provider) lines.push(`  provider: ${clean(String(r.extra.provider))}`);
  if (r.hint) lines.push(`hint: ${clean(r.hint)}`);
  if (r.nextCursor) lines.push(`next cursor: ${r.nextCursor}`, `(resume with --cursor '${r.nextCursor}')`);
  return lines.join('\n') + '\n';
}

export function formatReportJson(r: ErrorReport): string {
  const { exitCode, extra, ...rest } = r;
  return redactText(JSON.stringify({ error: { ...rest, ...(extra ? { extra } : {}), exitCode } })) + '\n';
}
