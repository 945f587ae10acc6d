// The journal of `mutations apply`: one NDJSON line per event of a row, so a
// run killed at any moment leaves enough to resume without doubling: a row
// with a mutation id is never sent again; a row without one (in doubt) is sent
// again with the Idempotency-Key recorded before its first send. The last line
// of a row wins.
//
// Write-ahead with GROUP COMMIT (durable-write.ts, AppendLog): a row's key line
// is on disk before its POST (the flow notes a batch of key lines, then its
// POSTs await `commit()`), and the rows of a batch share one fsync. A line after an answer
// (`note`) rides with the next commit: lost in a crash, it leaves the row in
// doubt with its key, and the next run's resend with that key is answered with
// the same change, never a second one.
//
// One file may be applied to several services (staging, then production):
// every line carries the service's base URL and a fingerprint of the key
// (state/fingerprint.ts), and a journal read for one scope holds only that
// scope's rows. The rows another scope recorded are counted, never used: a
// mutation id of staging says nothing about production.
import { redactText } from '../client/redact.js';
import { isRecord, printableJson } from '../client/json.js';
import { AppendLog } from './durable-write.js';
import { sameScope, type ServiceScope } from './fingerprint.js';
import { readStoreFile } from './read-back.js';

const WHAT = 'the journal of `mutations apply`';

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

/** The scope a line names, undefined for a line of an adops that recorded none. */
const scopeOf = (v: unknown): ServiceScope | undefined =>
  isRecord(v) && typeof v.service === 'string' && typeof v.keyFp === 'string' ? { baseUrl: v.service, keyFp: v.keyFp } : undefined;

/** The scope's members as they end a line of it (JSON text, printable). */
const scopeEnd = (scope: ServiceScope): string => `,${printableJson({ service: scope.baseUrl, keyFp: scope.keyFp }).slice(1)}`;

export class Journal {
  readonly entries = new Map<string, JournalEntry>();
  /** Lines (1-based) that are not journal lines, besides a last line cut short by a kill mid-write. */
  readonly unreadableLines: number[] = [];
  /** Rows other scopes recorded (another service, or another key), by scope: never used by this one. */
  readonly otherScopes = new Map<string, { scope: ServiceScope; rows: Set<string> }>();
  /** Rows recorded with no scope (an older adops): which service they were sent to is unknown. */
  readonly unscopedRows = new Set<string>();
  private readonly log: AppendLog | undefined;
  /**
   * Whether rows first recorded by this run stay in `entries` (for get()). A streamed run
   * (flows/mutation-apply.ts) never asks again about a row it recorded: off, its memory is
   * bounded by the rows in flight; the lines on disk are the same.
   */
  keepsRecorded = true;
  /**
   * `scope`: the service and key this run applies to; only its rows are read, and every line
   * written names it. Without one (tests of the flow alone) every line is read as this run's.
   */
  constructor(
    readonly path: string | undefined,
    readonly scope?: ServiceScope,
  ) {
    if (!path) return;
    // Its lines are grouped by the flow already (a batch of keys, 25 ms of answers): the fsync on the loop (AppendLog).
    this.log = new AppendLog(path, WHAT, { fsyncOnLoop: true });
    // A journal that cannot be read is never read as empty: its rows would be sent again.
    const lines = (readStoreFile(path, WHAT) ?? '').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let e: JournalEntry | undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
        e = entryOf(parsed, (row) => this.entries.get(row));
      } catch {
        /* judged below */
      }
      if (e && !this.isMine(parsed, e.row)) return;
      if (e) this.entries.set(e.row, e);
      // A last line without its newline was cut by a kill mid-write: the row's earlier lines still hold its key.
      else if (i < lines.length - 1) this.unreadableLines.push(i + 1);
    });
  }

  /** Whether a line is this scope's; another scope's row is set aside, never read as this run's. */
  private isMine(line: unknown, row: string): boolean {
    if (!this.scope) return true;
    const theirs = scopeOf(line);
    if (!theirs) {
      this.unscopedRows.add(row);
      return false;
    }
    if (sameScope(theirs, this.scope)) return true;
    const id = `${theirs.baseUrl}\n${theirs.keyFp}`;
    const other = this.otherScopes.get(id) ?? { scope: theirs, rows: new Set<string>() };
    other.rows.add(row);
    this.otherScopes.set(id, other);
    return false;
  }

  get(row: string): JournalEntry | undefined {
    return this.entries.get(row);
  }

  /** Written and fsynced now (alone): on disk when this returns. */
  record(entry: JournalEntry): void {
    this.note(entry);
    this.log?.flushSync();
  }

  /** Every line noted so far on disk when this resolves (one fsync, shared with every caller meanwhile). */
  async commit(): Promise<void> {
    await this.log?.commit();
  }

  /** Whether the next commit's fsync runs on the loop (AppendLog): until a slow disk says otherwise. */
  get fsyncsOnLoop(): boolean {
    return this.log?.fsyncsOnLoop ?? false;
  }

  /** Kept, and written with the next commit (an answer's line: see the header). */
  note(entry: JournalEntry): void {
    // The error is the service's text (its code): masked like every other line of it (a key it echoes never reaches the disk).
    const earlier = this.entries.get(entry.row);
    const kept = earlier !== undefined || this.keepsRecorded;
    // The caller's own entry when nothing is kept or masked (#37 session 6: a streamed run's two lines a row made a copy each).
    const merged: JournalEntry = earlier ? { ...earlier, ...entry } : kept || entry.error !== undefined ? { ...entry } : entry;
    if (entry.error !== undefined) merged.error = redactText(entry.error);
    if (kept) this.entries.set(entry.row, merged);
    // The scope ends the line: the same text as the entry with `service` and `keyFp` added last (#37: no second object per line).
    const text = printableJson(merged);
    this.log?.append(this.scope ? `${text.slice(0, -1)}${this.scopeEnd ?? (this.scopeEnd = scopeEnd(this.scope))}\n` : `${text}\n`);
  }

  /** `,"service":…,"keyFp":…}`: what ends every line of this scope. */
  private scopeEnd: string | undefined;

  /** Writes and fsyncs every line not yet on disk (the end of a run; also after a failure). */
  flush(): void {
    this.log?.flushSync();
  }

  /** flush(), then closes the file. */
  close(): void {
    this.log?.close();
  }
}
