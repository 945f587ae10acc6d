// A command run as a tool's outcome, and an outcome as MCP's tool result. The
// command already printed through the output boundary (--output json: secrets
// masked, dangerous characters escaped); what reaches the agent passes it again
// after the strings are cleaned as for a terminal (stripControl: no escape
// sequence, no bidi override, the key and any acr_ token masked), so an agent
// that decodes the JSON finds no ESC either. Results are capped in size
// (RESULT_CAP characters): a list keeps its first rows and says how many it
// dropped, anything else is cut and marked.
import { isRecord } from '../client/json.js';
import { EXIT_CODE_TABLE } from '../cli/exit-codes.js';
import { jsonText, stripControl } from '../cli/output/sanitize.js';
import type { CommandRun, ToolOutcome } from './tool-def.js';

/** The most characters a tool result holds (~25k tokens, what common clients accept without warning). */
export const RESULT_CAP = 100_000;

export interface CallResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

/** Every string of a value cleaned for an agent (keys too: a row's keys may be the service's). */
export function cleaned(value: unknown): unknown {
  if (typeof value === 'string') return stripControl(value);
  if (Array.isArray(value)) return value.map(cleaned);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripControl(k), cleaned(v)]));
  return value;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** The `next cursor: X` line a list prints on stderr when rows are left (commands/_shared/list.ts). */
export function nextCursorOf(stderr: string): string | null {
  const m = /^next cursor: (\S+)\s*$/m.exec(stderr);
  return m ? m[1]! : null;
}

/** The error report a failed run printed on stderr (`{"error": …}`, the last JSON document there). */
function reportOf(stderr: string): unknown {
  const at = stderr.lastIndexOf('{\n  "error"');
  const start = at >= 0 ? at : stderr.indexOf('{"error"');
  const report = start >= 0 ? parsed(stderr.slice(start).trim()) : undefined;
  return isRecord(report) ? report.error : stderr.trim();
}

/** A call refused before any command ran (exit 2, a usage error). */
export const usageOutcome = (message: string): ToolOutcome => ({ ok: false, code: 2, error: { code: 'usage', message } });

/** What exit code N means, from the one table (src/cli/exit-codes.ts). */
export const exitMeaning = (code: number): string => EXIT_CODE_TABLE.find(([c]) => c === code)?.[1] ?? 'see docs/exit-codes.md';

/** A run's outcome: its JSON output (a list page with its nextCursor), or its error report with the exit's meaning. */
export function outcomeOf(run: CommandRun, opts: { list: boolean }): ToolOutcome {
  if (run.code !== 0) return { ok: false, code: run.code, error: reportOf(run.stderr) };
  const value = run.stdout.trim() === '' ? null : parsed(run.stdout);
  return { ok: true, value: opts.list ? { rows: value, nextCursor: nextCursorOf(run.stderr) } : value };
}

const text = (value: unknown): string => jsonText(cleaned(value), 2);

/** The value with every string longer than `limit` characters cut there, marked with how much was left out. */
function stringsCut(value: unknown, limit: number): unknown {
  if (typeof value === 'string') return value.length <= limit ? value : `${value.slice(0, limit)}[… ${value.length - limit} characters cut]`;
  if (Array.isArray(value)) return value.map((v) => stringsCut(v, limit));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stringsCut(v, limit)]));
  return value;
}

/**
 * A list page cut to its first rows that fit; else the value with its long strings cut (a service's 200 KB
 * message), so the agent still reads JSON, an error's exitCode and exitMeaning included; only a value of
 * many short strings is cut as text at the cap. Each cut is marked.
 */
function capped(value: unknown): string {
  const whole = text(value);
  if (whole.length <= RESULT_CAP) return whole;
  if (isRecord(value) && Array.isArray(value.rows)) {
    const rows = value.rows;
    let keep = rows.length;
    let shown = whole;
    while (keep > 0 && shown.length > RESULT_CAP) {
      keep = Math.floor(keep / 2);
      shown = text({
        ...value,
        rows: rows.slice(0, keep),
        nextCursor: null,
        truncated: `${rows.length - keep} of the page's ${rows.length} rows left out to stay under ${RESULT_CAP} characters: ask again with limit=${Math.max(1, keep)} to page through them all`,
      });
    }
    if (shown.length <= RESULT_CAP) return shown;
  }
  for (let limit = Math.floor(RESULT_CAP / 4); limit >= 64; limit = Math.floor(limit / 4)) {
    const shown = text(stringsCut(value, limit));
    if (shown.length <= RESULT_CAP) return shown;
  }
  return `${whole.slice(0, RESULT_CAP)}\n[truncated: ${whole.length - RESULT_CAP} of ${whole.length} characters left out (cap ${RESULT_CAP}); ask for less: a smaller limit, one row]`;
}

/** MCP's CallToolResult for an outcome: JSON text, or isError with the report, its exit code and what that means. */
export function callResult(outcome: ToolOutcome): CallResult {
  if (outcome.ok) {
    const content: CallResult['content'] = [{ type: 'text', text: capped(outcome.value) }];
    if (outcome.note) content.push({ type: 'text', text: stripControl(outcome.note) });
    return { content };
  }
  return { content: [{ type: 'text', text: capped({ error: outcome.error, exitCode: outcome.code, exitMeaning: exitMeaning(outcome.code) }) }], isError: true };
}
