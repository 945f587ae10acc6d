import type { CommandContext } from '../../cli/context.js';
import type { CommandInput } from '../../cli/registry.js';
import { applyValue, checkKey } from './keys.js';

export async function run(ctx: CommandContext, input: CommandInput<object, { key: string; value: string }>): Promise<number> {
  const { key, value } = input.args;
  checkKey(key);
  const profile = ctx.auth().profile;
  await ctx.config.update((d) => applyValue(d, profile, key, value));
  ctx.note(`${key} = ${value}${key === 'base-url' ? ` (profile "${profile}")` : ''}`);
  return 0;
}
