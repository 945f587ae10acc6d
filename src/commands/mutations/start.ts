// adops mutations start: POST /mutations through the start flow (Idempotency-Key,
// and after a lost answer a look in the history before any resend), then
// optionally watch it to its end like `mutations get --wait`.
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import type { OperationCommandData } from '../../cli/operation-command.js';
import { prepareOutput, writeObject } from '../../cli/output/writers.js';
import type { CommandInput, CommandSpec } from '../../cli/registry.js';
import { fillPath, operation } from '../../contract/operations.js';
import { startMutation } from '../../flows/mutation-start.js';
import { buildRequest } from '../_shared/request-input.js';
import { waitAndReport } from '../_shared/wait.js';

export async function run(ctx: CommandContext, input: CommandInput, command: CommandSpec): Promise<number> {
  const o = input.opts;
  const out = await prepareOutput(ctx, 'mutation');
  const { body } = await buildRequest(ctx, input, command.data as OperationCommandData);

  const client = await ctx.client();
  const started = await startMutation(client, body ?? {}, {
    signal: ctx.signal,
    onNote: (m) => ctx.note(m),
    ...(o.idempotencyKey !== undefined ? { idempotencyKey: o.idempotencyKey as string } : {}),
  });
  const id = started.mutation.id;
  if (o.wait !== true || typeof id !== 'string') {
    await writeObject(started.mutation, out);
    return EXIT.ok;
  }
  ctx.note(`started ${id}; waiting for it to finish`);
  const path = fillPath(operation('getMutation').path, { id });
  const fetch = async () => (await client.request({ method: 'GET', path, signal: ctx.signal })).body;
  return waitAndReport(ctx, fetch, { timeoutSeconds: o.timeout as number | undefined, intervalSeconds: o.interval as number | undefined, again: `adops mutations get ${id} --wait` }, out);
}
