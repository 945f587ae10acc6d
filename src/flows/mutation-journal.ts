// The journal of `mutations apply`: one NDJSON line per event of a row, appended
// (and flushed) before each POST and after each answer, so a run killed at any
// moment leaves enough to resume without doubling: a row with a mutation id is
// never sent again; a row without one (in doubt) is sent again with the
// Idempotency-Key recorded before its first send. The last line of a row wins.
import { appendFileSync, closeSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { redactText } from '../client/redact.js';
import { codeOf } from '../client/errors.js';
import { isRecord } from '../client/json.js';
import { bodyHash } from './mutation-match.js';

type Obj = Record<string, unknown>;

export interface JournalEntry {
  /** Row identity: hash of the body and its occurrence among identical rows (not the line, which edits move). */
  row: string;
  line: number;
  idempotencyKey: string;
  /** When the key was first used (the service keeps keys 24 h). */
  firstSentAt: number;
  /** null: cleared, the row is being sent again as a new change (--retry-failed). */
  mutationId?: string | null;
  /** `sending` until an answer names the mutation; then the mutation's state. */
  state?: string;
  error?: string;
}

/** A journal line as an entry over the row's earlier one (its fields win); undefined when it lacks the row or its key. */
function entryOf(v: unknown, earlier: (row: string) => JournalEntry | undefined): JournalEntry | undefined {
  if (!isRecord(v) || typeof v.row !== 'string' || typeof v.idempotencyKey !== 'string') return undefined;
  const prev = earlier(v.row);
  return {
    ...prev,
    row: v.row,
    line: typeof v.line === 'number' ? v.line : (prev?.line ?? Number.NaN),
    idempotencyKey: v.idempotencyKey,
    firstSentAt: typeof v.firstSentAt === 'number' ? v.firstSentAt : (prev?.firstSentAt ?? Number.NaN),
    ...(typeof v.mutationId === 'string' || v.mutationId === null ? { mutationId: v.mutationId } : {}),
    ...(typeof v.state === 'string' ? { state: v.state } : {}),
    ...(typeof v.error === 'string' ? { error: v.error } : {}),
  };
}

/** Row identities for a file's bodies: identical rows are distinct changes, told apart by occurrence. */
export function rowIds(bodies: readonly Obj[]): string[] {
  const seen = new Map<string, number>();
  return bodies.map((b) => {
    const h = bodyHash(b);
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return `${h}#${n}`;
  });
}

export class Journal {
  readonly entries = new Map<string, JournalEntry>();
  /** Lines (1-based) that are not journal lines, besides a last line cut short by a kill mid-write. */
  readonly unreadableLines: number[] = [];
  constructor(readonly path: string | undefined) {
    if (!path) return;
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if (codeOf(err) !== 'ENOENT') throw err;
    }
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let e: JournalEntry | undefined;
      try {
        e = entryOf(JSON.parse(line), (row) => this.entries.get(row));
      } catch {
        /* judged below */
      }
      if (e) this.entries.set(e.row, e);
      // A last line without its newline was cut by a kill mid-write: the row's earlier lines still hold its key.
      else if (i < lines.length - 1) this.unreadableLines.push(i + 1);
    });
  }

  get(row: string): JournalEntry | undefined {
    return this.entries.get(row);
  }

  record(entry: JournalEntry): void {
    // The error is the service's text (its code): masked like every other line of it (a key it echoes never reaches the disk).
    const merged = { ...this.entries.get(entry.row), ...entry, ...(entry.error !== undefined ? { error: redactText(entry.error) } : {}) };
    this.entries.set(entry.row, merged);
    if (!this.path) return;
    // fsync: the line must be on disk before the POST it announces goes out.
    const fd = openSync(this.path, 'a', 0o600);
    try {
      appendFileSync(fd, JSON.stringify(merged) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
