// A revision-safe edit: apply some field changes to a row that carries a
// `revision`, without ever overwriting another writer's change to the same
// field. The service checks the revision (409 revision_mismatch); this flow
// decides what to do then: read again, and re-apply when the other writer
// touched only fields we do not change; stop with both values per field when
// they touched ours (unless forced). No terminal code: the caller reports.
import { ApiError } from '../client/errors.js';

export interface Revisioned {
  revision: number;
  [field: string]: unknown;
}

export interface FieldConflict {
  field: string;
  /** What the row held when our change was made (the value we saw). */
  base: unknown;
  /** What the other writer put there. */
  theirs: unknown;
  yours: unknown;
}

export type EditOutcome<R extends Revisioned> =
  /** Written (or nothing needed writing: `wrote` false). `overwritten`: their values replaced under force. */
  | { kind: 'saved'; row: R; wrote: boolean; attempts: number; overwritten: FieldConflict[] }
  /** Another writer changed a field we change; nothing was written. `row` is the row as it is now. */
  | { kind: 'conflict'; row: R; conflicts: FieldConflict[]; attempts: number }
  /** Every attempt met a newer revision (the row keeps changing under us). */
  | { kind: 'exhausted'; attempts: number; currentRevision: number | undefined };

export interface RevisionSafeEdit<R extends Revisioned> {
  read(): Promise<R>;
  write(changes: Record<string, unknown>, revision: number): Promise<R>;
  changes: Record<string, unknown>;
  /** The row the changes were made against (an editor's buffer); read fresh when absent. */
  base?: R;
  /** On a conflict, write ours over theirs. */
  force?: boolean;
  /** Writes to try before giving up (default 5). */
  maxAttempts?: number;
  /** Called before each re-application after a 409, with the fields the other writer changed. */
  onRetry?: (info: { attempt: number; revision: number; theirs: string[] }) => void;
}

const DEFAULT_ATTEMPTS = 5;

/** Blank text and null are one value: the service stores blank prose as null. */
function normal(v: unknown): unknown {
  if (v === undefined || (typeof v === 'string' && v.trim() === '')) return null;
  return v;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(normal(a)) === JSON.stringify(normal(b));
}

export function isRevisionMismatch(err: unknown): err is ApiError {
  return err instanceof ApiError && err.code === 'revision_mismatch';
}

/** Fields of `changes` whose value differs from `row`'s. */
function changedFields(row: Record<string, unknown>, changes: Record<string, unknown>): string[] {
  return Object.keys(changes).filter((k) => !sameValue(row[k], changes[k]));
}

export async function applyRevisionSafe<R extends Revisioned>(edit: RevisionSafeEdit<R>): Promise<EditOutcome<R>> {
  const maxAttempts = Math.max(1, edit.maxAttempts ?? DEFAULT_ATTEMPTS);
  const base = edit.base ?? (await edit.read());
  // Only what differs from what we saw is a change; the rest is left alone,
  // so a field someone else set meanwhile is not reset to its old value.
  let pending = pickFields(edit.changes, changedFields(base, edit.changes));
  let current = base;
  let overwritten: FieldConflict[] = [];
  let lastRevision: number | undefined;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (Object.keys(pending).length === 0) return { kind: 'saved', row: current, wrote: false, attempts: attempt - 1, overwritten };
    try {
      const row = await edit.write(pending, current.revision);
      return { kind: 'saved', row, wrote: true, attempts: attempt, overwritten };
    } catch (err) {
      if (!isRevisionMismatch(err)) throw err;
      lastRevision = typeof err.extra.currentRevision === 'number' ? err.extra.currentRevision : undefined;
    }
    if (attempt === maxAttempts) break;
    current = await edit.read();
    const theirs = Object.keys(current).filter((k) => k !== 'revision' && k !== 'updatedAt' && !sameValue(current[k], base[k]));
    const conflicts: FieldConflict[] = Object.keys(pending)
      .filter((f) => theirs.includes(f) && !sameValue(current[f], pending[f]))
      .map((f) => ({ field: f, base: base[f], theirs: current[f], yours: pending[f] }));
    if (conflicts.length && !edit.force) return { kind: 'conflict', row: current, conflicts, attempts: attempt };
    overwritten = mergeConflicts(overwritten, conflicts);
    // A field they set to our value needs no write of ours.
    pending = pickFields(pending, changedFields(current, pending));
    edit.onRetry?.({ attempt, revision: current.revision, theirs });
  }
  return { kind: 'exhausted', attempts: maxAttempts, currentRevision: lastRevision };
}

function pickFields(source: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, source[f]]));
}

function mergeConflicts(seen: FieldConflict[], next: FieldConflict[]): FieldConflict[] {
  return [...seen.filter((c) => !next.some((n) => n.field === c.field)), ...next];
}
