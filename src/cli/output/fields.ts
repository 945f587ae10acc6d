// `--fields` as dotted paths (`target.id`, `changes.budget.amount`).
// Which names are accepted (the decision, recorded here where it is made):
// - a resource's schema field, or a path under a schema object (resources.ts);
// - on a `strict` resource nothing else: refused before the request is sent;
// - otherwise also a field the answer actually carries (the real service may
//   send fields the sandbox's schema lacks): checked on the first non-empty
//   page or object, before anything is written. So a typo is always a usage
//   error naming the known fields, never a column of nulls.
import { UsageError } from '../errors.js';
import { resourceView, type ViewName } from './resources.js';

type Row = Record<string, unknown>;

const isObject = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value at a dotted path; a key that itself holds dots (provider payloads) matches first. */
export function getPath(row: unknown, path: string): unknown {
  if (!isObject(row)) return undefined;
  // Own keys only: `--fields constructor` must not read Object.prototype.
  if (Object.hasOwn(row, path)) return row[path];
  const dot = path.indexOf('.');
  if (dot < 0) return undefined;
  // Try each split point so `a.b.c` finds row['a.b'].c as well as row.a['b.c'].
  for (let i = dot; i >= 0; i = path.indexOf('.', i + 1)) {
    const head = path.slice(0, i);
    if (Object.hasOwn(row, head)) {
      const found = getPath(row[head], path.slice(i + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Is `path` a schema field of the resource (undefined: the resource accepts any name)? */
function schemaKnows(path: string, known: readonly string[]): boolean {
  if (known.includes(path)) return true;
  const parts = path.split('.');
  for (let i = parts.length - 1; i > 0; i--) if (known.includes(`${parts.slice(0, i).join('.')}.*`)) return true;
  return false;
}

function refuse(unknown: string[], resource: ViewName, known: Iterable<string>): UsageError {
  const names = [...new Set(known)].filter((f) => !f.endsWith('.*'));
  return new UsageError(`unknown field${unknown.length > 1 ? 's' : ''} for ${resource}: ${unknown.join(', ')}`, `known fields: ${names.join(', ')}`);
}

/**
 * `--fields` checked before sending: trimmed, empty names and repeats dropped;
 * on a strict resource every name must be a schema field. Other unknown names
 * wait for the data (checkFieldsInData, called by the writers).
 */
export function checkFields(fields: readonly string[] | undefined, resource: ViewName): string[] | undefined {
  if (!fields || fields.length === 0) return undefined;
  const list = [
    ...new Set(
      fields
        .flatMap((f) => f.split(','))
        .map((f) => f.trim())
        .filter(Boolean),
    ),
  ];
  if (list.length === 0) return undefined;
  const bad = list.filter((f) => f.split('.').some((p) => p === ''));
  if (bad.length) throw new UsageError(`malformed field path: ${bad.join(', ')}`, 'use dotted paths such as target.id');
  const view = resourceView(resource);
  if (view.fields && view.strict) {
    const unknown = list.filter((f) => !schemaKnows(f, view.fields!));
    if (unknown.length) throw refuse(unknown, resource, view.fields);
  }
  return list;
}

/** Top-level keys and one level of nested keys the rows carry, for the error's list of known fields. */
function dataPaths(rows: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const r of rows.slice(0, 50)) {
    if (!isObject(r)) continue;
    for (const [k, v] of Object.entries(r)) {
      out.add(k);
      if (isObject(v)) for (const k2 of Object.keys(v)) out.add(`${k}.${k2}`);
    }
  }
  return [...out];
}

/** After the first rows arrive: a name neither the schema nor the data knows is a usage error. */
export function checkFieldsInData(fields: readonly string[] | undefined, resource: ViewName, rows: readonly unknown[]): void {
  if (!fields || rows.length === 0) return;
  const known = resourceView(resource).fields;
  if (!known) return;
  const unknown = fields.filter((f) => !schemaKnows(f, known) && !rows.some((r) => getPath(r, f) !== undefined));
  if (unknown.length) throw refuse(unknown, resource, [...known, ...dataPaths(rows)]);
}

/**
 * The row narrowed to `fields`, in order, keeping the structure (JSON and NDJSON
 * show `{"target":{"id":…}}` for `target.id`); a known field the row lacks is null.
 */
export function pick(row: Row, fields: readonly string[] | undefined): Row {
  if (!fields) return row;
  const out: Row = {};
  const built = new Set<Row>([out]);
  for (const f of fields) {
    const value = getPath(row, f) ?? null;
    if (Object.hasOwn(row, f) || !f.includes('.')) {
      out[f] = value;
      continue;
    }
    const parts = f.split('.');
    let node = out;
    let i = 0;
    for (; i < parts.length - 1; i++) {
      const next = node[parts[i]!];
      if (next === undefined) {
        const made: Row = {};
        built.add(made);
        node[parts[i]!] = made;
        node = made;
      } else if (isObject(next) && built.has(next)) node = next;
      else break; // the whole parent was picked already: it holds this value
    }
    if (i === parts.length - 1) node[parts[i]!] = value;
  }
  return out;
}

const MAX_ITEMS = 5;

/** Nested objects as dotted keys; arrays of objects by index (the first few): the rows of a key/value view. */
export function flatten(value: unknown, prefix = '', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object') && prefix) {
    value.slice(0, MAX_ITEMS).forEach((v, i) => flatten(v, `${prefix}.${i}`, out));
    if (value.length > MAX_ITEMS) out.push([`${prefix}.…`, `${value.length - MAX_ITEMS} more (see --output json)`]);
  } else out.push([prefix, value]);
  return out;
}
