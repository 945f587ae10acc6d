// `adops observe drift ACC`: the stored copy against the live read, one row
// per difference (flows/drift.ts pages both sides). --exit-code makes drift a
// non-zero exit for cron jobs, as `git diff --exit-code` does.
import { ApiError } from '../../client/errors.js';
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import { lineText } from '../../cli/output/sanitize.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import { withHint } from '../../cli/report.js';
import type { CommandInput } from '../../cli/registry.js';
import { isOneOf } from '../../cli/known-words.js';
import { ADVERTISER_PREFIX } from '../../contract/ids.js';
import { comparableFields, drift, DRIFT_FIELDS, NOT_STORED, type DriftField, type DriftLevel } from '../../flows/drift.js';

/** --compare, checked against what the level's stored copy can carry. */
export function comparedFields(level: DriftLevel, asked: readonly string[] | undefined): DriftField[] {
  const comparable = comparableFields(level);
  if (asked === undefined) return comparable;
  if (asked.length === 0) throw new UsageError('--compare names no field', `compare any of: ${comparable.join(', ')}`);
  for (const f of asked) {
    if (!isOneOf(DRIFT_FIELDS, f)) throw new UsageError(`--compare ${f}: not a compared field`, `compare any of: ${comparable.join(', ')}`);
    if (NOT_STORED[level].includes(f)) {
      throw new UsageError(
        `--compare ${f}: the stored ${level} never carry ${f} (the service leaves it null there), so it cannot drift`,
        `compare any of: ${comparable.join(', ')}`,
      );
    }
  }
  return comparable.filter((f) => asked.includes(f));
}

export async function run(
  ctx: CommandContext,
  input: CommandInput<{ level: DriftLevel; compare?: string[]; exitCode?: boolean }, { advertiser: string }>,
): Promise<number> {
  const advertiserId = input.args.advertiser;
  if (!advertiserId.startsWith(ADVERTISER_PREFIX) || advertiserId.length === ADVERTISER_PREFIX.length) {
    throw new UsageError(`advertiser "${advertiserId}" is not an advertiser id`, `advertiser ids start with ${ADVERTISER_PREFIX}`);
  }
  const { level } = input.opts;
  const fields = comparedFields(level, input.opts.compare);
  const out = await prepareOutput(ctx, 'drift');
  const client = await ctx.client();
  const writer = new ListWriter(out);
  const spinner = await ctx.spinner('Comparing the stored and live copies…');
  await writer.begin();
  try {
    const onUnstored = (provider: string) => {
      spinner.stop();
      const noun = level === 'ad-groups' ? 'ad groups' : level;
      ctx.note(
        `the stored copy does not hold ${lineText(provider)} ${noun} (only provider_a, provider_b and provider_c are stored): the live ${noun} of ${advertiserId} are not compared, nor counted as drift`,
      );
    };
    for await (const rows of drift(client, { advertiserId, level, fields, signal: ctx.signal, onUnstored })) {
      spinner.stop();
      await writer.page(rows);
    }
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'live_read_unsupported' || err.code === 'provider_not_connected')) {
      throw withHint(err, `drift needs a live read of ${advertiserId}; the stored copy alone answers: \`adops observe ${level} --advertiser ${advertiserId}\``);
    }
    throw err;
  } finally {
    spinner.stop();
    await writer.end();
  }
  return input.opts.exitCode === true && writer.rowsWritten > 0 ? EXIT.drift : EXIT.ok;
}
