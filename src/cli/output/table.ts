// Tables for people, with cli-table3 (imported only when a table is drawn):
// a list as one table with a rule under the header, a single object as a
// key/value view that fits the terminal. Cells come from displayCell, so
// server text never drives the terminal and values read as dates, money...
import { flatten, getPath } from './fields.js';
import { cellText } from './sanitize.js';
import { displayCell, type ValueStyle } from './values.js';

type Row = Record<string, unknown>;

export interface TableStyle extends ValueStyle {
  color: boolean;
  /**
   * Terminal columns; undefined (a pipe, or a pty reporting 0 columns): the
   * width is unknown, so nothing is cut or left out.
   */
  width?: number | undefined;
  /** Columns the user named (--fields): squeezed to fit, never left out. */
  keepColumns?: boolean | undefined;
  /** Columns in order of importance: with a known width, the first that fit are shown. */
  importance?: readonly string[] | undefined;
}

/** What a table left out to fit a known width: the caller says so on stderr. */
export interface Drawn {
  text: string;
  /** Columns left out, in the table's order. */
  hidden: string[];
  /** Some cells (never ids) were shortened to fit, marked with …. */
  shortened: boolean;
}

async function tableClass() {
  const mod = await import('cli-table3');
  return mod.default;
}

// No rule between rows: denser tables, easier to scan. The header gets its own rule (below).
const CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
const MAX_CELL = 48;
const MIN_COLUMN = 8;
// cli-table3 would colour through @colors/colors, which decides on its own from
// process.stdout and FORCE_COLOR; we colour ourselves so the decision stays ours
// (format.ts chooseColor: NO_COLOR, CLICOLOR_FORCE, --no-color).
const NO_STYLE = { head: [], border: [] };
const cyan = (s: string) => `\x1b[36m${s}\x1b[39m`;
const greyBorders = (text: string) => text.replace(/[─│┌┐└┘├┤┬┴┼]+/g, (b) => `\x1b[90m${b}\x1b[39m`);

const asStyle = (s: TableStyle | boolean): TableStyle => (typeof s === 'boolean' ? { color: s } : s);
const knownWidth = (w: number | undefined): w is number => w !== undefined && w > 0;

/** Ids (and slugs, keys) are what a person copies into the next command: never cut. */
export const isIdColumn = (column: string): boolean => /(^|\.)(id|slug|key)$|(Id|Slug)$/.test(column);

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : text;
}

/** Column widths (with padding) shrunk, widest first, until the table fits `width`; an id column keeps its own. */
function fitWidths(natural: number[], floors: number[], width: number): number[] {
  const w = natural.map((n) => n + 2);
  let total = w.reduce((a, b) => a + b, 0) + w.length + 1;
  while (total > width) {
    let widest = -1;
    for (let i = 0; i < w.length; i++) if (w[i]! > floors[i]! + 2 && (widest < 0 || w[i]! > w[widest]!)) widest = i;
    if (widest < 0 || w[widest]! <= MIN_COLUMN) break;
    w[widest]!--;
    total--;
  }
  return w;
}

// A column is not squeezed below this (or its own width) to make room: the
// least important columns are left out instead.
const READABLE_COLUMN = 16;

/** Which columns fit `width` when each may shrink to READABLE_COLUMN (ids not at all), taken by importance. */
function columnsThatFit(columns: readonly string[], natural: number[], width: number, importance: readonly string[] = []): boolean[] {
  const order = [...columns.keys()].sort((a, b) => rank(importance, columns[a]!, a) - rank(importance, columns[b]!, b));
  const shown = columns.map(() => false);
  let total = 1;
  for (const i of order) {
    const need = (isIdColumn(columns[i]!) ? natural[i]! : Math.min(natural[i]!, READABLE_COLUMN)) + 3;
    // The most important column is always shown, even when nothing fits.
    if (total + need <= width || total === 1) {
      shown[i] = true;
      total += need;
    }
  }
  return shown;
}

/** A column's place by importance: the named ones first, in their order, then the rest in table order. */
function rank(importance: readonly string[], column: string, index: number): number {
  const at = importance.indexOf(column);
  return at >= 0 ? at : importance.length + index;
}

