// adops mutations apply FILE: one change per row of a CSV or NDJSON file.
// Every row is checked before anything is sent (exit 2 naming the bad lines;
// a file past READ_ONCE_BYTES is read twice, checked and then streamed, a dry
// run's too, rather than held, so memory stays flat whatever its length);
// then a bounded pool starts them, each with an Idempotency-Key recorded in the
// journal (FILE.adops-journal.ndjson) before its POST, so a re-run after an
// interruption sends nothing twice and loses nothing. Summary table on stdout.
import { closeSync, copyFileSync, openSync, statSync } from 'node:fs';
import type { CommandContext } from '../../cli/context.js';
import { errnoCode, messageOf, UsageError } from '../../cli/errors.js';
import { EXIT, exitCodeOfAnswer } from '../../cli/exit-codes.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import { appendStepSummary, stepSummaryFile, SummaryRows } from '../../cli/output/step-summary.js';
import { mutationsTable, previewTable } from '../../flows/step-summary.js';
import type { RowPreview } from '../../flows/mutation-preview.js';
import { rowIds } from '../../flows/mutation-match.js';
import { fileHash, refuseIrreversible, refuseOtherService, undoPlan, undoText, writeUndo } from './_undo.js';
import type { CommandInput } from '../../cli/registry.js';
import {
  applyRows,
  rowIdsInOrder,
  streamRowBatches,
  UNEXPECTED,
  waitRows,
  type ApplyRow,
  type RowBatches,
  type RowOutcome,
} from '../../flows/mutation-apply.js';
import { acquireLock, describeHolder } from '../../state/lock.js';
import { Journal } from '../../state/mutation-journal.js';
import { asStateError, LocalStateError } from '../../state/errors.js';
import { serviceScope, type ServiceScope } from '../../state/fingerprint.js';
import { withHint } from '../../cli/report.js';
import { StreamedRowIds } from './_row-ids.js';
import { checkRows, readRowBatches, readRows, type ParsedRow } from './_rows.js';
import { asText } from '../../cli/output/sanitize.js';
import { formatMoney } from '../../cli/output/values.js';
import { BULK_NEW_SPACE, holdYoungGeneration } from '../../client/young-generation.js';
import { inlineLessForBulk } from '../../client/bulk-inlining.js';
import { commandName } from '../../contract/command-line.js';
import { pollPace } from '../../client/poll-pace.js';

/** Where the organization's changes are listed (the hints send the user there). */
const HISTORY = commandName('listMutations');

const MAX_CONCURRENCY = 16;
/** Rows handed to the writer at once by a dry run. */
const PAGE = 1000;

/**
 * The live read of --preview, --undo-file and --skip-unchanged, loaded only by them: it checks with the
 * contract's zod schemas, ~110 ms of CPU to load, which every other run of a file of changes paid (#37).
 */
const previewRows: typeof import('../../flows/mutation-preview.js').previewRows = async (...a) =>
  (await import('../../flows/mutation-preview.js')).previewRows(...a);

/**
 * A regular file up to this size is read once, its checked rows held for the sends (#37 session 12); a larger one
 * is read twice (checked whole, then streamed: parse, send, record, drop), so memory stays flat whatever its length.
 * Held rows take ~8x the file's bytes (at most ~1 MiB, ~1.5 % of a run's peak), and the second read cost more than
 * that memory is worth: every row parsed, checked and hashed again, ~5 % of a 2,000-row run's CPU. Read once, what
 * is sent is what was checked: a file changed meanwhile is not read again.
 */
export const READ_ONCE_BYTES = 128 * 1024;

/** Whether FILE is read twice rather than held: a regular file (a FIFO cannot be read twice) past READ_ONCE_BYTES. */
function readsTwice(file: string): boolean {
  try {
    const stat = statSync(file);
    return stat.isFile() && stat.size > READ_ONCE_BYTES;
  } catch {
    return false; // checkRows says why it cannot be read
  }
}

/**
 * FILE's rows checked: held, or, given `ids` (a file read twice), counted only, each row's identity marked in
 * `ids` for the second read to number.
 */
const checkFile = (file: string, ids: StreamedRowIds | undefined) =>
  checkRows(file, { keep: !ids, ...(ids ? { onRow: (r: ParsedRow) => ids.see(r.body) } : {}) });

function targetText(body: Record<string, unknown>): string {
  const t = (body.target ?? {}) as { type?: unknown; id?: unknown };
  return `${asText(t.type ?? '?')} ${asText(t.id ?? '?')}`;
}

/**
 * A journal with lines that are not journal lines (not the last line a kill cut short) may have lost
 * the keys of rows already sent: going on could make them twice. Stop, keeping a copy of its bytes.
 */
