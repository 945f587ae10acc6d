// adops sandbox keys: the demo keys in full. They are public fixtures of the
// local sandbox (the help says so), unlike a real key, which is never printed.
import type { CommandContext } from '../../cli/context.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import type { CommandInput } from '../../cli/registry.js';
import { showWhole } from '../../client/redact.js';

export async function run(ctx: CommandContext, input: CommandInput<{ data?: string; fixtures?: string }>): Promise<number> {
  const { readKeys } = await import('../../sandbox/index.js');
  const keys = await readKeys({
    env: ctx.env,
    note: ctx.note,
    ...(input.opts.data !== undefined ? { data: input.opts.data } : {}),
    ...(input.opts.fixtures !== undefined ? { fixtures: input.opts.fixtures } : {}),
  });
  // The output boundary masks every key-shaped text; these are public, and what the person asked for.
  for (const k of keys) showWhole(k.key);
  const writer = new ListWriter(await prepareOutput(ctx, 'keys'));
  await writer.begin();
  await writer.page(keys.map((k) => ({ ...k })));
  await writer.end();
  return 0;
}
