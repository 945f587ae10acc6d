// adops assets upload FILE|DIR|GLOB…: each file's bytes judged, reserved,
// streamed to its upload URL, finalized, optionally registered; one row per
// file on stdout, progress and a summary of failures on stderr. The steps and
// the resume-after-interruption logic live in src/flows/upload*.ts; this file
// only wires options, output and exit codes (shared with `assets sync` and
// `brands documents upload`).
import type { ViewName } from '../../cli/output/resources.js';
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { EXIT, type ExitCode } from '../../cli/exit-codes.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import { writesJson } from '../../cli/output/writers/formats.js';
import type { CommandInput } from '../../cli/registry.js';
import { formatReportJson, toReport, type ErrorReport } from '../../cli/report.js';
import type { ApiClient } from '../../client/http.js';
import { ADVERTISER_PREFIX } from '../../contract/ids.js';
import { uploadFile, UploadError, type FileOutcome, type LocalFile, type UploadOptions as FlowUploadOptions } from '../../flows/upload.js';
import { expandInputs, type Skipped } from '../../flows/upload-files.js';
import { runPool } from '../../flows/pool.js';
import { UploadJournal } from '../../state/upload-journal.js';
import { serviceScope } from '../../state/fingerprint.js';
import { UploadProgress } from '../../flows/upload-progress.js';
import { explainFailure, pendingAdvice } from '../../flows/upload-report.js';
import { assetTarget, type Row, type UploadTarget } from '../../flows/upload-targets.js';
import { asText, lineText } from '../../cli/output/sanitize.js';
import { appendStepSummary } from '../../cli/output/step-summary.js';
import { assetsTable, uploadRows } from '../../flows/step-summary.js';

export const DEFAULT_CONCURRENCY = 4;

/** The files named on the command line, or a usage error naming each input that names nothing; `skipped`: what directories held besides. */
export async function filesFrom(inputs: readonly string[]): Promise<{ files: LocalFile[]; skipped: Skipped[] }> {
  const { files, problems, skipped } = await expandInputs(inputs, process.cwd());
  if (problems.length) throw new UsageError(`nothing to upload for ${problems.length === 1 ? 'this input' : 'these inputs'}:\n  ${problems.join('\n  ')}`);
  if (files.length === 0) throw new UsageError('no files to upload');
  return { files, skipped };
}

/** Every skipped entry with its reason, on stderr. */
export function noteSkipped(ctx: CommandContext, skipped: readonly Skipped[]): void {
  if (skipped.length === 0) return;
  ctx.note(`skipped ${skipped.length} entr${skipped.length === 1 ? 'y' : 'ies'}:`);
  for (const x of skipped) ctx.note(`  ${x.path}: ${x.reason}`);
}

export function concurrencyOf(value: unknown): number {
  const n = value === undefined ? DEFAULT_CONCURRENCY : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--concurrency must be a whole number from 1 to 64 (got ${String(value)})`);
  return n;
}

/** --idle-timeout: seconds without a byte moving before a PUT attempt fails (default 60). */
export function idleTimeoutOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 3600)
    throw new UsageError(`--idle-timeout must be a number of seconds above 0, at most 3600 (got ${asText(value)})`);
  return n;
}

export function advertisersOf(value: unknown): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value.map(String) : [asText(value)];
  const bad = list.filter((a) => !a.startsWith(ADVERTISER_PREFIX) || a.length > 200);
  if (bad.length) throw new UsageError(`--register takes advertiser ids (${ADVERTISER_PREFIX}…); not one: ${bad.join(', ')}`);
  return list;
}

/** After ready: register to each advertiser (idempotent: 200 when already), then read the row once more. */
export function registerAfter(client: ApiClient, advertisers: readonly string[], signal: AbortSignal): FlowUploadOptions['afterReady'] {
  if (advertisers.length === 0) return undefined;
  return async (row: Row) => {
    const id = String(row.id);
    for (const advertiserId of advertisers) {
      await client.call('registerAsset', { params: { id }, body: { advertiserId } }, { signal });
    }
    const asset: Row = await client.call('getAsset', { params: { id } }, { signal });
    return asset;
  };
}

export interface UploadRun {
  target: UploadTarget;
  files: readonly LocalFile[];
  concurrency: number;
  timeoutSeconds?: number | undefined;
  /** --idle-timeout (checked by idleTimeoutOf). */
  idleTimeoutSeconds?: number | undefined;
  afterReady?: FlowUploadOptions['afterReady'] | undefined;
}

export function journalFor(ctx: CommandContext, beforeNote?: () => void): UploadJournal {
  const auth = ctx.auth();
  // Scoped by service and key (the organization as far as this machine can tell), not by profile name.
  return new UploadJournal(ctx.config.dir, serviceScope(auth.baseUrl, auth.apiKey), (m) => {
    beforeNote?.();
    ctx.warn(m);
  });
}

export function progressFor(ctx: CommandContext): UploadProgress {
  const columns = (ctx.io.stderr as { columns?: number }).columns;
  return new UploadProgress({
    tty: ctx.fancy,
    write: (s) => void ctx.io.stderr.write(s),
    clean: lineText,
    now: () => ctx.clock.now(),
    coalesce: true,
    ...(columns ? { columns } : {}),
  });
}

/** Upload every file (at most `concurrency` at once); outcomes in input order. */
export async function runUploads(ctx: CommandContext, run: UploadRun, progress = progressFor(ctx)): Promise<FileOutcome[]> {
  // Lines held back by the progress go out before any other line of ours (their order kept).
  const journal = journalFor(ctx, () => progress.flush());
  // The PUT goes through the client: its transport, proxy and retry policy (--retries, --retry-budget).
  const putter = await ctx.client();
  await foldLogs(ctx, () => journal.foldDead()); // runs that died: their records into the store (#37)
  try {
    return await uploadAll(ctx, run, journal, putter, progress);
  } finally {
    await foldLogs(ctx, () => journal.close()); // this run's log, at its end (after Ctrl-C too)
  }
}

/**
 * A fold that fails (a full disk) leaves the log where it is, every record in it durable, for the
 * next run to fold: a warning, not the run's failure.
 */
async function foldLogs(ctx: CommandContext, fold: () => Promise<unknown>): Promise<void> {
  try {
    await fold();
  } catch (err) {
    ctx.warn(`the upload journal's log could not be folded into its files (${err instanceof Error ? err.message : String(err)}); the next run will`);
  }
}

