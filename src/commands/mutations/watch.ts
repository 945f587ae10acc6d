// adops mutations watch ID: poll a mutation you started until it ends (as
// `mutations get ID --wait`); the command Ctrl-C and timeouts point back to.
import type { CommandContext } from '../../cli/context.js';
import type { CommandInput } from '../../cli/registry.js';
import { startFlags, waitForMutation, writerFor } from './_start.js';

export async function run(ctx: CommandContext, input: CommandInput): Promise<number> {
  const id = String(input.args.id ?? '');
  return waitForMutation(ctx, await ctx.client(), id, startFlags(input.opts), await writerFor(ctx));
}
