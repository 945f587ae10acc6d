import { completionScript, isShell, SHELLS } from '../cli/completion.js';
import type { CommandContext } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import type { CommandInput } from '../cli/registry.js';

export function run(ctx: CommandContext, input: CommandInput<object, { shell: string }>): Promise<number> {
  const { shell } = input.args;
  if (!isShell(shell)) throw new UsageError(`unknown shell "${shell}"`, `use one of ${SHELLS.join(', ')}`);
  ctx.io.stdout.write(completionScript(ctx.registry, shell));
  return Promise.resolve(0);
}
