import type { CommandContext } from '../../cli/context.js';
import { ListWriter } from '../../cli/output/writers.js';
import { checkFields } from '../../cli/output/format.js';
import { CONFIG_KEYS, readValue } from './keys.js';

export async function run(ctx: CommandContext): Promise<number> {
  const rows = CONFIG_KEYS.map((key) => ({ key, ...readValue(ctx, key) }));
  const writer = new ListWriter({ format: ctx.output.format, out: ctx.io.stdout, resource: 'config', fields: checkFields(ctx.output.fields, 'config'), color: ctx.output.color });
  await writer.begin();
  await writer.page(rows);
  await writer.end();
  return 0;
}
