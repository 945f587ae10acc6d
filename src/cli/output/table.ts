// Tables for people, with cli-table3 (imported only when a table is drawn):
// a list as one table with a rule under the header, a single object as a
// key/value view that fits the terminal. Cells come from displayCell, so
// server text never drives the terminal and values read as dates, money...
import { getPath } from './fields.js';
import { cellText } from './sanitize.js';
import { displayCell, type ValueStyle } from './values.js';

type Row = Record<string, unknown>;

export interface TableStyle extends ValueStyle {
  color: boolean;
  /** Terminal columns; default 100. */
  width?: number | undefined;
  /** Columns the user named (--fields): squeezed to fit, never left out. */
  keepColumns?: boolean | undefined;
}

async function tableClass() {
  const mod = await import('cli-table3');
  return mod.default;
}

// No rule between rows: denser tables, easier to scan. The header gets its own rule (below).
const CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
const MAX_CELL = 48;
const MIN_COLUMN = 8;

function style(color: boolean) {
  // cli-table3 colours the head red by default; plain when colour is off.
  return color ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] };
}

const asStyle = (s: TableStyle | boolean): TableStyle => (typeof s === 'boolean' ? { color: s } : s);

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : text;
}

/** Column widths (with padding) shrunk, widest first, until the table fits `width`. */
function fitWidths(natural: number[], width: number): number[] {
  const w = natural.map((n) => n + 2);
  let total = w.reduce((a, b) => a + b, 0) + w.length + 1;
  while (total > width) {
    let widest = 0;
    for (let i = 1; i < w.length; i++) if (w[i]! > w[widest]!) widest = i;
    if (w[widest]! <= MIN_COLUMN) break;
    w[widest]!--;
    total--;
  }
  return w;
}

// A column is not squeezed below this (or its own width) to make room: columns
// at the end of a resource's defaults (least wanted first) are left out instead.
const READABLE_COLUMN = 16;

/** How many leading columns fit `width` when each may shrink to READABLE_COLUMN. */
function columnsThatFit(natural: number[], width: number): number {
  let total = 1;
  for (let i = 0; i < natural.length; i++) {
    total += Math.min(natural[i]!, READABLE_COLUMN) + 3;
    if (total > width) return Math.max(i, 1);
  }
  return natural.length;
}

export async function renderTable(allColumns: readonly string[], rows: readonly Row[], s: TableStyle | boolean): Promise<string> {
  const opts = asStyle(s);
  const width = opts.width ?? 100;
  const allBody = rows.map((row) => allColumns.map((c) => {
    const cell = displayCell(getPath(row, c), c, row, opts);
    return { content: truncate(cell.text, MAX_CELL), hAlign: cell.right ? ('right' as const) : ('left' as const) };
  }));
  const allHead = allColumns.map(cellText);
  const allNatural = allHead.map((h, i) => Math.max(h.length, ...allBody.map((r) => r[i]!.content.length)));
  const n = opts.keepColumns ? allColumns.length : columnsThatFit(allNatural, width);
  const Table = await tableClass();
  const table = new Table({ head: allHead.slice(0, n), style: style(opts.color), chars: CHARS, colWidths: fitWidths(allNatural.slice(0, n), width), truncate: '…' });
  for (const r of allBody) table.push(r.slice(0, n));
  return withHeaderRule(table.toString());
}

/** A rule under the header, drawn from the top border (┌─┬─┐ → ├─┼─┤), so it shows without colour too. */
function withHeaderRule(text: string): string {
  const lines = text.split('\n');
  if (lines.length < 4) return text; // header only: the bottom border is its rule
  const rule = lines[0]!.replace('┌', '├').replace(/┬/g, '┼').replace('┐', '┤');
  return [lines[0], lines[1], rule, ...lines.slice(2)].join('\n');
}

const MAX_ITEMS = 5;
const MAX_LINES = 6;

/** Nested objects as dotted keys; arrays of objects by index (the first few). */
export function flatten(value: unknown, prefix = '', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  const isObj = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object') && prefix) {
    value.slice(0, MAX_ITEMS).forEach((v, i) => flatten(v, `${prefix}.${i}`, out));
    if (value.length > MAX_ITEMS) out.push([`${prefix}.…`, `${value.length - MAX_ITEMS} more (see --output json)`]);
  } else out.push([prefix, value]);
  return out;
}

/** One object as `│ key │ value │`, values wrapped to the terminal width and cut after a few lines. */
export async function renderVertical(row: Row, s: TableStyle | boolean): Promise<string> {
  const opts = asStyle(s);
  const Table = await tableClass();
  const pairs = flatten(row).map(([k, v]) => [cellText(k), displayCell(v, k, row, opts).text] as const);
  const width = Math.max(opts.width ?? 100, 30);
  const keyWidth = Math.min(Math.max(...pairs.map(([k]) => k.length), 1), Math.floor(width * 0.45)) + 2;
  // As wide as the longest value needs, at most what the terminal has left.
  const longest = Math.max(...pairs.map(([, v]) => v.length), 1) + 2;
  const valueWidth = Math.min(longest, Math.max(width - keyWidth - 3, 12));
  const table = new Table({ style: style(opts.color), chars: CHARS, colWidths: [keyWidth, valueWidth], wordWrap: true, wrapOnWordBoundary: true, truncate: '…' });
  for (const [k, v] of pairs) table.push({ [truncate(k, keyWidth - 2)]: truncate(v, (valueWidth - 2) * MAX_LINES) });
  return table.toString();
}
