// The rows of `mutations apply FILE`: CSV with named columns, or NDJSON with
// one full createMutation body per line. Each row keeps the line it starts on,
// so every refusal names it. Nothing here sends anything.
import { ACTIONS, bodyOf, bodyProblems } from './_body.js';

type Obj = Record<string, unknown>;

/** CSV columns (docs/cli.md). `body` holds a whole body as JSON instead of the others. */
export const COLUMNS = ['advertiserId', 'action', 'targetType', 'targetId', 'name', 'amount', 'budgetType', 'bidStrategy', 'bidAmount', 'body'] as const;

/** Which actions read each optional column. */
const USED_BY: Readonly<Record<string, readonly string[]>> = {
  name: ['rename'],
  amount: ['set_budget', 'set_bid'],
  budgetType: ['set_budget'],
  bidStrategy: ['set_bid'],
  bidAmount: ['set_bid'],
};

export type ParsedRow = { line: number; body: Obj; problems: string[] };

/** RFC 4180 records with the line each starts on (quoted fields may span lines). */
export function csvRecords(text: string): Array<{ line: number; cells: string[] }> {
  const out: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let any = false;
  const endRecord = () => {
    cells.push(cell);
    if (any || cells.length > 1 || cell !== '') out.push({ line: start, cells });
    cells = [];
    cell = '';
    any = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"') (quoted = true), (any = true);
    else if (c === ',') cells.push(cell), (cell = ''), (any = true);
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else cell += c;
  }
  if (cell !== '' || cells.length) endRecord();
  return out;
}

function numberCell(name: string, text: string, problems: string[]): number | undefined {
  if (text === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) problems.push(`${name} "${text.slice(0, 20)}" is not a number`);
  return n;
}

function rowFromCells(line: number, header: readonly string[], cells: string[]): ParsedRow {
  const problems: string[] = [];
  const v: Record<string, string> = {};
  header.forEach((h, i) => (v[h] = (cells[i] ?? '').trim()));
  if (cells.length > header.length) problems.push(`${cells.length} cells, the header has ${header.length}`);
  if (v.body) {
    const others = header.filter((h) => h !== 'body' && v[h] !== '');
    if (others.length) problems.push(`give either body or the columns, not both (${others.join(', ')})`);
    return withChecks(line, parseBody(v.body, problems), problems);
  }
  const action = v.action ?? '';
  // A value the action would drop is a mistake in the sheet, not something to ignore.
  const unused = Object.entries(USED_BY).filter(([col, actions]) => v[col] && !actions.includes(action)).map(([col]) => col);
  if (unused.length && ACTIONS.includes(action)) problems.push(`${unused.join(', ')}: not used by action ${action}`);
  const body = bodyOf({
    advertiserId: v.advertiserId ?? '',
    action,
    targetType: v.targetType || undefined,
    targetId: v.targetId || undefined,
    name: v.name || undefined,
    amount: numberCell('amount', v.amount ?? '', problems),
    budgetType: v.budgetType || undefined,
    bidStrategy: v.bidStrategy || undefined,
    bidAmount: numberCell('bidAmount', v.bidAmount ?? '', problems),
  });
  if (!body.advertiserId) delete body.advertiserId;
  return withChecks(line, body, problems);
}

function parseBody(text: string, problems: string[]): Obj {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Obj;
    problems.push('body must be a JSON object');
  } catch {
    problems.push('body is not valid JSON');
  }
  return {};
}

function withChecks(line: number, body: Obj, problems: string[]): ParsedRow {
  return { line, body, problems: problems.length ? problems : bodyProblems(body) };
}

export function parseRows(text: string, file: string): { rows: ParsedRow[]; fileProblem?: string } {
  const ndjson = /\.(nd)?jsonl?$/i.test(file) || /^\s*\{/.test(text);
  if (ndjson) {
    const rows: ParsedRow[] = [];
    text.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return;
      const problems: string[] = [];
      rows.push(withChecks(i + 1, parseBody(raw, problems), problems));
    });
    return { rows };
  }
  const records = csvRecords(text.replace(/^\uFEFF/, ''));
  if (records.length === 0) return { rows: [], fileProblem: 'the file is empty' };
  const header = records[0]!.cells.map((h) => h.trim());
  const unknown = header.filter((h) => !(COLUMNS as readonly string[]).includes(h));
  if (unknown.length) return { rows: [], fileProblem: `line 1: unknown column(s) ${unknown.join(', ')}; columns are ${COLUMNS.join(', ')}` };
  if (!header.includes('body') && !header.includes('action')) return { rows: [], fileProblem: `line 1: no action column (actions: ${ACTIONS.join(', ')})` };
  return { rows: records.slice(1).map((r) => rowFromCells(r.line, header, r.cells)) };
}
