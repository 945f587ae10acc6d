// How a flow tool runs its adops command and reads what it wrote: `--output json`
// results on stdout, and on stderr the notes (plain lines) and, when the run
// failed, the one JSON error report (cli/report.ts, a line of its own). A run
// that exits non-zero is the tool's error: the report as the CLI made it (the
// service's code, the exit code), with the notes and any rows printed before.
import type { CommandRun, ToolEnv, ToolOutcome } from '../tool-def.js';

/** What one run said: its exit code, its parsed stdout, its notes and its error report (if any). */
export interface JsonRun {
  code: number;
  /** The parsed `--output json` stdout; undefined when it printed nothing. */
  value: unknown;
  notes: string[];
  /** The `error` object of the JSON report on stderr; undefined when there is none. */
  report: Record<string, unknown> | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** stderr split into the error report (a line `{"error":…}`) and the notes (every other line). */
export function readStderr(stderr: string): { notes: string[]; report: Record<string, unknown> | undefined } {
  const notes: string[] = [];
  let report: Record<string, unknown> | undefined;
  for (const line of stderr.split('\n')) {
    const parsed = line.startsWith('{"error":') ? parseJson(line) : undefined;
    if (isRecord(parsed) && isRecord(parsed.error)) report = parsed.error;
    else if (line.trim() !== '') notes.push(line);
  }
  return { notes, report };
}

/** A finished run read as JSON; stdout that is not JSON is kept as text. */
export function readRun(run: CommandRun): JsonRun {
  const out = run.stdout.trim();
  const value = out === '' ? undefined : (parseJson(out) ?? out);
  return { code: run.code, value, ...readStderr(run.stderr) };
}

/** `adops <argv…> --output json`, read. */
export async function runJson(env: ToolEnv, argv: readonly string[], stdin?: string): Promise<JsonRun> {
  const run = await env.run(['--output', 'json', ...argv], { signal: env.signal, ...(stdin === undefined ? {} : { stdin }) });
  return readRun(run);
}

/** The notes as the outcome's note (undefined when there are none). */
export const noteOf = (notes: readonly string[]): { note?: string } => (notes.length ? { note: notes.join('\n') } : {});

/** A failed run as the tool's error: the CLI's report, else a report made of its notes; `extra` beside it. */
export function failure(r: JsonRun, extra: Record<string, unknown> = {}): ToolOutcome {
  const report = r.report ?? { code: 'command_failed', message: r.notes.at(-1) ?? `exit ${r.code}`, exitCode: r.code };
  return {
    ok: false,
    code: r.code,
    error: { ...report, ...(r.notes.length ? { notes: r.notes } : {}), ...(r.value === undefined ? {} : { output: r.value }), ...extra },
  };
}

/** A success: the value, the notes beside it. */
export function success(value: unknown, notes: readonly string[]): ToolOutcome {
  return { ok: true, value, ...noteOf(notes) };
}
