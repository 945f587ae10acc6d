// `adops plans line-items validate PLAN LI`: the validation object on stdout,
// and an exit code a script can branch on: 0 valid, 7 not valid (the service
// judged the content and refused it), the reasons on stderr.
import type { CommandContext } from '../../cli/context.js';
import { CliError } from '../../cli/errors.js';
import { commandLine } from '../../contract/command-line.js';
import { EXIT } from '../../cli/exit-codes.js';
import type { OperationCommandData, OperationInput } from '../_shared/operation-data.js';
import { prepareOutput, writeObject } from '../../cli/output/writers.js';
import { checkAnswer } from '../../client/answer-check.js';
import { buildRequest } from '../_shared/request-input.js';
import { problemLines } from './problems.js';

export async function run(ctx: CommandContext, input: OperationInput, data: OperationCommandData): Promise<number> {
  const out = await prepareOutput(ctx, data.resource);
  const req = await buildRequest(ctx, input, data);
  const client = await ctx.client();
  // Valid or not decides the exit code: `valid` and `problems` are checked first (else unexpected_answer, exit 1).
  const body = await checkAnswer(
    'validation',
    await client.call('validateLineItem', { params: { slug: req.params.slug!, lineItemId: req.params.lineItemId! } }, { signal: ctx.signal }),
  );
  await writeObject(body, out);
  if (body.valid) return EXIT.ok;
  const what = `line item ${req.params.lineItemId} of plan ${req.params.slug}`;
  ctx.note(`${what} is not valid:`);
  for (const line of problemLines(body.problems)) ctx.note(line);
  throw new CliError(
    `${what} is not valid (${body.problems?.length ?? 0} problem${body.problems?.length === 1 ? '' : 's'})`,
    EXIT.refused,
    `fix it with \`${commandLine('updateLineItem', req.params)} …\`, then validate again`,
    'line_item_invalid',
  );
}
