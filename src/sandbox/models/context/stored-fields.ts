// Where a Context noun keeps each field a create or update body may carry: one
// entry per field, naming its column and what is stored for the value sent. A
// create's INSERT and an update's SET are both read from that one table, so a
// new editable field is one entry, not one in each statement (docs/architecture.md,
// "A new field on a Context noun").
import { nextSeq } from '../../store/schema/seq-high-water.js';
import type { SeqTable } from '../../store/schema/seq-high-water.js';

/**
 * Each editable field of `Body`: the column of `Row` it is stored in, and what is stored for the
 * value sent. A create that omits the field stores `store(undefined)` (its default); an update
 * that omits it leaves the column as it is.
 */
export type StoredFields<Body, Row> = {
  readonly [K in keyof Body]-?: { readonly column: keyof Row & string; readonly store: (value: Body[K]) => unknown };
};

/** The columns a create writes: every field, an omitted one as its default. */
export function storedOnCreate<Body, Row>(fields: StoredFields<Body, Row>, body: NoInfer<Body>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key in fields) values[fields[key].column] = fields[key].store(body[key]);
  return values;
}

/** The columns an update writes: only the fields the body names. */
export function storedChanges<Body, Row>(fields: StoredFields<Body, Row>, body: NoInfer<Body>): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const key in fields) {
    const value = body[key];
    if (value !== undefined) set[fields[key].column] = fields[key].store(value);
  }
  return set;
}

/** The INSERT text of each (table, columns) shape: a few shapes, each built once (#37). */
const insertTexts = new Map<string, string>();

/**
 * `INSERT INTO <table> (seq, a, b, …) VALUES (<next seq>, ?, ?, …)`: one positional parameter per
 * column of `values`, in its key order, so the caller binds `...Object.values(values)` (binding named
 * parameters looked each name up in the object, #37); the seq is one never used before (nextSeq).
 */
export function insertInto(table: SeqTable, values: Record<string, unknown>): string {
  const columns = Object.keys(values);
  const shape = `${table} ${columns.join(' ')}`;
  let sql = insertTexts.get(shape);
  if (sql === undefined) {
    sql = `INSERT INTO ${table} (seq, ${columns.join(', ')}) VALUES (${nextSeq(table)}, ${columns.map(() => '?').join(', ')})`;
    insertTexts.set(shape, sql);
  }
  return sql;
}