function refuseUnreadable(journal: Journal, path: string, now: number): void {
  if (journal.unreadableLines.length === 0) return;
  const aside = `${path}.corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  copyFileSync(path, aside);
  const lines = journal.unreadableLines;
  throw new UsageError(
    `the journal ${path} could not be read at line${lines.length === 1 ? '' : 's'} ${lines.slice(0, 10).join(', ')}${lines.length > 10 ? ', …' : ''}; a copy of its bytes is at ${aside}`,
    `nothing was sent: rows recorded there could be made twice. Check \`${HISTORY}\`, then repair or remove those lines (or choose a new journal with --journal PATH) and run again`,
  );
}

/**
 * A journal is read for the service and key in use only (mutation-journal.ts). What other scopes
 * recorded is never used, and never passed over in silence:
 * - rows applied to ANOTHER base URL (staging, then production): that service's mutations say
 *   nothing about this one, so every row is sent here; a note says which journal rows were set aside;
 * - rows applied to THIS base URL with another key, or by an adops that recorded no service: they
 *   may be this organization's changes already made, and sending again could make them twice; it
 *   cannot be told from here, so the run stops (exit 2) naming the journal and how to go on.
 */
function judgeOtherScopes(ctx: CommandContext, journal: Journal, path: string, scope: ServiceScope): void {
  const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
  if (journal.unscopedRows.size > 0) {
    throw new UsageError(
      `the journal ${path} records ${rows(journal.unscopedRows.size)} by an older adops that did not say which service they were sent to; nothing was sent`,
      `check \`${HISTORY}\` on the service it was made against; then move ${path} aside (or choose a new journal with --journal PATH) and run again: every row not found in a journal is sent`,
    );
  }
  for (const { scope: other, rows: theirs } of journal.otherScopes.values()) {
    if (other.baseUrl === scope.baseUrl) {
      throw new UsageError(
        `the journal ${path} records ${rows(theirs.size)} applied to ${scope.baseUrl} with another key (fingerprint ${other.keyFp}); nothing was sent`,
        `if that key is of this organization, those changes may already exist: run with that key to resume, or check \`${HISTORY}\` and then choose a new journal with --journal PATH to send every row anew`,
      );
    }
  }
  const elsewhere = [...journal.otherScopes.values()].map((o) => `${o.scope.baseUrl} (${rows(o.rows.size)})`);
  if (elsewhere.length)
    ctx.note(
      `the journal ${path} also records rows applied to ${elsewhere.join(', ')}; they are not used for ${scope.baseUrl}: its rows are judged on their own`,
    );
}

/** What the exit code and the closing notes need of the outcomes, counted as they go by (none is kept). */
class Tally {
  unknown = false;
  unexpected = false;
  refused: RowOutcome | undefined;
  notSent = false;
  failed = 0;
  unsucceeded = false;
  unstarted = false;
  add(o: RowOutcome): void {
    // Left out by --skip-unchanged: already so, nothing to send or wait for.
    if (o.state === UNCHANGED) return;
    if (o.state === 'unknown') this.unknown = true;
    if (o.state === UNEXPECTED) this.unexpected = true;
    if (o.state === 'refused') this.refused ??= o;
    if (o.state === 'not sent') this.notSent = true;
    if (o.state === 'failed') this.failed++;
    if (o.state !== 'succeeded') this.unsucceeded = true;
    if (!o.mutationId) this.unstarted = true;
  }
}

/** 0 only when every row succeeded (or, without --wait, started); else the most telling failure. */
function exitCode(t: Tally, waited: boolean): number {
  if (t.unknown) return EXIT.outcomeUnknown;
  if (t.unexpected) return EXIT.unexpected;
  if (t.refused) return t.refused.status ? exitCodeOfAnswer(t.refused.status, t.refused.code) : EXIT.refused;
  if (t.notSent) return EXIT.unavailable;
  if (t.failed) return EXIT.operationFailed;
  if (waited && t.unsucceeded) return EXIT.waitTimeout;
  return EXIT.ok;
}

type ApplyOptions = {
  dryRun?: boolean;
  concurrency?: number;
  retryFailed?: boolean;
  journal?: string;
  wait?: boolean;
  timeout?: number;
  interval?: number;
  preview?: boolean;
  undoFile?: string;
  allowIrreversible?: boolean;
  skipUnchanged?: boolean;
  force?: boolean;
};

/** A row --skip-unchanged left out: its target already has the new value. */
const UNCHANGED = 'unchanged';