async function uploadAll(
  ctx: CommandContext,
  run: UploadRun,
  journal: UploadJournal,
  putter: FlowUploadOptions['putter'],
  progress: UploadProgress,
): Promise<FileOutcome[]> {
  const outcomes = await runPool(run.files, run.concurrency, async (file): Promise<FileOutcome> => {
    if (ctx.signal.aborted) return { file, status: 'interrupted' };
    const outcome = await uploadFile(file, {
      target: run.target,
      journal,
      now: () => ctx.clock.now(),
      sleep: (ms, s) => ctx.clock.sleep(ms, s),
      signal: ctx.signal,
      onEvent: (e) => {
        // The upload URL is a credential: the trace shows its host and the headers sent, never the token.
        if (e.type === 'start' && ctx.debug) {
          progress.flush();
          ctx.trace(
            `→ PUT ${new URL(e.url).origin}/… (upload URL, token not shown) content-type: ${e.contentType}, content-length: ${e.size}, no authorization`,
          );
        }
        progress.handle(e);
      },
      waitTimeoutMs: (run.timeoutSeconds ?? 300) * 1000,
      ...(run.idleTimeoutSeconds !== undefined ? { idleTimeoutMs: Math.round(run.idleTimeoutSeconds * 1000) } : {}),
      putter,
      ...(run.afterReady ? { afterReady: run.afterReady } : {}),
    });
    const id = outcome.row?.id ?? outcome.row?.documentId;
    if (outcome.status === 'uploaded') progress.line(`${file.shown}: ready as ${String(id)}`);
    return outcome;
  });
  progress.close();
  return outcomes;
}

/**
 * What stopped an interrupted file: the run's abort reason (SIGTERM's carries
 * exit 143, Ctrl-C's 130), else an AbortError (130).
 */
const stopReason = (reason: unknown): unknown => (reason instanceof Error ? reason : new DOMException('interrupted', 'AbortError'));

/** Exit code of one failure, by its class (the service's status, or ours); `reason`: the run's abort reason. */
export function exitOf(o: FileOutcome, reason?: unknown): ExitCode {
  if (o.status === 'interrupted') return toReport(stopReason(reason)).exitCode;
  const err = o.error;
  if (err instanceof UploadError) return err.exit === 'refused' ? EXIT.refused : err.exit === 'waitTimeout' ? EXIT.waitTimeout : EXIT.unexpected;
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return EXIT.usage; // the local file went away or is unreadable
  return toReport(err).exitCode;
}

/**
 * Failures and what they leave behind, on stderr; the exit code of the first
 * failure in input order (0 when every file succeeded).
 */
