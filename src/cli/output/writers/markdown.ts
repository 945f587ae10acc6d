// --output markdown: a GitHub-flavoured table, what a CI job appends to
// $GITHUB_STEP_SUMMARY or pastes into a pull request (the step summary,
// ../step-summary.ts, is written with the same cells). A list is one table
// (header once) streamed row by row, the table's columns fixed by the first
// page (the columns a table shows, or --fields); numbers right-aligned; raw
// values, as CSV has them (times as sent, not local: a reader may be anywhere).
// One object is a field/value table, nested fields as dotted paths.
//
// Every text passes the text boundary (stripControl: secrets masked, control
// characters and escape sequences removed), then is made inert (#34). A word
// (letters and digits joined by single `.` or `_`: an id, a state, a column)
// is written as it is: nothing on GitHub renders one, except a run that could
// be a commit SHA or one starting `www.`, which are not words here. Anything
// else is a code span, inside which GitHub renders nothing: its @mention,
// autolink (bare URLs, www., e-mail addresses, #123, commit SHAs) and math
// ($…$, $$…$$) filters skip code, and no HTML, link, emphasis or entity is
// parsed in it. Backslash escapes would not do: GitHub's filters read the
// rendered text, so `\@user` still mentions and `https\://x` still links. A
// zero-width character inside each trigger would, but every trigger would have
// to be known and a copied id or URL would carry it; a code span shows the
// text exactly. A table row stays one line: a line break becomes `<br>`
// between spans, and a `|` is written between them as `\|` (inside a code
// span, a `\` before it would end the cell).
import { flatten, getPath } from '../fields.js';
import { asText, jsonText, stripControl } from '../sanitize.js';
import { columnsFor, isRow, shownColumns, write, type FormatWriter, type Row } from './writer.js';

const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/g;

/** Letters and digits joined by single `.` or `_` (GFM reads no emphasis inside a word). */
const WORD = /^[A-Za-z0-9]+(?:[._][A-Za-z0-9]+)*$/;
/** Words GitHub would still link: a commit SHA's shape, a www. address. */
const LINKED_WORD = /^[0-9a-f]{7,40}$|www\./i;

/** `text` (no line break in it) shown exactly and inert: a word as it is, anything else a code span whose fence is longer than any run of backticks inside. */
function inert(text: string): string {
  if (text === '' || (WORD.test(text) && !LINKED_WORD.test(text))) return text;
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  // A space each side when the text starts or ends with a backtick, or with a space at both ends: the renderer strips one.
  const pad = /^`|`$/.test(text) || (/^ [\s\S]* $/.test(text) && text.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

export interface InlineOptions {
  /** In a table cell: a `|` may not end the cell. */
  table: boolean;
  /** Cut a longer text here (after masking, so no secret is cut in two), saying so. */
  max?: number;
}

/** A value as inert markdown on one line: masked, stripped, words (and most numbers) as they are, the rest in code spans; null empty. */
export function inline(value: unknown, { table, max }: InlineOptions): string {
  if (value === null || value === undefined) return '';
  // A number is adops' own rendering, but a long run of digits has a commit SHA's shape: inert like any text.
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return inert(String(value));
  let text = stripControl((typeof value === 'object' ? jsonText(value) : asText(value)).replace(LINE_BREAK, '\n')).replace(/\t/g, ' ');
  let more = 0;
  if (max !== undefined && text.length > max) {
    // Never half a surrogate pair.
    const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
    more = text.length - end;
    text = `${text.slice(0, end)}…`;
  }
  const line = (l: string) => (table ? l.split('|').map(inert).join('\\|') : inert(l));
  return text.split('\n').map(line).join('<br>') + (more ? ` (cut: ${more} more characters)` : '');
}

const cell = (value: unknown) => inline(value, { table: true });
const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |\n`;
const isNumber = (v: unknown) => typeof v === 'number';

/** Header and separator; a column whose values (in these rows) are all numbers is right-aligned. */
export function tableHead(columns: readonly string[], rows: readonly Row[]): string {
  const aligned = new ColumnAlignment(columns);
  for (const r of rows) aligned.add(r);
  return aligned.head();
}

/**
 * Which columns a table right-aligns, told a row at a time (the step summary counts rows it does not keep): a column
 * with a value in some row and a number in every row that has one.
 */
export class ColumnAlignment {
  /** Per column: some row had a value there, and every value so far was a number. */
  private readonly valued: boolean[];
  private readonly numeric: boolean[];

  constructor(private readonly columns: readonly string[]) {
    this.valued = columns.map(() => false);
    this.numeric = columns.map(() => true);
  }

  add(row: Row): void {
    for (let i = 0; i < this.columns.length; i++) {
      const v = getPath(row, this.columns[i]!);
      if (v === null || v === undefined) continue;
      this.valued[i] = true;
      if (!isNumber(v)) this.numeric[i] = false;
    }
  }

  /** Header and separator of the rows told so far. */
  head(): string {
    return line(this.columns.map(cell)) + line(this.columns.map((_, i) => (this.valued[i] && this.numeric[i] ? '---:' : '---')));
  }
}

/** One row of a table: one line whatever its values hold; `max` cuts each cell. */
export const tableRow = (columns: readonly string[], row: Row, max?: number): string =>
  line(columns.map((c) => inline(getPath(row, c), { table: true, ...(max !== undefined ? { max } : {}) })));

const body = (columns: readonly string[], rows: readonly Row[]) => rows.map((r) => tableRow(columns, r)).join('');

const fieldTable = (value: Row) =>
  line(['field', 'value']) +
  line(['---', '---']) +
  flatten(value)
    .map(([k, v]) => line([cell(k), cell(v)]))
    .join('');

/** A value that is not a table: text on its line, anything else as a JSON block (a JSON line never starts with a backtick: the fence holds). */
const block = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? `${inline(value, { table: false })}\n`
    : '```json\n' + jsonText(value ?? null, 2) + '\n```\n';

export const writer: FormatWriter = {
  list({ out, resource, fields, signal }) {
    let columns: string[] | undefined;
    return {
      start: () => Promise.resolve(),
      async page(rows: readonly Row[]) {
        const first = columns === undefined;
        columns ??= shownColumns(rows, resource, fields);
        await write(out, (first ? tableHead(columns, rows) : '') + body(columns, rows), signal);
      },
      end: (rows) => (rows === 0 ? write(out, '(no rows)\n', signal) : Promise.resolve()),
    };
  },
  object: (value, { out, signal }) => write(out, isRow(value) ? fieldTable(value) : block(value), signal),
  result(value, { out, signal }) {
    const list = Array.isArray(value) ? value : undefined;
    if (list?.length === 0) return write(out, '(no rows)\n', signal);
    if (list?.every(isRow)) {
      const cols = columnsFor(list, 'generic');
      return write(out, tableHead(cols, list) + body(cols, list), signal);
    }
    if (isRow(value)) return write(out, fieldTable(value), signal);
    if (list?.every((v) => !isRow(v) && !Array.isArray(v))) return write(out, list.map((v) => `- ${inline(v, { table: false })}\n`).join(''), signal);
    return write(out, block(value), signal);
  },
};
