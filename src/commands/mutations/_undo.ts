// The undo file of `mutations apply --undo-file UNDO.csv`: the inverse of every row that will be
// sent, read live before the first POST (src/flows/mutation-preview.ts), written and synced before
// it, and itself a change file. Its first line is a comment naming the service (base URL) and the
// key's fingerprint it was made for (never the key), and the change file it undoes (a hash of its
// bytes): applied to another service or organization it is refused unless --force, and a re-run of
// the same change file after an interruption keeps it (the live values it would read now are the
// changed ones). Nothing here sends anything.
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../../cli/errors.js';
import type { CreateMutation } from '../../contract/schemas/mutations.js';
import type { RowPreview } from '../../flows/mutation-preview.js';
import { writeDurably } from '../../state/durable-write.js';
import type { ServiceScope } from '../../state/fingerprint.js';
import { COLUMNS } from './_rows.js';

const HEADER = '# adops undo file:';
const HEADER_LINE = /^# adops undo file: service=(\S+) key=([0-9a-f]+) of=([0-9a-f]+)\s*$/;

export interface UndoHeader {
  scope: ServiceScope;
  /** The change file it undoes: the first 16 hex of its bytes' sha256. */
  of: string;
}

/** The first 16 hex of a file's sha256, streamed. */
export async function fileHash(file: string): Promise<string> {
  const h = createHash('sha256');
  await new Promise<void>((resolve, reject) =>
    createReadStream(file)
      .on('data', (chunk) => h.update(chunk))
      .on('error', reject)
      .on('end', resolve),
  );
  return h.digest('hex').slice(0, 16);
}

/** The header of an undo file; undefined for any other file (or none). */
export function readUndoHeader(file: string): UndoHeader | undefined {
  const first = firstLine(file);
  const m = first === undefined ? null : HEADER_LINE.exec(first);
  return m ? { scope: { baseUrl: m[1]!, keyFp: m[2]! }, of: m[3]! } : undefined;
}

/** The first line of a file (from its first 4 KiB); undefined when it cannot be read (the row check says why). */
function firstLine(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(4096);
    return (
      head
        .subarray(0, readSync(fd, head, 0, head.length, 0))
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/, 1)[0] ?? ''
    );
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** An undo file made for another service or key: refused (exit 2) unless --force. */
export function refuseOtherService(file: string, scope: ServiceScope, force: boolean): void {
  const made = readUndoHeader(file)?.scope;
  if (!made || force || (made.baseUrl === scope.baseUrl && made.keyFp === scope.keyFp)) return;
  const whom =
    made.baseUrl === scope.baseUrl ? `${made.baseUrl} with another key (fingerprint ${made.keyFp})` : `${made.baseUrl} (key fingerprint ${made.keyFp})`;
  throw new UsageError(
    `${file} is an undo file made for ${whom}, not for ${scope.baseUrl} with this key; nothing was sent`,
    'apply it with the service and key it was made for, or pass --force if it is meant for this one',
  );
}

/** Rows that would be sent with no way back: the run stops before anything is sent, unless --allow-irreversible. */
export function refuseIrreversible(previews: readonly RowPreview[], allow: boolean): void {
  const stuck = previews.filter((p) => p.effect === 'missing' || p.effect === 'cannot undo');
  if (stuck.length === 0 || allow) return;
  const shown = stuck.slice(0, 20).map((p) => `line ${p.line}: ${p.target}: ${p.note ?? p.effect}`);
  if (stuck.length > 20) shown.push(`… and ${stuck.length - 20} more`);
  throw new UsageError(
    `${stuck.length} row(s) cannot be undone (no previous value could be read, or the action has no inverse):\n  ${shown.join('\n  ')}`,
    'nothing was sent; remove those rows, or pass --allow-irreversible to send them without a way back',
  );
}

const CSV_COLUMNS = COLUMNS;
/** A cell the change file reader reads back as written: quoted when it holds a comma, a quote or a line break. */
const cell = (v: unknown): string => {
  if (v === undefined || v === null) return '';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** One inverse as a CSV row: named columns, or (a name the reader would trim or refuse) its whole body. */
function undoRow(b: CreateMutation): string {
  const named: Record<string, unknown> = { advertiserId: b.advertiserId, action: b.action, targetType: b.target.type, targetId: b.target.id };
  if (b.action === 'rename') {
    if (b.name.trim() !== b.name || /[\r\n]/.test(b.name) || b.name.length > 60_000) return CSV_COLUMNS.map((c) => (c === 'body' ? cell(b) : '')).join(',');
    named.name = b.name;
  }
  if (b.action === 'set_budget') Object.assign(named, { amount: b.budget.amount, budgetType: b.budget.type });
  if (b.action === 'set_bid') Object.assign(named, { bidStrategy: b.bidStrategy, bidAmount: b.bidAmount });
  return CSV_COLUMNS.map((c) => cell(typeof named[c] === 'number' ? String(named[c]) : named[c])).join(',');
}

/** The undo file's text: its header, the columns, one inverse per row that will be sent (in file order). */
export function undoText(header: UndoHeader, inverses: readonly CreateMutation[]): string {
  const first = `${HEADER} service=${header.scope.baseUrl} key=${header.scope.keyFp} of=${header.of}`;
  return [first, CSV_COLUMNS.join(','), ...inverses.map(undoRow)].join('\n') + '\n';
}

/**
 * What to do about UNDO before the first POST: `write` it now, or `keep` it (an earlier run of this
 * very change file wrote it before its first POST). Refused: a file that is not this change file's
 * undo file (it may be the only way back from another run), or rows sent earlier with no undo file.
 */
export function undoPlan(undoFile: string, header: UndoHeader, sentEarlier: boolean): 'write' | 'keep' {
  if (!existsSync(undoFile)) {
    if (!sentEarlier) return 'write';
    throw new UsageError(
      `the journal records rows sent by an earlier run, but the undo file ${undoFile} is not there; their previous values can no longer be read live`,
      'nothing was sent; run without --undo-file to finish the file, or give the undo file that earlier run wrote',
    );
  }
  const had = readUndoHeader(undoFile);
  if (had && had.of === header.of && had.scope.baseUrl === header.scope.baseUrl && had.scope.keyFp === header.scope.keyFp) return 'keep';
  throw new UsageError(
    `${undoFile} already exists and is not the undo file of this change file for this service; it may be the only way back from another run`,
    'nothing was sent; move it aside or choose another path with --undo-file',
  );
}

export function writeUndo(undoFile: string, text: string): void {
  writeDurably(undoFile, text, 'the undo file of `mutations apply`');
}
