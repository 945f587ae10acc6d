// adops auth logout: forget the stored key (the base URL stays).
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import type { CommandInput } from '../../cli/registry.js';

export async function run(ctx: CommandContext, input: CommandInput<{ allProfiles?: boolean }>): Promise<number> {
  const profile = ctx.auth().profile;
  const all = input.opts.allProfiles === true;
  let removed = 0;
  await ctx.config.update((d) => {
    for (const [name, p] of Object.entries(d.profiles)) {
      if ((all || name === profile) && p.apiKey) {
        delete p.apiKey;
        removed++;
      }
    }
  });
  ctx.note(removed ? `Logged out: removed ${removed} stored key${removed > 1 ? 's' : ''}` : `No stored key for profile "${profile}"`);
  if (ctx.env.ADOPS_API_KEY) ctx.warn('ADOPS_API_KEY is still set in the environment and will keep being used');
  return EXIT.ok;
}
