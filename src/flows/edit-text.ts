// The text an editor shows for a row, and reading it back. A YAML-ish header
// of `field: value` lines, then each prose field (a Brand's four sections, a
// Skill's body) as its own markdown block under a `=== field ===` line, so a
// person edits markdown as markdown. Field types come from the update
// operation's inputs (operation-inputs.json), so `budget: 50` is a number and
// `name: 2026` stays text. No terminal code.
import type { FieldInput } from '../contract/operation-inputs.js';

export interface EditLayout {
  /** Fields shown, in order, with their types. */
  fields: readonly FieldInput[];
  /** Of those, the ones shown as markdown blocks. */
  blocks: readonly string[];
}

export class EditTextError extends Error {
  override readonly name = 'EditTextError';
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line ? `line ${line}: ${message}` : message);
  }
}

const BLOCK_LINE = /^=== ([A-Za-z][A-Za-z0-9]*) ===\s*$/;
const FIELD_LINE = /^([A-Za-z][A-Za-z0-9]*):(.*)$/;
const ITEM_LINE = /^\s*-(?:\s(.*))?$/;

/** Text that reads back as itself on a `field: value` line; anything else is written as a JSON string. */
function plainText(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- a leading control character is exactly what is looked for
  return s !== '' && s === s.trim() && !s.includes('\n') && !s.startsWith('"') && s !== 'null' && s !== '[]' && !/^[\u0000-\u001f]/.test(s);
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return plainText(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

export function renderEditText(row: Record<string, unknown>, layout: EditLayout, intro: readonly string[]): string {
  const out = intro.map((l) => `# ${l}`);
  out.push(
    '# "field: value" lines: the value is text as typed; null clears a field that may be empty;',
    '# a "quoted" value is read as JSON (keeps line breaks, spaces, or the word null).',
    '# A list is one "- item" line per entry under "field:" ([] when empty). Deleting a line leaves that field as it is.',
  );
  if (layout.blocks.length) out.push('# Each "=== field ===" line starts a markdown block that runs to the next one; an empty block clears it.');
  out.push('');
  for (const f of layout.fields) {
    if (layout.blocks.includes(f.name)) continue;
    const v = row[f.name];
    if (f.type === 'array' && Array.isArray(v)) {
      out.push(v.length ? `${f.name}:` : `${f.name}: []`, ...v.map((item) => `  - ${scalar(item)}`));
    } else {
      out.push(`${f.name}: ${scalar(v)}`);
    }
  }
  for (const name of layout.blocks) {
    const v = row[name];
    const text = typeof v === 'string' ? v.replace(/\s+$/, '') : '';
    out.push('', `=== ${name} ===`, ...(text ? [text] : []));
  }
  return out.join('\n') + '\n';
}

function valueOf(f: FieldInput, raw: string, line: number): unknown {
  const text = raw.trim();
  if (text.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(text);
      return value;
    } catch {
      throw new EditTextError(`${f.name}: ${text.slice(0, 40)} is not a valid "quoted" JSON string`, line);
    }
  }
  if (text === 'null') return null;
  if (f.type === 'integer' || f.type === 'number') {
    if (text === '') return null;
    const n = Number(text);
    if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) || !Number.isFinite(n))
      throw new EditTextError(`${f.name} must be a number, got "${text.slice(0, 40)}"`, line);
    return n;
  }
  if (f.type === 'array') {
    if (text === '[]' || text === '') return [];
    throw new EditTextError(`${f.name} is a list: one "- item" line per entry below "${f.name}:"`, line);
  }
  return text;
}

/**
 * The values of the edited text, for the fields it names (a field whose line
 * was deleted is absent: left as it is). Unknown or repeated fields are errors.
 */
export function parseEditText(text: string, layout: EditLayout): Record<string, unknown> {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const byName = new Map(layout.fields.map((f) => [f.name, f]));
  const values: Record<string, unknown> = {};
  const set = (name: string, value: unknown, line: number) => {
    if (name in values) throw new EditTextError(`${name} is given twice`, line);
    values[name] = value;
  };
  let i = 0;
  let list: { field: FieldInput; items: unknown[] } | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (BLOCK_LINE.test(line) && layout.blocks.includes(BLOCK_LINE.exec(line)![1]!)) break;
    const item = ITEM_LINE.exec(line);
    if (list && item) {
      list.items.push(valueOf({ ...list.field, type: list.field.items ?? 'string' }, item[1] ?? '', i + 1));
      continue;
    }
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = FIELD_LINE.exec(line);
    const f = m && byName.get(m[1]!);
    if (!m || !f || layout.blocks.includes(f.name)) {
      const known = layout.fields.filter((x) => !layout.blocks.includes(x.name)).map((x) => x.name);
      throw new EditTextError(m ? `unknown field "${m[1]}" (fields: ${known.join(', ')})` : `expected "field: value", got "${line.slice(0, 40)}"`, i + 1);
    }
    list = undefined;
    if (f.type === 'array' && m[2]!.trim() === '') {
      list = { field: f, items: [] };
      set(f.name, list.items, i + 1);
    } else {
      set(f.name, valueOf(f, m[2]!, i + 1), i + 1);
    }
  }
  // Blocks: each runs from its line to the next block line (or the end).
  let current: { name: string; line: number; body: string[] } | undefined;
  const close = () => {
    if (!current) return;
    const body = current.body.join('\n').replace(/\s+$/, '');
    set(current.name, body === '' && byName.get(current.name)?.nullable ? null : body, current.line);
  };
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const m = BLOCK_LINE.exec(line);
    if (m && layout.blocks.includes(m[1]!)) {
      close();
      current = { name: m[1]!, line: i + 1, body: [] };
    } else {
      current!.body.push(line);
    }
  }
  close();
  return values;
}

/**
 * The changes the edit makes to `row`. A block compares without trailing
 * whitespace (the editor view drops it), so saving untouched text sends nothing.
 */
export function editedChanges(row: Record<string, unknown>, values: Record<string, unknown>, layout: EditLayout): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const before = row[name];
    const norm = (v: unknown) => (layout.blocks.includes(name) && typeof v === 'string' ? v.replace(/\s+$/, '') || null : (v ?? null));
    if (JSON.stringify(norm(before)) !== JSON.stringify(norm(value))) changes[name] = value;
  }
  return changes;
}
