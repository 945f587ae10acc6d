// The rows of `mutations apply FILE`: CSV with named columns, or NDJSON with
// one full createMutation body per line. Each row keeps the line it starts on,
// so every refusal names it. Nothing here sends anything.
// The file is streamed (CSV through _csv.ts), never held whole: a cell or a row
// past its bound, an unclosed quote or a stray one refuses the whole file
// (a broken quote would otherwise swallow the rows after it into one cell).
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { readProblem } from '../../cli/read-file.js';
import { UsageError } from '../../cli/errors.js';
import { ACTION_NAMES, actionEntry, bodyOf, CHANGE_FIELDS, isNumberField, NAMED_CHANGE_KEYS, type NamedChange } from '../../contract/mutation-actions.js';
import { changeChecker } from './_change.js';
import { CsvRecords, CsvStructureError, type CsvRecord } from './_csv.js';

type Obj = Record<string, unknown>;

/** CSV columns (docs/cli.md). `body` holds a whole body as JSON instead of the others. */
export const COLUMNS: readonly string[] = [...NAMED_CHANGE_KEYS, 'body'];

export type ParsedRow = { line: number; body: Obj; problems: string[] };

/** Bounds on what one row may hold: a mutation body is a few hundred bytes. */
export const MAX_CELL_CHARS = 64 * 1024;
export const MAX_ROW_CHARS = 256 * 1024;

function numberCell(name: string, text: string, problems: string[]): number | undefined {
  if (text === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) problems.push(`${name} "${text.slice(0, 20)}" is not a number`);
  return n;
}

/** The header's names for which `test` holds, in header order (an array only when one does: #37, a row of a large file is checked twice). */
function namesWhere(header: readonly string[], v: Readonly<Record<string, string>>, test: (name: string, value: string) => boolean): string[] | undefined {
  let names: string[] | undefined;
  for (const h of header) if (test(h, v[h]!)) (names ??= []).push(h);
  return names;
}

const isLong = (_: string, value: string) => value.length > MAX_CELL_CHARS;
const LINE_BREAK = /[\r\n]/;
const isBroken = (name: string, value: string) => name !== 'body' && LINE_BREAK.test(value);
const isBesideBody = (name: string, value: string) => name !== 'body' && value !== '';

/** The problems of a change: changeChecker's, synchronous (one row at a time, twice per large file). */
type Check = (body: Obj) => string[];

