// `adops observe <resource> list`: the generic list, plus what a live read
// needs when the provider cannot answer it live (501 live_read_unsupported,
// a permanent answer): name the stored read that answers instead, and with
// --fallback-stored run it.
import { ApiError } from '../../client/errors.js';
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { withHint } from '../../cli/report.js';
import { camel, type CommandSpec } from '../../cli/registry.js';
import type { OperationCommandData, OperationInput, OperationOptions } from '../_shared/operation-data.js';
import { run as runOperation } from '../operation.js';
import { asText } from '../../cli/output/sanitize.js';

/** The stored read that answers what a live read could not: the same filters, the advertiser as a filter. */
export function storedEquivalent(
  command: CommandSpec,
  data: OperationCommandData,
  input: OperationInput,
  live: string,
): { opts: OperationOptions; line: string } {
  const { live: _live, ...rest } = input.opts;
  const opts: OperationOptions = { ...rest, advertiser: live };
  const kept = data.flags.filter((f) => f.flag !== 'advertiser' && opts[camel(f.flag)] !== undefined).map((f) => ` --${f.flag} ${String(opts[camel(f.flag)])}`);
  return { opts, line: `adops ${command.path.join(' ')} --advertiser ${live}${kept.join('')}` };
}

export async function run(
  ctx: CommandContext,
  input: OperationInput<{ fallbackStored?: boolean }>,
  data: OperationCommandData,
  command: CommandSpec,
): Promise<number> {
  const fallback = input.opts.fallbackStored === true;
  if (fallback && input.opts.live === undefined) throw new UsageError('--fallback-stored goes with --live', 'without --live the stored copy is read anyway');
  try {
    return await runOperation(ctx, input, data, command);
  } catch (err) {
    const { live } = input.opts;
    if (!(err instanceof ApiError) || err.code !== 'live_read_unsupported' || typeof live !== 'string') throw err;
    const stored = storedEquivalent(command, data, input, live);
    if (!fallback) {
      throw withHint(err, `the stored copy answers instead: \`${stored.line}\` (or add --fallback-stored)`);
    }
    ctx.note(
      `${err.extra.provider ? asText(err.extra.provider) : 'the provider'} cannot read this live (${err.message}); reading the stored copy instead: ${stored.line}`,
    );
    return runOperation(ctx, { args: input.args, opts: stored.opts }, data, command);
  }
}
