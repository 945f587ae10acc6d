// GitHub Actions' step summary (issue #29): where a CI user looks to see what a
// job did. When the run is in GitHub Actions (GITHUB_ACTIONS=true) and
// GITHUB_STEP_SUMMARY names the file, `assets upload`, `assets sync`,
// `mutations apply` and `plans apply` append a heading, the counts of each
// state, and a table of their files or rows with ids and states, failures
// first. Written by the markdown writer (writers/markdown.ts: every cell
// through the text boundary, then escaped), appended in one write through the
// local store (state/append-file.ts); never stdout, which stays the command's
// result. A summary that cannot be written is a warning, not a failure: the
// work is done and its result printed.
import { Writable } from 'node:stream';
import type { CommandContext } from '../context.js';
import { appendDurably } from '../../state/append-file.js';
import { asText } from './sanitize.js';
import { writerOf } from './writers/formats.js';
import type { Row } from './writers/writer.js';

export interface StepSummary {
  /** What ran, as a person would type it (`adops assets sync ./creatives`): the heading, escaped. */
  command: string;
  /** One per file or row, in the command's order (failures are moved first here). */
  rows: readonly Row[];
  /** The table's columns, in order (dotted paths allowed). */
  columns: readonly string[];
  /** The column holding each row's state (counted in the line under the heading). */
  state: string;
  /** A row that did not end as asked (failed, refused, in doubt, not sent, interrupted). */
  failed: (row: Row) => boolean;
}

/** Where the summary goes, or undefined outside GitHub Actions. */
export function stepSummaryFile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const file = env.GITHUB_STEP_SUMMARY;
  return env.GITHUB_ACTIONS === 'true' && file ? file : undefined;
}

/** The summary's markdown: heading, counts, table (failures first, the order kept within each part). */
export async function renderStepSummary(s: StepSummary): Promise<string> {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const markdown = await writerOf('markdown');
  const opts = { out, resource: 'generic' as const, fields: [...s.columns], color: false };
  const failures = s.rows.filter(s.failed);
  const rows = [...failures, ...s.rows.filter((r) => !s.failed(r))];
  const counts = new Map<string, number>();
  for (const r of rows) {
    const state = asText(r[s.state] ?? 'unknown');
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  chunks.push('### ');
  await markdown.result(s.command, opts);
  chunks.push('\n');
  const tally = [...counts].map(([state, n]) => `${n} ${state}`).join(', ');
  await markdown.result(
    `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}: ${tally || 'none'}${failures.length ? ` (${failures.length} not done, listed first)` : ''}`,
    opts,
  );
  chunks.push('\n');
  const sink = markdown.list(opts);
  await sink.start();
  if (rows.length) await sink.page(rows);
  await sink.end(rows.length);
  chunks.push('\n');
  return chunks.join('');
}

/** Append the summary when in GitHub Actions; a refusal of the file is a warning on stderr. */
export async function appendStepSummary(ctx: CommandContext, s: StepSummary): Promise<void> {
  const file = stepSummaryFile(ctx.env);
  if (!file) return;
  const text = await renderStepSummary(s);
  try {
    appendDurably(file, text, 'the GitHub step summary');
  } catch (err) {
    ctx.warn(`could not append to GITHUB_STEP_SUMMARY (${file}): ${err instanceof Error ? err.message : String(err)}`);
  }
}
