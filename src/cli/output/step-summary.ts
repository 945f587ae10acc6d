// GitHub Actions' step summary (issue #29): where a CI user looks to see what a
// job did. When the run is in GitHub Actions (GITHUB_ACTIONS=true) and
// GITHUB_STEP_SUMMARY names the file, `assets upload`, `assets sync`,
// `mutations apply` and `plans apply` append a heading, the counts of each
// state, and a table of their files or rows with ids and states, failures
// first. Written with the markdown writer's cells (writers/markdown.ts: the
// text boundary, then code spans GitHub renders nothing in), appended in one
// write through the local store (state/append-file.ts); never stdout, which
// stays the command's result. A summary that cannot be written is a warning,
// not a failure: the work is done and its result printed.
//
// Bounded (#34): GitHub shows nothing of a step summary over 1 MiB, and one
// step may run several commands that each append to the same file. So a cell
// is cut at CELL_MAX characters (saying so), and a summary takes at most
// SUMMARY_MAX_BYTES and never brings the file past FILE_MAX_BYTES; the rows that
// do not fit (the last ones: failures come first) are counted, not written.
import { statSync } from 'node:fs';
import type { CommandContext } from '../context.js';
import { appendDurably } from '../../state/append-file.js';
import { asText } from './sanitize.js';
import { ColumnAlignment, inline, tableRow } from './writers/markdown.js';
import type { Row } from './writers/writer.js';

/** A cell's text past this many characters is cut (a 200 KB service error says nothing more in a summary). */
export const CELL_MAX = 1000;
/** One summary's bytes at most: a step can append several and stay well under GitHub's 1 MiB. */
export const SUMMARY_MAX_BYTES = 256 * 1024;
/** The file is never brought past this by a summary: GitHub's 1 MiB a step, less room for what others append. */
export const FILE_MAX_BYTES = 1024 * 1024 - 128 * 1024;

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

const text = (s: string) => inline(s, { table: false });
const bytes = (s: string) => Buffer.byteLength(s);

/** The summary's markdown in at most `maxBytes`: heading, counts, table (failures first), and how many rows did not fit. */
export function renderStepSummary(s: StepSummary, maxBytes = SUMMARY_MAX_BYTES): string {
  const rows = new SummaryRows(s, maxBytes);
  for (const r of s.rows) rows.add(r);
  return rows.render(s.command, maxBytes);
}

/**
 * A summary's rows as a command hands them over, one at a time, kept only as far as a summary can show them: every
 * row is counted (its state, whether numbers fill a column), but only SUMMARY_MAX_BYTES of rendered failures and as
 * much of the others are held. A command that streams its rows (`mutations apply` over a file of any length) keeps
 * its memory bounded by that, not by the file.
 */
export class SummaryRows {
  private total = 0;
  private readonly failures = new Kept();
  private readonly others = new Kept();
  private readonly aligned: ColumnAlignment;

  constructor(
    private readonly table: Pick<StepSummary, 'columns' | 'state' | 'failed'>,
    private readonly keepBytes = SUMMARY_MAX_BYTES,
  ) {
    this.aligned = new ColumnAlignment(table.columns);
  }

  /** Rows held to be shown (what stays in memory however many were added). */
  get held(): number {
    return this.failures.lines.length + this.others.lines.length;
  }

  add(r: Row): void {
    this.total++;
    this.aligned.add(r);
    const state = asText(r[this.table.state] ?? 'unknown');
    // Rendered only while its side still keeps rows: past the bound a row is counted, not drawn.
    (this.table.failed(r) ? this.failures : this.others).add(state, () => tableRow(this.table.columns, r, CELL_MAX), this.keepBytes);
  }

  /** The summary's markdown in at most `maxBytes` (at most the bytes kept). */
  render(command: string, maxBytes: number): string {
    const { total, failures } = this;
    const counts = new Map(failures.counts);
    for (const [state, n] of this.others.counts) counts.set(state, (counts.get(state) ?? 0) + n);
    const tally = [...counts].map(([state, n]) => `${n} ${text(state)}`).join(', ');
    let out =
      `### ${text(command)}\n` +
      `${total} ${total === 1 ? 'row' : 'rows'}: ${tally || 'none'}${failures.seen ? ` (${failures.seen} not done, listed first)` : ''}\n\n`;
    if (total === 0) return `${out}(no rows)\n\n`;
    out += this.aligned.head();
    // Room for the line that counts the rows left out, whatever their number.
    const room = maxBytes - 200;
    let shown = 0;
    let size = bytes(out);
    // Failures not all kept: the first left out would not have fitted, so no other row is shown after them.
    for (const row of failures.full ? failures.lines : [...failures.lines, ...this.others.lines]) {
      if (size + bytes(row) > room) break;
      out += row;
      size += bytes(row);
      shown++;
    }
    const left = total - shown;
    if (left > 0)
      out += `\n${left} more ${left === 1 ? 'row' : 'rows'} left out: a summary is cut at ${Math.floor(maxBytes / 1024)} KiB (GitHub shows no step summary over 1 MiB); the command's output has every row.\n`;
    return `${out}\n`;
  }
}

/** One side of the table (failures, or the rest): its states counted, its rendered rows held up to a byte bound. */
class Kept {
  seen = 0;
  readonly counts = new Map<string, number>();
  readonly lines: string[] = [];
  private bytes = 0;
  /** Once one row did not fit, none after it is shown either (rows keep their order). */
  full = false;

  add(state: string, render: () => string, keepBytes: number): void {
    this.seen++;
    this.counts.set(state, (this.counts.get(state) ?? 0) + 1);
    if (this.full) return;
    const line = render();
    const b = bytes(line);
    if (this.bytes + b > keepBytes) this.full = true;
    else {
      this.lines.push(line);
      this.bytes += b;
    }
  }
}

/** Bytes already in the file (another command of the step, or ours earlier), 0 when there is none yet. */
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Append the summary when in GitHub Actions, within what the file has left; a refusal of the file is a warning on stderr. */
export function appendStepSummary(ctx: CommandContext, s: StepSummary | { command: string; collected: SummaryRows }): void {
  const file = stepSummaryFile(ctx.env);
  if (!file) return;
  const before = sizeOf(file);
  const budget = Math.min(SUMMARY_MAX_BYTES, FILE_MAX_BYTES - before);
  // Less than a heading and a few rows: the step has filled its summary already.
  if (budget < 4096) {
    ctx.warn(`not appended to GITHUB_STEP_SUMMARY (${file}): it holds ${before} bytes already, near GitHub's 1 MiB a step`);
    return;
  }
  try {
    appendDurably(file, 'collected' in s ? s.collected.render(s.command, budget) : renderStepSummary(s, budget), 'the GitHub step summary');
  } catch (err) {
    ctx.warn(`could not append to GITHUB_STEP_SUMMARY (${file}): ${err instanceof Error ? err.message : String(err)}`);
  }
}
