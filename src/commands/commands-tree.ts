import type { CommandContext } from '../cli/context.js';
import { commandReference } from '../cli/docs.js';
import { drawsForTerminal } from '../cli/output/writers/formats.js';
import type { CommandInput } from '../cli/registry.js';

export function run(ctx: CommandContext, input: CommandInput<{ markdown?: boolean }>): Promise<number> {
  const { registry } = ctx;
  if (input.opts.markdown === true) ctx.io.stdout.write(commandReference(registry));
  else if (drawsForTerminal(ctx.output.format)) {
    const rows = registry.commands.filter((c) => !c.hidden).map((c) => `adops ${c.path.join(' ')}`.padEnd(32) + c.description);
    ctx.io.stdout.write(rows.join('\n') + '\n');
  } else ctx.io.stdout.write(JSON.stringify(registry.tree(), null, 2) + '\n');
  return Promise.resolve(0);
}
