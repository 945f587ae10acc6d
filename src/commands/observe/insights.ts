// `adops observe insights`: the generic list, then (on a terminal, with
// --chart METRIC) a chart of that metric over time under the table; when the
// range holds no data, say which range the store does hold.
import type { CommandContext } from '../../cli/context.js';
import type { CommandInput, CommandSpec } from '../../cli/registry.js';
import { run as runOperation } from '../operation.js';

export async function run(ctx: CommandContext, input: CommandInput, command: CommandSpec): Promise<number> {
  return runOperation(ctx, input, command);
}
