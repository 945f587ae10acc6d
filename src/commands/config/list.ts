import type { CommandContext } from '../../cli/context.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import { CONFIG_KEYS, readValue } from './keys.js';

export async function run(ctx: CommandContext): Promise<number> {
  const rows = CONFIG_KEYS.map((key) => ({ key, ...readValue(ctx, key) }));
  const writer = new ListWriter(await prepareOutput(ctx, 'config'));
  await writer.begin();
  await writer.page(rows);
  await writer.end();
  return 0;
}
