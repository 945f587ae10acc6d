// `adops observe <resource> list`: the generic list, plus what a live read
// needs when the provider cannot answer it live (501 live_read_unsupported,
// a permanent answer): name the stored read that answers instead, and with
// --fallback-stored run it.
import { ApiError } from '../../client/errors.js';
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { withHint } from '../../cli/report.js';
import { camel, type CommandInput, type CommandSpec } from '../../cli/registry.js';
import type { OperationCommandData } from '../_shared/operation-data.js';
import { run as runOperation } from '../operation.js';

/** The stored read that answers what a live read could not: the same filters, the advertiser as a filter. */
export function storedEquivalent(command: CommandSpec, input: CommandInput): { opts: Record<string, unknown>; line: string } {
  const data = command.data as OperationCommandData;
  const live = input.opts.live as string;
  const opts: Record<string, unknown> = { ...input.opts, advertiser: live };
  delete opts.live;
  const kept = data.flags.filter((f) => f.flag !== 'advertiser' && opts[camel(f.flag)] !== undefined).map((f) => ` --${f.flag} ${String(opts[camel(f.flag)])}`);
  return { opts, line: `adops ${command.path.join(' ')} --advertiser ${live}${kept.join('')}` };
}

export async function run(ctx: CommandContext, input: CommandInput, command: CommandSpec): Promise<number> {
  const fallback = input.opts.fallbackStored === true;
  if (fallback && input.opts.live === undefined) throw new UsageError('--fallback-stored goes with --live', 'without --live the stored copy is read anyway');
  try {
    return await runOperation(ctx, input, command);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'live_read_unsupported' || input.opts.live === undefined) throw err;
    const stored = storedEquivalent(command, input);
    if (!fallback) {
      throw withHint(err, `the stored copy answers instead: \`${stored.line}\` (or add --fallback-stored)`);
    }
    ctx.note(`${err.extra.provider ? String(err.extra.provider) : 'the provider'} cannot read this live (${err.message}); reading the stored copy instead: ${stored.line}`);
    return runOperation(ctx, { args: input.args, opts: stored.opts }, command);
  }
}
