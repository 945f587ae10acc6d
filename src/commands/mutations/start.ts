// adops mutations start: the generic form (any body, -f/-F/--input), through the
// same start flow as the named actions: Idempotency-Key, resend with the same
// key after a lost answer, exit 10 when it cannot tell; --dry-run; --wait.
import type { CommandContext } from '../../cli/context.js';
import type { OperationCommandData, OperationInput } from '../_shared/operation-data.js';
import { buildRequest } from '../_shared/request-input.js';
import { startAndReport, startFlags, type StartOptions } from './_start.js';

export async function run(ctx: CommandContext, input: OperationInput<StartOptions>, data: OperationCommandData): Promise<number> {
  const { body } = await buildRequest(ctx, input, data);
  return startAndReport(ctx, body ?? {}, startFlags(input.opts));
}
