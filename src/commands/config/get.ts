import type { CommandContext } from '../../cli/context.js';
import type { CommandInput } from '../../cli/registry.js';
import { checkKey, readValue } from './keys.js';
import { jsonText, lineText } from '../../cli/output/sanitize.js';
import { writesJson } from '../../cli/output/writers/formats.js';

export function run(ctx: CommandContext, input: CommandInput<object, { key: string }>): Promise<number> {
  const { key } = input.args;
  checkKey(key);
  const { value } = readValue(ctx, key);
  // A bare value for scripts (`$(adops config get output)`); JSON only when asked for.
  const json = ctx.globals.json === true || (ctx.globals.output !== undefined && writesJson(ctx.globals.output));
  // The value comes from a file or the environment: through the boundary (a base URL's password masked).
  ctx.io.stdout.write((json ? jsonText(value) : value === null ? '' : lineText(value)) + '\n');
  return Promise.resolve(0);
}