export async function run(ctx: CommandContext, input: CommandInput<ApplyOptions, { file: string }>): Promise<number> {
  const o = input.opts;
  const file = input.args.file;
  const concurrency = o.concurrency ?? 4;
  if (concurrency < 1 || concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency must be 1 to ${MAX_CONCURRENCY}, got ${concurrency}`);
  const journalPath = o.journal ?? `${file}.adops-journal.ndjson`;
  // A file of changes is a long run from its first read (the check pass allocates as much as the sends).
  // And its few hot functions, each a request's layers, are compiled with less inlined into them (bulk-inlining.ts).
  await Promise.all([holdYoungGeneration(BULK_NEW_SPACE), inlineLessForBulk()]);
  const auth = ctx.auth();
  const scope = serviceScope(auth.baseUrl, auth.apiKey);
  // An undo file is applied only to the service and organization it was made for.
  refuseOtherService(file, scope, o.force === true);
  const writer = new ListWriter(await prepareOutput(ctx, 'mutation-apply'));
  if (o.preview === true) return runPreview(ctx, file, writer);
  const line = (body: Record<string, unknown>, x: RowOutcome) => ({
    row: x.line,
    action: body.action,
    target: targetText(body),
    mutationId: x.mutationId ?? null,
    state: x.state,
    sent: x.earlier ? 'earlier run' : x.mutationId ? 'this run' : 'no',
    error: x.error ?? null,
  });

  if (o.dryRun === true) {
    // A small file or a FIFO: its rows are held, as a real run holds them, and numbered as it numbers them.
    const ids = readsTwice(file) ? new StreamedRowIds() : undefined;
    const { count, rows: held } = await checkFile(file, ids);
    const idOf = ids ? (body: Record<string, unknown>) => ids.id(body) : rowIdsInOrder();
    // Read the journal too: the plan says which rows a real run would skip.
    const seen = new Journal(journalPath, scope);
    judgeOtherScopes(ctx, seen, journalPath, scope);
    ctx.note(`dry run: ${count} row(s) valid; nothing sent`);
    const plan = (r: ParsedRow): RowOutcome => {
      const row = idOf(r.body);
      const prior = seen.get(row);
      if (prior?.mutationId && prior.state === 'failed' && o.retryFailed === true)
        return { line: r.line, row, state: 'failed earlier: would send again as a new change' };
      if (prior?.mutationId) return { line: r.line, row, state: prior.state ?? 'pending', mutationId: prior.mutationId, earlier: true };
      return { line: r.line, row, state: prior ? 'in doubt: would resend with its key' : 'would send' };
    };
    const page: Array<Record<string, unknown>> = [];
    for await (const r of ids ? readRows(file) : held) {
      if (r.problems.length) throw new UsageError(`${file} changed while it was read (line ${r.line}: ${r.problems.join('; ')})`, 'nothing was sent');
      page.push(line(r.body, plan(r)));
      if (page.length >= PAGE) await writer.page(page.splice(0));
    }
    await writer.page(page);
    await writer.end();
    return EXIT.ok;
  }

  // A large regular file is read twice (checked whole, then streamed: parse, send, record, drop), so memory is
  // bounded by the rows in flight; a small one or a FIFO is read once and its rows held (READ_ONCE_BYTES). Either
  // way the outcomes are written as the rows finish. --wait polls every started row at the end: rows held.
  // --undo-file and --skip-unchanged judge every row on one live read before the first send: rows held too.
  const readsLive = o.undoFile !== undefined || o.skipUnchanged === true;
  const streamed = o.wait !== true && !readsLive;
  const ids = streamed && readsTwice(file) ? new StreamedRowIds() : undefined;
  const { count, rows } = await checkFile(file, ids);
  if (count === 0) {
    // A header alone is a quiet day's file in a cron job, not a mistake: nothing to send, exit 0.
    ctx.note(`${file} holds no rows; nothing sent`);
    await writer.end();
    return EXIT.ok;
  }
  // Held rows streamed: one batch, their identities counted as they are prepared (streamRowBatches' default).
  const source: Source = !streamed
    ? { held: rows }
    : ids
      ? { streamed: secondPass(file), idOf: (body) => ids.id(body) }
      : { streamed: [rows][Symbol.iterator]() };
  // GitHub's step summary lists every row (failures first), so only a run that writes one keeps its rows' lines.
  const output = new Output(writer, line, stepSummaryFile(ctx.env) !== undefined);

  createJournal(journalPath);
  // One run at a time per journal: a second run started meanwhile waits, then reads what the first recorded.
  const lock = await acquireLock(`${journalPath}.lock`, {
    wait: true,
    what: 'adops mutations apply',
    signal: ctx.signal,
    onWait: (holder) => ctx.note(`waiting: another run is applying this file (journal ${journalPath} held by ${describeHolder(holder)})`),
  });
  let journal: Journal | undefined;
  try {
    journal = new Journal(journalPath, scope);
    refuseUnreadable(journal, journalPath, ctx.clock.now());
    judgeOtherScopes(ctx, journal, journalPath, scope);
    const unchanged = 'held' in source && readsLive ? await beforeFirstSend(ctx, input, { rows: source.held, journal, scope }) : new Set<number>();
    return await applyLocked(ctx, input, { source, count, journal, journalPath, concurrency, output, unchanged });
  } finally {
    try {
      journal?.close();
    } finally {
      lock.release();
    }
  }
}

/** Before any POST: a journal we cannot write would leave no way to resume safely. */
function createJournal(journalPath: string): void {
  try {
    closeSync(openSync(journalPath, 'a', 0o600));
  } catch (err) {
    // A full or read-only disk is the store's plain error (exit 1, naming the directory); anything else is the path's fault.
    const refused = asStateError(err, journalPath, 'the journal of `mutations apply`');
    if (refused instanceof LocalStateError) throw withHint(refused, 'choose another place with --journal PATH; nothing was sent');
    throw new UsageError(
      `cannot write the journal ${journalPath} (${errnoCode(err) ?? messageOf(err)})`,
      'choose another place with --journal PATH; nothing was sent',
    );
  }
}

type Source = { held: ParsedRow[] } | { streamed: RowBatches; idOf?: (body: Record<string, unknown>) => string };

/**
 * The second read of a checked file, a batch of rows at a time: a row that no longer passes means the
 * file changed meanwhile (the rows before it still go, as they would one at a time).
 */
async function* secondPass(file: string): AsyncGenerator<readonly ApplyRow[]> {
  for await (const rows of readRowBatches(file)) {
    const bad = rows.findIndex((r) => r.problems.length > 0);
    if (bad === -1) {
      yield rows;
      continue;
    }
    if (bad > 0) yield rows.slice(0, bad);
    const r = rows[bad]!;
    throw new UsageError(`${file} changed while it was read (line ${r.line}: ${r.problems.join('; ')})`, 'rows before it may have been sent');
  }
}

/** The summary rows, written a page at a time as outcomes arrive in row order; the tally for the exit code. */
class Output {
  readonly tally = new Tally();
  private readonly page: Array<Record<string, unknown>> = [];
  /** The rows as the step summary shows them (as many as it can show, every one counted); undefined when none is written. */
  readonly shown: SummaryRows | undefined;
  constructor(
    private readonly writer: ListWriter,
    private readonly line: (body: Record<string, unknown>, x: RowOutcome) => Record<string, unknown>,
    keepShown: boolean,
  ) {
    this.shown = keepShown ? new SummaryRows(mutationsTable([])) : undefined;
  }
  /** A promise only when a page is written (#37 session 6: not an async function's promise per row). */
  add(x: RowOutcome, body: Record<string, unknown>): Promise<void> | undefined {
    this.tally.add(x);
    const shown = this.line(body, x);
    this.shown?.add(shown);
    this.page.push(shown);
    return this.page.length >= PAGE ? this.writer.page(this.page.splice(0)) : undefined;
  }
  async end(): Promise<void> {
    await this.writer.page(this.page.splice(0));
    await this.writer.end();
  }
}

async function applyLocked(
  ctx: CommandContext,
  input: CommandInput<ApplyOptions, { file: string }>,
  a: { source: Source; count: number; journal: Journal; journalPath: string; concurrency: number; output: Output; unchanged: ReadonlySet<number> },
): Promise<number> {
  const o = input.opts;
  const { source, count, journal, journalPath, concurrency, output } = a;
  const client = await ctx.client();
  ctx.note(`applying ${count} row(s), ${concurrency} at a time; journal: ${journalPath}`);
  const common = {
    journal,
    concurrency,
    signal: ctx.signal,
    onNote: (m: string) => ctx.note(m),
    retryFailed: o.retryFailed === true,
    now: ctx.clock.now,
    sleep: ctx.clock.sleep,
  };
  try {
    if ('streamed' in source) {
      journal.keepsRecorded = false;
      await streamRowBatches(client, source.streamed, { ...common, ...(source.idOf ? { idOf: source.idOf } : {}), onOutcome: (x, r) => output.add(x, r.body) });
    } else {
      const outcomes = await applyRows(
        client,
        source.held.filter((r) => !a.unchanged.has(r.line)),
        common,
      );
      if (o.wait === true) {
        ctx.note('waiting for every started change to finish');
        await waitRows(client, outcomes, {
          journal,
          concurrency,
          timeoutMs: (o.timeout ?? 300) * 1000,
          ...pollPace(o.interval),
          now: ctx.clock.now,
          sleep: ctx.clock.sleep,
          signal: ctx.signal,
        });
      }
      const byLine = new Map(source.held.map((r) => [r.line, r]));
      const left = [...a.unchanged].map((line): RowOutcome => ({ line, row: '', state: UNCHANGED, error: 'already so: not sent' }));
      for (const x of [...outcomes, ...left].sort((p, q) => p.line - q.line)) await output.add(x, byLine.get(x.line)!.body);
    }
  } catch (err) {
    if (ctx.signal.aborted) ctx.note(`interrupted; what was started is in ${journalPath}. Run the same command again to resume: nothing is sent twice.`);
    throw err;
  }
  await output.end();
  if (output.shown) appendStepSummary(ctx, { command: `adops mutations apply ${input.args.file}`, collected: output.shown });
  const t = output.tally;
  const code = exitCode(t, o.wait === true);
  if (t.failed) ctx.note(`${t.failed} change(s) failed and changed nothing; \`--retry-failed\` sends them again as new changes`);
  if (t.unstarted)
    ctx.note(
      'rows without a mutation were not started; run the same command again to send them (rows in doubt with their recorded keys, so nothing is made twice)',
    );
  return code;
}

