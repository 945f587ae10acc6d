// adops assets sync DIR: upload what is not already there (same name and
// bytes; how that is known: src/flows/sync.ts), so a re-run pipeline uploads
// nothing new. One row per file: uploaded / already there / failed, then one
// per entry not taken (skipped, the reason in `error`).
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { prepareOutput } from '../../cli/output/writers.js';
import type { CommandInput } from '../../cli/registry.js';
import { appendStepSummary } from '../../cli/output/step-summary.js';
import { findExisting, hashAhead, readyAssetsByName, type Existing } from '../../flows/sync.js';
import { assetsTable } from '../../flows/step-summary.js';
import { explainFailure } from '../../flows/upload-report.js';
import { assetTarget, type Row } from '../../flows/upload-targets.js';
import type { FileOutcome, LocalFile } from '../../flows/upload.js';
import type { Skipped } from '../../flows/upload-files.js';
import {
  advertisersOf,
  againCommand,
  concurrencyOf,
  filesFrom,
  idleTimeoutOf,
  journalFor,
  noteSkipped,
  registerAfter,
  reportFailures,
  runUploads,
  writeRows,
  type UploadFlags,
} from './upload.js';

const RESULT = { uploaded: 'uploaded', already: 'already there', failed: 'failed', interrupted: 'interrupted' } as const;

function resultRow(o: FileOutcome, matchedBy?: string): Row {
  const r = o.row ?? {};
  return {
    file: o.file.shown,
    result: RESULT[o.status],
    id: r.id ?? null,
    filename: r.filename ?? o.file.filename,
    sizeBytes: r.sizeBytes ?? o.file.size,
    mimeType: r.mimeType ?? null,
    matchedBy: matchedBy ?? (o.status === 'already' ? 'sha256 (journal)' : null),
    error: o.status === 'failed' ? explainFailure(o) : o.status === 'interrupted' ? 'interrupted' : null,
  };
}

const skippedRow = (x: Skipped): Row => ({
  file: x.path,
  result: 'skipped',
  id: null,
  filename: null,
  sizeBytes: null,
  mimeType: null,
  matchedBy: null,
  error: x.reason,
});

export async function run(
  ctx: CommandContext,
  input: CommandInput<UploadFlags & { register?: string[]; dryRun?: boolean; matchNameSize?: boolean }, { dir: string }>,
): Promise<number> {
  const o = input.opts;
  const { dir } = input.args;
  if (!dir) throw new UsageError('name the directory to sync');
  const concurrency = concurrencyOf(o.concurrency);
  const advertisers = advertisersOf(o.register);
  const { files, skipped } = await filesFrom([dir]);
  await prepareOutput(ctx, 'syncResult'); // --fields and --query checked before anything is sent
  const client = await ctx.client();
  const target = assetTarget(client);
  const journal = journalFor(ctx);
  const afterReady = registerAfter(client, advertisers, ctx.signal);

  // The files are hashed while the listing is on its way (the service's time): both are what a re-run must learn.
  const listing = readyAssetsByName(client, ctx.signal);
  const hashing = hashAhead(files, ctx.signal);
  const byName = await listing.catch(async (err: unknown) => {
    hashing.stop(); // the listing's failure is the answer: no more reading
    await hashing.done;
    throw err;
  });
  await hashing.done;
  const there = new Map<LocalFile, Existing>();
  const missing: LocalFile[] = [];
  const unproven: LocalFile[] = [];
  for (const file of files) {
    const found = await findExisting(file, byName, journal, { matchNameSize: o.matchNameSize === true, signal: ctx.signal });
    if (found && 'matchedBy' in found) there.set(file, found);
    else {
      missing.push(file);
      if (found) unproven.push(file);
    }
  }
  ctx.note(
    `${files.length} file${files.length === 1 ? '' : 's'} in ${dir}: ${there.size} already there, ${missing.length} to upload${skipped.length ? `, ${skipped.length} skipped` : ''}`,
  );
  if (unproven.length) {
    ctx.note(
      `${unproven.length} of them match a ready Asset by name and size only (no checksum shown, no record in this machine's journal), so the bytes may differ: uploading them. --match-name-size counts such a match as already there`,
    );
  }
  noteSkipped(ctx, skipped);
  if (o.dryRun === true) {
    const planned = files.map((f) =>
      resultRow({ file: f, status: there.has(f) ? 'already' : 'uploaded', ...(there.get(f) ? { row: there.get(f)!.row } : {}) }, there.get(f)?.matchedBy),
    );
    await writeRows(ctx, [...planned.map((r) => (r.result === 'uploaded' ? { ...r, result: 'to upload' } : r)), ...skipped.map(skippedRow)], 'syncResult');
    return 0;
  }
  // Nothing to send (a re-run): no upload run, so no second journal, no fold, no progress (#37).
  // A dead run's log is read by every run and folded by the next one that uploads.
  const uploaded = missing.length
    ? await runUploads(ctx, {
        target,
        files: missing,
        concurrency,
        timeoutSeconds: o.timeout,
        idleTimeoutSeconds: idleTimeoutOf(o.idleTimeout),
        afterReady,
      })
    : [];
  const byFile = new Map(uploaded.map((u) => [u.file, u]));
  const outcomes: FileOutcome[] = [];
  const rows: Row[] = [];
  for (const file of files) {
    const existing = there.get(file);
    let outcome: FileOutcome;
    if (existing) {
      try {
        outcome = { file, status: 'already', row: afterReady ? await afterReady(existing.row) : existing.row };
      } catch (error) {
        outcome = { file, status: 'failed', error };
      }
    } else outcome = byFile.get(file)!;
    outcomes.push(outcome);
    rows.push(resultRow(outcome, existing?.matchedBy));
  }
  await writeRows(ctx, [...rows, ...skipped.map(skippedRow)], 'syncResult');
  appendStepSummary(ctx, { command: againCommand(['assets', 'sync'], [dir]), ...assetsTable([...rows, ...skipped.map(skippedRow)]) });
  return reportFailures(ctx, outcomes, target, againCommand(['assets', 'sync'], [dir]));
}