export function reportFailures(ctx: CommandContext, outcomes: readonly FileOutcome[], target: UploadTarget, command: string): ExitCode {
  const bad = outcomes.filter((o) => o.status === 'failed' || o.status === 'interrupted');
  if (bad.length === 0) return EXIT.ok;
  if (ctx.output.explicit && writesJson(ctx.output.format)) {
    // Like every other failure under --output json: one error object per file (a line each).
    for (const o of bad) ctx.io.stderr.write(formatReportJson(fileReport(o, target, command, ctx.signal.reason)));
    return exitOf(bad[0]!, ctx.signal.reason);
  }
  ctx.note(`${bad.length} of ${outcomes.length} file${outcomes.length === 1 ? '' : 's'} not done:`);
  for (const o of bad) {
    ctx.note(`  ${o.file.shown}: ${o.status === 'interrupted' ? 'interrupted' : explainFailure(o)}`);
    const advice = pendingAdvice(o, target, command);
    if (advice) ctx.note(`    ${advice}`);
  }
  return exitOf(bad[0]!, ctx.signal.reason);
}

/** One file's failure as an error report: the service's code where there is one, the file and what it left in `extra`. */
function fileReport(o: FileOutcome, target: UploadTarget, command: string, reason: unknown): ErrorReport {
  const errno = (o.error as { code?: unknown } | undefined)?.code;
  // Our own refusals and an unreadable local file are not bugs: no "bug in adops" hint for them.
  const own = o.status === 'failed' && (o.error instanceof UploadError || (typeof errno === 'string' && /^E[A-Z]+$/.test(errno)));
  const base: ErrorReport = own
    ? {
        code: o.error instanceof UploadError ? o.error.code : 'file_unreadable',
        status: null,
        message: '',
        issues: [],
        retryable: false,
        hint: null,
        exitCode: exitOf(o, reason),
      }
    : toReport(o.status === 'interrupted' ? stopReason(reason) : o.error);
  const code = base.code;
  const advice = pendingAdvice(o, target, command);
  return {
    ...base,
    code,
    message: `${o.file.shown}: ${o.status === 'interrupted' ? 'interrupted' : explainFailure(o)}`,
    exitCode: exitOf(o, reason),
    ...(advice ? { hint: advice, hints: [advice, ...(base.hint ? [base.hint] : [])] } : {}),
    extra: { ...base.extra, file: o.file.shown, ...(o.pending ? { pending: o.pending } : {}) },
  };
}

export async function writeRows(ctx: CommandContext, rows: readonly Row[], resource: ViewName): Promise<void> {
  const writer = new ListWriter(await prepareOutput(ctx, resource));
  await writer.page(rows);
  await writer.end();
}

/** The command line to run again, for advice (files as the user named them). */
export function againCommand(words: readonly string[], inputs: readonly string[]): string {
  const quote = (s: string) => (/^[\w./@:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return ['adops', ...words, ...inputs.map(quote)].join(' ');
}

/** The transfer flags of every upload command (assets upload and sync, brands documents upload). */
export type UploadFlags = { concurrency?: number; timeout?: number; idleTimeout?: number };

export async function run(
  ctx: CommandContext,
  input: CommandInput<UploadFlags & { register?: string[]; name?: string }, { files: string[] | undefined }>,
): Promise<number> {
  const o = input.opts;
  const inputs = input.args.files ?? [];
  const concurrency = concurrencyOf(o.concurrency);
  const idleTimeoutSeconds = idleTimeoutOf(o.idleTimeout);
  const advertisers = advertisersOf(o.register);
  const { files, skipped } = await filesFrom(inputs);
  noteSkipped(ctx, skipped);
  if (o.name !== undefined) {
    if (files.length !== 1) throw new UsageError(`--name names one file, but ${files.length} files were given`);
    const name = o.name;
    if (name.length < 1 || name.length > 255) throw new UsageError('--name must be 1 to 255 characters');
    files[0]!.filename = name;
  }
  await prepareOutput(ctx, 'asset'); // --fields and --query checked before anything is sent
  const client = await ctx.client();
  const target = assetTarget(client);
  const outcomes = await runUploads(ctx, {
    target,
    files,
    concurrency,
    timeoutSeconds: o.timeout,
    idleTimeoutSeconds,
    afterReady: registerAfter(client, advertisers, ctx.signal),
  });
  await writeRows(
    ctx,
    outcomes.flatMap((x) => (x.row ? [x.row] : [])),
    'asset',
  );
  appendStepSummary(ctx, { command: againCommand(['assets', 'upload'], inputs), ...assetsTable(uploadRows(outcomes)) });
  return reportFailures(ctx, outcomes, target, againCommand(['assets', 'upload'], inputs));
}
