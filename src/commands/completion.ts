import { completionScript, SHELLS, type Shell } from '../cli/completion.js';
import type { CommandContext } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import type { CommandInput } from '../cli/registry.js';

export async function run(ctx: CommandContext, input: CommandInput): Promise<number> {
  const shell = String(input.args.shell);
  if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`unknown shell "${shell}"`, `use one of ${SHELLS.join(', ')}`);
  ctx.io.stdout.write(completionScript(ctx.registry, shell as Shell));
  return 0;
}
