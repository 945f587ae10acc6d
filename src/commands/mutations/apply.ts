// adops mutations apply FILE: one change per row of a CSV or NDJSON file.
// Every row is checked before anything is sent (exit 2 naming the bad lines);
// then a bounded pool starts them, each with an Idempotency-Key recorded in the
// journal (FILE.adops-journal.ndjson) before its POST, so a re-run after an
// interruption sends nothing twice and loses nothing. Summary table on stdout.
import { closeSync, openSync } from 'node:fs';
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { EXIT, exitCodeForStatus } from '../../cli/exit-codes.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import type { CommandInput } from '../../cli/registry.js';
import { applyRows, waitRows, type RowOutcome } from '../../flows/mutation-apply.js';
import { Journal, rowIds } from '../../flows/mutation-journal.js';
import { parseRows, type ParsedRow } from './_rows.js';
import { readTextFile } from '../../cli/read-file.js';

const MAX_CONCURRENCY = 16;

function targetText(body: Record<string, unknown>): string {
  const t = (body.target ?? {}) as { type?: unknown; id?: unknown };
  return `${String(t.type ?? '?')} ${String(t.id ?? '?')}`;
}

function readRows(file: string): ParsedRow[] {
  const text = readTextFile(file);
  const { rows, fileProblem } = parseRows(text, file);
  if (fileProblem) throw new UsageError(`${file}: ${fileProblem}`, 'nothing was sent');
  if (rows.length === 0) throw new UsageError(`${file} holds no rows`, 'nothing was sent');
  const bad = rows.filter((r) => r.problems.length);
  if (bad.length) {
    const shown = bad.slice(0, 20).map((r) => `line ${r.line}: ${r.problems.join('; ')}`);
    if (bad.length > 20) shown.push(`… and ${bad.length - 20} more`);
    throw new UsageError(`${bad.length} of ${rows.length} row(s) cannot be sent:\n  ${shown.join('\n  ')}`, 'nothing was sent; fix these lines and run again');
  }
  return rows;
}

/** 0 only when every row succeeded (or, without --wait, started); else the most telling failure. */
function exitCode(outcomes: readonly RowOutcome[], waited: boolean): number {
  if (outcomes.some((o) => o.state === 'unknown')) return EXIT.outcomeUnknown;
  const refused = outcomes.find((o) => o.state === 'refused');
  if (refused) return refused.status ? exitCodeForStatus(refused.status) : EXIT.refused;
  if (outcomes.some((o) => o.state === 'not sent')) return EXIT.unavailable;
  if (outcomes.some((o) => o.state === 'failed')) return EXIT.operationFailed;
  if (waited && outcomes.some((o) => o.state !== 'succeeded')) return EXIT.waitTimeout;
  return EXIT.ok;
}

export async function run(ctx: CommandContext, input: CommandInput): Promise<number> {
  const o = input.opts;
  const file = String(input.args.file ?? '');
  const concurrency = (o.concurrency as number | undefined) ?? 4;
  if (concurrency < 1 || concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency must be 1 to ${MAX_CONCURRENCY}, got ${concurrency}`);
  const rows = readRows(file);
  const journalPath = (o.journal as string | undefined) ?? `${file}.adops-journal.ndjson`;
  const journal = new Journal(o.dryRun === true ? undefined : journalPath);
  const byLine = new Map(rows.map((r) => [r.line, r]));
  const writer = new ListWriter(await prepareOutput(ctx, 'mutation-apply'));
  const print = async (outcomes: readonly RowOutcome[]) => {
    await writer.page(
      outcomes.map((x) => {
        const body = byLine.get(x.line)!.body;
        return { row: x.line, action: body.action, target: targetText(body), mutationId: x.mutationId ?? null, state: x.state, sent: x.earlier ? 'earlier run' : x.mutationId ? 'this run' : 'no', error: x.error ?? null };
      }),
    );
    await writer.end();
  };

  if (o.dryRun === true) {
    // Read the journal too: the plan says which rows a real run would skip.
    const seen = new Journal(journalPath);
    const ids = rowIds(rows.map((r) => r.body));
    ctx.note(`dry run: ${rows.length} row(s) valid; nothing sent`);
    await print(rows.map((r, i) => {
      const prior = seen.get(ids[i]!);
      if (prior?.mutationId && prior.state === 'failed' && o.retryFailed === true) return { line: r.line, row: ids[i]!, state: 'failed earlier: would send again as a new change' };
      if (prior?.mutationId) return { line: r.line, row: ids[i]!, state: prior.state ?? 'pending', mutationId: prior.mutationId, earlier: true };
      return { line: r.line, row: ids[i]!, state: prior ? 'in doubt: would resend with its key' : 'would send' };
    }));
    return EXIT.ok;
  }

  try {
    // Before any POST: a journal we cannot write would leave no way to resume safely.
    closeSync(openSync(journalPath, 'a', 0o600));
  } catch (err) {
    throw new UsageError(`cannot write the journal ${journalPath} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 'choose another place with --journal PATH; nothing was sent');
  }
  const client = await ctx.client();
  ctx.note(`applying ${rows.length} row(s), ${concurrency} at a time; journal: ${journalPath}`);
  let outcomes: RowOutcome[];
  try {
    outcomes = await applyRows(client, rows, { journal, concurrency, signal: ctx.signal, onNote: (m) => ctx.note(m), retryFailed: o.retryFailed === true, now: ctx.clock.now, sleep: ctx.clock.sleep });
    if (o.wait === true) {
      ctx.note('waiting for every started change to finish');
      await waitRows(client, outcomes, {
        journal,
        concurrency,
        timeoutMs: ((o.timeout as number | undefined) ?? 300) * 1000,
        intervalMs: Math.max(0.05, (o.interval as number | undefined) ?? 2) * 1000,
        now: ctx.clock.now,
        sleep: ctx.clock.sleep,
        signal: ctx.signal,
      });
    }
  } catch (err) {
    if (ctx.signal.aborted) ctx.note(`interrupted; what was started is in ${journalPath}. Run the same command again to resume: nothing is sent twice.`);
    throw err;
  }
  await print(outcomes);
  const code = exitCode(outcomes, o.wait === true);
  const failed = outcomes.filter((x) => x.state === 'failed').length;
  if (failed) ctx.note(`${failed} change(s) failed and changed nothing; \`--retry-failed\` sends them again as new changes`);
  if (outcomes.some((x) => !x.mutationId)) ctx.note('rows without a mutation were not started; run the same command again to send them (rows in doubt with their recorded keys, so nothing is made twice)');
  return code;
}
