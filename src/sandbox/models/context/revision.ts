// The revision rule: every editable row carries an integer `revision` (1 on
// create, +1 per write). A write names the revision it read; the check and the
// write are ONE conditional statement (`… WHERE seq = ? AND revision = ?`), so
// of two writers racing with the same revision exactly one changes the row and
// the other gets 409 revision_mismatch with currentRevision, nothing changed.
import type { Database } from '../../store/sqlite.js';
import { domainError } from '../errors.js';

export const revisionMismatch = (currentRevision: number) =>
  domainError('revision_mismatch', 'Somebody changed this first: read it again, reapply your change and resend with the current revision.', {
    currentRevision,
  });

export interface RevisionedWrite {
  db: Database;
  table: string;
  /** Primary key (`seq`) of the row, already resolved within the organization. */
  seq: number;
  /** The revision the writer read; undefined skips the check (allowed only where the decision says so). */
  expected: number | undefined;
  /** Column → value to write; revision and updated_at are added here. */
  set: Record<string, unknown>;
  now: number;
}

/**
 * Apply `set` if the row still has `expected`, bumping revision, and answer
 * the row as written (`UPDATE … RETURNING *`: one statement when it succeeds).
 * Throws 409 revision_mismatch (with the row's current revision) otherwise.
 * Run inside the caller's transaction when other checks precede it.
 */
export function writeWithRevision<Row = Record<string, unknown>>(w: RevisionedWrite): Row {
  return conditionalWrite<Row>(w, { where: 'seq = ?', params: [w.seq] }, () => domainError('not_found', 'It was deleted meanwhile.'));
}

/** A write to the row of `slug` in the writer's organization: no row is looked up first. */
export interface RevisionedSlugWrite extends Omit<RevisionedWrite, 'seq'> {
  orgId: string;
  slug: string;
  /** The 404 for no such row. */
  notFound: () => Error;
}

/**
 * writeWithRevision for a row named by its slug, in ONE statement when it succeeds (#27: a
 * look-up of the row and then the write cost two). Only when nothing was written is the row
 * read, to tell the answers apart as a look-up first would have: no row is `notFound()` (404), a
 * row with another revision is 409 revision_mismatch with its current revision. Nothing is
 * written in either case.
 */
export function writeSlugWithRevision<Row = Record<string, unknown>>(w: RevisionedSlugWrite): Row {
  return conditionalWrite<Row>(w, { where: 'org_id = ? AND slug = ?', params: [w.orgId, w.slug] }, w.notFound);
}

/** The key of a conditional write: a WHERE clause of `?` parameters and their values, in order. */
interface RowKey {
  where: 'seq = ?' | 'org_id = ? AND slug = ?';
  params: readonly unknown[];
}

/** The UPDATE text of each write shape (table, columns, key, guard): a few shapes, each built once (#37). */
const updateTexts = new Map<string, string>();

function updateText(table: string, columns: readonly string[], where: RowKey['where'], guarded: boolean): string {
  const shape = `${table} ${where} ${guarded} ${columns.join(' ')}`;
  let sql = updateTexts.get(shape);
  if (sql === undefined) {
    const assignments = [...columns.map((c) => `${c} = ?`), 'revision = revision + 1', 'updated_at = ?'];
    sql = `UPDATE ${table} SET ${assignments.join(', ')} WHERE ${where}${guarded ? ' AND revision = ?' : ''} RETURNING *`;
    updateTexts.set(shape, sql);
  }
  return sql;
}

/**
 * The one conditional write of both: `UPDATE … WHERE <key> [AND revision = expected] RETURNING *`, then, if nothing was written, why.
 * Positional parameters (the values of `set` in its key order, then the time, the key, the
 * revision): binding named ones looked each name up in an object built for the purpose (#37).
 */
function conditionalWrite<Row>(w: Omit<RevisionedWrite, 'seq'>, key: RowKey, notFound: () => Error): Row {
  const guarded = w.expected !== undefined;
  const params = Object.values(w.set);
  params.push(w.now, ...key.params);
  if (guarded) params.push(w.expected);
  const written = w.db.prepare<unknown[], Row>(updateText(w.table, Object.keys(w.set), key.where, guarded)).get(...params);
  if (written) return written;
  const current = w.db.prepare<unknown[], { revision: number }>(`SELECT revision FROM ${w.table} WHERE ${key.where}`).get(...key.params);
  if (!current) throw notFound();
  throw revisionMismatch(current.revision);
}

/** For deletes and state actions that take an optional revision: check it without writing. */
export function checkRevision(current: number, expected: number | undefined): void {
  if (expected !== undefined && expected !== current) throw revisionMismatch(current);
}