export async function renderTable(allColumns: readonly string[], rows: readonly Row[], s: TableStyle | boolean): Promise<Drawn> {
  const opts = asStyle(s);
  const fit = knownWidth(opts.width);
  const allBody = rows.map((row) =>
    allColumns.map((c) => {
      const cell = displayCell(getPath(row, c), c, row, opts);
      return { content: cell.text, hAlign: cell.right ? ('right' as const) : ('left' as const) };
    }),
  );
  const allHead = allColumns.map(cellText);
  // The widest cell a column may want: long text is cut at MAX_CELL only when the width is known.
  const want = (c: number, text: string) => (fit && !isIdColumn(allColumns[c]!) ? Math.min([...text].length, MAX_CELL) : [...text].length);
  const allNatural = allHead.map((h, i) => Math.max([...h].length, ...allBody.map((r) => want(i, r[i]!.content))));
  const shown = !fit || opts.keepColumns ? allColumns.map(() => true) : columnsThatFit(allColumns, allNatural, opts.width!, opts.importance);
  const keep = <T>(list: readonly T[]) => list.filter((_, i) => shown[i]);
  const columns = keep(allColumns);
  const natural = keep(allNatural);
  const widths = fit
    ? fitWidths(
        natural,
        columns.map((c, i) => (isIdColumn(c) ? natural[i]! : 0)),
        opts.width!,
      )
    : undefined;
  let shortened = false;
  const body = allBody.map((r) =>
    keep(r).map((cell, i) => {
      if (!widths || isIdColumn(columns[i]!)) return cell;
      const room = Math.min(widths[i]! - 2, MAX_CELL);
      if ([...cell.content].length <= room) return cell;
      shortened = true;
      return { ...cell, content: truncate(cell.content, room) };
    }),
  );
  const head = keep(allHead).map((h, i) => (widths ? truncate(h, widths[i]! - 2) : h));
  const Table = await tableClass();
  const table = new Table({ head: opts.color ? head.map(cyan) : head, style: NO_STYLE, chars: CHARS, ...(widths ? { colWidths: widths } : {}), truncate: '…' });
  for (const r of body) table.push(r);
  const text = withHeaderRule(table.toString());
  return { text: opts.color ? greyBorders(text) : text, hidden: allColumns.filter((_, i) => !shown[i]), shortened };
}

/** A rule under the header, drawn from the top border (┌─┬─┐ → ├─┼─┤), so it shows without colour too. */
function withHeaderRule(text: string): string {
  const lines = text.split('\n');
  if (lines.length < 4) return text; // header only: the bottom border is its rule
  const rule = lines[0]!.replace('┌', '├').replace(/┬/g, '┼').replace('┐', '┤');
  return [lines[0], lines[1], rule, ...lines.slice(2)].join('\n');
}

const MAX_LINES = 6;

/**
 * One object as `│ key │ value │`. With a known width, values wrap to it and
 * are cut after a few lines (said in `shortened`); with an unknown width
 * nothing wraps or is cut.
 */
export async function renderVertical(row: Row, s: TableStyle | boolean): Promise<Drawn> {
  const opts = asStyle(s);
  const Table = await tableClass();
  const pairs = flatten(row).map(([k, v]) => [cellText(k), displayCell(v, k, row, opts).text] as const);
  const finish = (text: string, shortened: boolean): Drawn => ({ text: opts.color ? greyBorders(text) : text, hidden: [], shortened });
  if (!knownWidth(opts.width)) {
    const table = new Table({ style: NO_STYLE, chars: CHARS });
    for (const [k, v] of pairs) table.push({ [k]: v });
    return finish(table.toString(), false);
  }
  const width = Math.max(opts.width, 30);
  const keyWidth = Math.min(Math.max(...pairs.map(([k]) => k.length), 1), Math.floor(width * 0.45)) + 2;
  // As wide as the longest value needs, at most what the terminal has left.
  const longest = Math.max(...pairs.map(([, v]) => v.length), 1) + 2;
  const valueWidth = Math.min(longest, Math.max(width - keyWidth - 3, 12));
  const table = new Table({ style: NO_STYLE, chars: CHARS, colWidths: [keyWidth, valueWidth], wordWrap: true, wrapOnWordBoundary: true, truncate: '…' });
  let shortened = false;
  for (const [k, v] of pairs) {
    const key = truncate(k, keyWidth - 2);
    const value = truncate(v, (valueWidth - 2) * MAX_LINES);
    if (key !== k || value !== v) shortened = true;
    table.push({ [key]: value });
  }
  return finish(table.toString(), shortened);
}