function rowFromCells(line: number, header: readonly string[], cells: string[], check: Check): ParsedRow {
  const problems: string[] = [];
  const v: Record<string, string> = {};
  for (let i = 0; i < header.length; i++) v[header[i]!] = (cells[i] ?? '').trim();
  if (cells.length > header.length) problems.push(`${cells.length} cells, the header has ${header.length}`);
  const long = namesWhere(header, v, isLong);
  if (long) return { line, body: {}, problems: [`${long.join(', ')}: longer than ${MAX_CELL_CHARS} characters`] };
  // Only a JSON body may span lines; a name holding a line break is a quote closed too late.
  const broken = namesWhere(header, v, isBroken);
  if (broken) problems.push(`${broken.join(', ')} holds a line break (a quote closed too late?)`);
  if (v.body) {
    const others = namesWhere(header, v, isBesideBody);
    if (others) problems.push(`give either body or the columns, not both (${others.join(', ')})`);
    return withChecks(line, parseBody(v.body, problems), problems, check);
  }
  const action = v.action ?? '';
  // A value the action would drop is a mistake in the sheet, not something to ignore.
  const used = actionEntry(action)?.fields;
  let unused: string[] | undefined;
  if (used) for (const f of CHANGE_FIELDS) if (v[f] && !used.includes(f)) (unused ??= []).push(f);
  if (unused) problems.push(`${unused.join(', ')}: not used by action ${action}`);
  const change: NamedChange = { advertiserId: v.advertiserId ?? '', action, targetType: v.targetType || undefined, targetId: v.targetId || undefined };
  for (const f of CHANGE_FIELDS) {
    if (isNumberField(f)) change[f] = numberCell(f, v[f] ?? '', problems);
    else change[f] = v[f] || undefined;
  }
  const body = bodyOf(change);
  if (!body.advertiserId) delete body.advertiserId;
  return withChecks(line, body, problems, check);
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

function withChecks(line: number, body: Obj, problems: string[], check: Check): ParsedRow {
  return { line, body, problems: problems.length ? problems : check(body) };
}

const ndjsonName = /\.(nd)?jsonl?$/i;

/** NDJSON when the name says so or the file starts with `{` (a peek, not a read of the whole file). */
function looksLikeNdjson(file: string): boolean {
  if (ndjsonName.test(file)) return true;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    return /^\s*\{/.test(head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

const refuse = (file: string, what: string) => new UsageError(`${file}: ${what}`, 'nothing was sent');
const tooLong = (file: string, line: number) => refuse(file, `line ${line}: a row longer than ${MAX_ROW_CHARS} characters`);

/** Lines of a file, streamed; a line past MAX_ROW_CHARS is refused before it is all read. */
async function* lines(file: string): AsyncGenerator<{ line: number; text: string }> {
  let held = '';
  let n = 0;
  for await (const chunk of createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>) {
    let from = 0;
    for (let i = chunk.indexOf('\n'); i !== -1; from = i + 1, i = chunk.indexOf('\n', from)) {
      const text = held + chunk.slice(from, i);
      held = '';
      if (text.length > MAX_ROW_CHARS) throw tooLong(file, n + 1);
      yield { line: ++n, text };
    }
    held += chunk.slice(from);
    if (held.length > MAX_ROW_CHARS) throw tooLong(file, n + 1);
  }
  if (held !== '') yield { line: n + 1, text: held };
}

/**
 * Bytes read into the CSV parser at a time. It parses all it is given at once and holds the records until
 * they are taken: a 64 KiB read was ~1,200 rows parsed ahead of a pool sending 8 at a time, each row's
 * cells alive for ~1,200 rows, long enough to outlive two scavenges: promoted to V8's old space, and
 * the old space grew with the file (#37 session 5: docs/performance.md). 1 KiB is ~20 rows of a
 * typical file: the parser runs as far ahead as the pool takes rows (one slice's records).
 */
export const PARSE_SLICE = 1024;

/** What is wrong with the file's structure, for a person. */
function csvProblem({ problem, line }: CsvStructureError): string {
  switch (problem) {
    case 'quote-not-closed':
      return `line ${line}: a quoted cell is never closed (every line after it would be read into that cell)`;
    case 'invalid-closing-quote':
      return `line ${line}: a quote ends a cell but more text follows it (inside a quoted cell write "" for a quote)`;
    case 'invalid-opening-quote':
      return `line ${line}: a quote inside a cell that does not start with one (quote the whole cell, and write "" for a quote inside it)`;
    case 'record-too-long':
      return `line ${line}: a row longer than ${MAX_ROW_CHARS} characters`;
  }
}

/** CSV records with the line each starts on (quoted cells may span lines), streamed a slice at a time. */
async function* csvRecordBatches(file: string): AsyncGenerator<CsvRecord[]> {
  const parser = new CsvRecords(MAX_ROW_CHARS);
  const input = createReadStream(file);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      for (let at = 0; at < chunk.length; at += PARSE_SLICE) {
        const records = parser.feed(chunk.subarray(at, at + PARSE_SLICE));
        if (records.length) yield records;
      }
    }
    const last = parser.feed(undefined);
    if (last.length) yield last;
  } catch (err) {
    if (err instanceof CsvStructureError) throw refuse(file, csvProblem(err));
    throw err;
  } finally {
    input.destroy();
  }
}

/**
 * Every row of FILE, a batch at a time (a CSV slice's rows, an NDJSON read's lines: nothing else of
 * the file is held). A file that cannot be read as a whole (unknown column, unclosed quote, a row too
 * long) is a UsageError naming the line; a row's own problems ride on the row.
 */
export async function* readRowBatches(file: string): AsyncGenerator<ParsedRow[]> {
  // The contract's validators, loaded at the first row (a file that is only a header never loads them).
  let check: Check | undefined;
  if (looksLikeNdjson(file)) {
    for await (const { line, text } of lines(file)) {
      const raw = line === 1 ? text.replace(/^\uFEFF/, '') : text;
      if (raw.trim() === '') continue;
      const problems: string[] = [];
      yield [withChecks(line, parseBody(raw, problems), problems, (check ??= await changeChecker()))];
    }
    return;
  }
  let header: string[] | undefined;
  for await (const records of csvRecordBatches(file)) {
    const rows: ParsedRow[] = [];
    for (const r of records) {
      if (header) {
        rows.push(rowFromCells(r.line, header, r.cells, (check ??= await changeChecker())));
        continue;
      }
      header = r.cells.map((h) => h.trim());
      const unknown = header.filter((h) => !COLUMNS.includes(h));
      if (unknown.length) throw refuse(file, `line ${r.line}: unknown column(s) ${unknown.join(', ')}; columns are ${COLUMNS.join(', ')}`);
      if (!header.includes('body') && !header.includes('action')) throw refuse(file, `line ${r.line}: no action column (actions: ${ACTION_NAMES.join(', ')})`);
    }
    if (rows.length) yield rows;
  }
}

/** Every row of FILE, one at a time (readRowBatches' rows, in order). */
export async function* readRows(file: string): AsyncGenerator<ParsedRow> {
  for await (const rows of readRowBatches(file)) yield* rows;
}

const SHOWN = 20;

/**
 * Read FILE's rows once, checking each; any bad row refuses the whole file
 * (exit 2 naming up to 20 lines, nothing sent). A file with no rows (a header
 * alone: a cron job's quiet day) is not an error: count 0, the caller sends nothing. `keep` holds the rows (a real
 * run sends them); without it only a count is held and `onRow` sees each row.
 */
export async function checkRows(file: string, opts: { keep: boolean; onRow?: (r: ParsedRow) => void }): Promise<{ count: number; rows: ParsedRow[] }> {
  const rows: ParsedRow[] = [];
  const bad: string[] = [];
  let count = 0;
  let badCount = 0;
  try {
    for await (const batch of readRowBatches(file)) {
      for (const r of batch) {
        count++;
        if (r.problems.length) {
          if (++badCount <= SHOWN) bad.push(`line ${r.line}: ${r.problems.join('; ')}`);
          continue;
        }
        if (opts.keep) rows.push(r);
        opts.onRow?.(r);
      }
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw readProblem(file, err);
  }
  if (badCount) {
    if (badCount > SHOWN) bad.push(`… and ${badCount - SHOWN} more`);
    throw new UsageError(`${badCount} of ${count} row(s) cannot be sent:\n  ${bad.join('\n  ')}`, 'nothing was sent; fix these lines and run again');
  }
  return { count, rows };
}
