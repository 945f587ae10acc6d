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
  /** `col = @col` assignments; revision and updated_at are added here. */
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
  return conditionalWrite<Row>(w, { where: 'seq = @__seq', params: { __seq: w.seq } }, () => domainError('not_found', 'It was deleted meanwhile.'));
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
  return conditionalWrite<Row>(w, { where: 'org_id = @__org AND slug = @__slug', params: { __org: w.orgId, __slug: w.slug } }, w.notFound);
}

/** The one conditional write of both: `UPDATE … WHERE <key> [AND revision = expected] RETURNING *`, then, if nothing was written, why. */
function conditionalWrite<Row>(w: Omit<RevisionedWrite, 'seq'>, key: { where: string; params: Record<string, unknown> }, notFound: () => Error): Row {
  const columns = Object.keys(w.set);
  const assignments = [...columns.map((c) => `${c} = @${c}`), 'revision = revision + 1', 'updated_at = @__now'];
  const guard = w.expected === undefined ? '' : ' AND revision = @__expected';
  const params: Record<string, unknown> = { ...w.set, ...key.params, __now: w.now };
  if (w.expected !== undefined) params.__expected = w.expected;
  const written = w.db
    .prepare<[Record<string, unknown>], Row>(`UPDATE ${w.table} SET ${assignments.join(', ')} WHERE ${key.where}${guard} RETURNING *`)
    .get(params);
  if (written) return written;
  const current = w.db.prepare<[Record<string, unknown>], { revision: number }>(`SELECT revision FROM ${w.table} WHERE ${key.where}`).get(key.params);
  if (!current) throw notFound();
  throw revisionMismatch(current.revision);
}

/** For deletes and state actions that take an optional revision: check it without writing. */
export function checkRevision(current: number, expected: number | undefined): void {
  if (expected !== undefined && expected !== current) throw revisionMismatch(current);
}
