// `-f key=value`, `-F key=value` and `--input FILE|-`: how a user sends what
// the CLI has no flag for. `-f` sends a string (provider ids look like numbers
// but are strings; an operation command converts it where the operation's
// schema wants a number or boolean); `-F` sends JSON (numbers, booleans, null,
// arrays, objects, "quoted strings") or, as `-F key=@file`, a file's text.
// `-F` text that is not JSON is a usage error, never silently a string.
// `a.b=1` nests.
import type { Readable } from 'node:stream';
import { UsageError } from '../../cli/errors.js';
import type { FieldInput } from '../../contract/operation-inputs.js';
import { readStdin } from './stdin.js';
import { readProblem, readTextFile } from '../../cli/read-file.js';

export function splitField(raw: string): [string, string] {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw new UsageError(`field "${raw}" is not key=value`);
  return [raw.slice(0, eq), raw.slice(eq + 1)];
}

/** The value of `-F key=value`: JSON, or `@path` for the text of a file. */
export function typedValue(text: string, key = 'value'): unknown {
  if (text.startsWith('@')) {
    const file = text.slice(1);
    return readTextFile(file, `${file} (-F ${key})`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(
      `-F ${key}=${text.length > 40 ? text.slice(0, 40) + '…' : text} is not valid JSON`,
      `-F sends JSON (50, true, null, "text", [..], {..}) or @file; use -f ${key}=… to send a string`,
    );
  }
}

/**
 * A string typed by a person (a flag's value, `-f key=value`) as the JSON the
 * field wants: '50' -> 50 for a number, 'true' -> true, 'null' -> null where
 * null is allowed. Text that does not convert stays text, and the contract's
 * check then names the problem.
 */
export function fromText(f: FieldInput | undefined, text: string): unknown {
  if (!f) return text;
  if (f.nullable && text === 'null') return null;
  if ((f.type === 'integer' || f.type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text.trim())) return Number(text);
  if (f.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (f.type === 'array')
    return text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => (f.items === 'integer' || f.items === 'number' ? Number(s) : s));
  return text;
}

/** Set `a.b.c` in `target`, creating objects on the way. */
export function setPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
}

export function fieldsToBody(typed: readonly string[] = [], raw: readonly string[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of typed) {
    const [k, v] = splitField(f);
    setPath(body, k, typedValue(v, k));
  }
  for (const f of raw) {
    const [k, v] = splitField(f);
    setPath(body, k, v);
  }
  return body;
}

export function fieldsToQuery(fields: readonly string[] = []): Record<string, string> {
  const query: Record<string, string> = {};
  for (const f of fields) {
    const [k, v] = splitField(f);
    query[k] = v;
  }
  return query;
}

/** The body of a command that sends an object: --input (must hold one), then -F and -f fields over its keys. */
export async function objectBody(opts: { input?: string; jsonField?: string[]; field?: string[] }, stdin: Readable): Promise<Record<string, unknown>> {
  const fromInput = opts.input !== undefined ? await readObjectInput(opts.input, stdin) : {};
  return { ...fromInput, ...fieldsToBody(opts.jsonField ?? [], opts.field ?? []) };
}

/** The --input body that must be one JSON object. */
export async function readObjectInput(source: string, stdin: Readable): Promise<Record<string, unknown>> {
  const value = await readInput(source, stdin);
  if (!isObject(value)) throw new UsageError('--input must hold a JSON object');
  return value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The --input body: a JSON file or stdin ('-'). */
export async function readInput(source: string, stdin: Readable): Promise<unknown> {
  let text: string;
  try {
    text = source === '-' ? await readStdin(stdin) : readTextFile(source, `--input ${source}`);
  } catch (err) {
    throw err instanceof UsageError ? err : readProblem('--input - (stdin)', err);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${source} is not valid JSON`);
  }
}
