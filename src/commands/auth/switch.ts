// adops auth switch NAME: make a stored profile the default.
import type { CommandContext } from '../../cli/context.js';
import { CliError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import type { CommandInput } from '../../cli/registry.js';
import { checkProfileName } from '../../config/profile-name.js';

export async function run(ctx: CommandContext, input: CommandInput<object, { name: string }>): Promise<number> {
  const name = checkProfileName(input.args.name);
  const known = Object.keys(ctx.config.read().profiles);
  if (!known.includes(name)) {
    throw new CliError(
      `no profile named "${name}"`,
      EXIT.usage,
      `${known.length ? `known profiles: ${known.join(', ')}; ` : ''}create it with \`adops auth login --profile ${name}\``,
      'unknown_profile',
    );
  }
  await ctx.config.update((d) => {
    d.currentProfile = name;
  });
  ctx.note(`Default profile is now "${name}"`);
  if (ctx.env.ADOPS_PROFILE && ctx.env.ADOPS_PROFILE !== name) ctx.warn(`ADOPS_PROFILE=${ctx.env.ADOPS_PROFILE} is set and still wins in this shell`);
  return EXIT.ok;
}
