// adops mutations start: the generic form (any body, -f/-F/--input), through the
// same start flow as the named actions: Idempotency-Key, resend with the same
// key after a lost answer, exit 10 when it cannot tell; --dry-run; --wait.
import type { CommandContext } from '../../cli/context.js';
import type { OperationCommandData } from '../_shared/operation-data.js';
import type { CommandInput, CommandSpec } from '../../cli/registry.js';
import { buildRequest } from '../_shared/request-input.js';
import { startAndReport, startFlags } from './_start.js';

export async function run(ctx: CommandContext, input: CommandInput, command: CommandSpec): Promise<number> {
  const { body } = await buildRequest(ctx, input, command.data as OperationCommandData);
  return startAndReport(ctx, body ?? {}, startFlags(input.opts));
}
