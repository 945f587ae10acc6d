// adops mutations watch ID: poll a mutation you started until it ends (as
// `mutations get ID --wait`); the command Ctrl-C and timeouts point back to.
import type { CommandContext } from '../../cli/context.js';
import type { CommandInput } from '../../cli/registry.js';
import { startFlags, waitForMutation, writerFor, type StartOptions } from './_start.js';

export async function run(ctx: CommandContext, input: CommandInput<StartOptions, { id: string }>): Promise<number> {
  const id = input.args.id;
  return waitForMutation(ctx, await ctx.client(), id, startFlags(input.opts), await writerFor(ctx));
}