/** `--preview`: every row's target read live, its current and new value and the effect; nothing is sent. */
async function runPreview(ctx: CommandContext, file: string, writer: ListWriter): Promise<number> {
  const { count, rows } = await checkRows(file, { keep: true });
  const previews = await previewRows(await ctx.client(), rows, { signal: ctx.signal, money: formatMoney });
  ctx.note(`preview: ${count} row(s) read live; nothing sent`);
  const shown = previews.map((p) => ({
    row: p.line,
    advertiser: p.advertiserId,
    target: p.target,
    field: p.field,
    current: p.current,
    new: p.new,
    effect: p.effect,
    note: p.note,
  }));
  await writer.page(shown);
  await writer.end();
  appendStepSummary(ctx, { command: `adops mutations apply ${file} --preview`, ...previewTable(shown) });
  return EXIT.ok;
}

/**
 * Under the journal's lock, before the first POST: one live read of every row's target; the rows
 * --skip-unchanged leaves out (their lines); and the undo file, written and synced now (or kept:
 * an earlier run of this change file wrote it before its own first POST, from values since changed).
 */
async function beforeFirstSend(
  ctx: CommandContext,
  input: CommandInput<ApplyOptions, { file: string }>,
  a: { rows: readonly ParsedRow[]; journal: Journal; scope: ServiceScope },
): Promise<Set<number>> {
  const o = input.opts;
  const undoFile = o.undoFile;
  const header = { scope: a.scope, of: await fileHash(input.args.file) };
  const plan = undoFile === undefined ? undefined : undoPlan(undoFile, header, a.journal.entries.size > 0);
  if (plan === 'keep') ctx.note(`keeping the undo file ${String(undoFile)}: an earlier run of this file wrote it before its first change`);
  if (plan === 'keep' && o.skipUnchanged !== true) return new Set();
  const previews = await previewRows(await ctx.client(), a.rows, { signal: ctx.signal });
  const unchanged = o.skipUnchanged === true ? leftOut(previews, a.rows, a.journal) : new Set<number>();
  if (undoFile !== undefined && plan === 'write') {
    const sent = previews.filter((p) => !unchanged.has(p.line));
    refuseIrreversible(sent, o.allowIrreversible === true);
    writeUndo(
      undoFile,
      undoText(
        header,
        sent.flatMap((p) => (p.inverse ? [p.inverse] : [])),
      ),
    );
    ctx.note(`undo file written: ${undoFile} (${sent.length} row(s)); apply it to go back`);
  }
  return unchanged;
}

/**
 * The rows --skip-unchanged leaves out: already so, their target named by no other row (two rows on
 * one target may undo each other) and no row recorded in the journal (an earlier run may have made it so).
 */
function leftOut(previews: readonly RowPreview[], rows: readonly ParsedRow[], journal: Journal): Set<number> {
  const ids = rowIds(rows.map((r) => r.body));
  const perTarget = new Map<string, number>();
  for (const p of previews) perTarget.set(p.targetKey, (perTarget.get(p.targetKey) ?? 0) + 1);
  return new Set(previews.filter((p, i) => p.effect === 'no change' && perTarget.get(p.targetKey) === 1 && !journal.get(ids[i]!)).map((p) => p.line));
}
