// Tables for people, with cli-table3 (imported only when a table is drawn).
// Every cell passes through cellText: server text never drives the terminal.
import { cellText } from './sanitize.js';

type Row = Record<string, unknown>;

async function tableClass() {
  const mod = await import('cli-table3');
  return mod.default;
}

// No rule between rows: denser tables, easier to scan.
const CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

function style(color: boolean) {
  // cli-table3 colours the head red by default; plain when colour is off.
  return color ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] };
}

export async function renderTable(columns: readonly string[], rows: readonly Row[], color: boolean): Promise<string> {
  const Table = await tableClass();
  const table = new Table({ head: columns.map(cellText), style: style(color), chars: CHARS });
  for (const row of rows) table.push(columns.map((c) => truncate(cellText(row[c]))));
  return table.toString();
}

export async function renderVertical(row: Row, color: boolean): Promise<string> {
  const Table = await tableClass();
  const table = new Table({ style: style(color) });
  for (const [key, value] of Object.entries(row)) table.push({ [cellText(key)]: truncate(cellText(value), 200) });
  return table.toString();
}

function truncate(text: string, max = 60): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
