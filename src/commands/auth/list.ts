// adops auth list: every stored profile with its base URL, masked key,
// organization when known, and which one is the default. Never a key in full.
import { maskKey } from '../../client/redact.js';
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import { DEFAULT_BASE_URL } from '../../config/resolve.js';
import { DEFAULT_PROFILE } from '../../state/config-store.js';

export async function run(ctx: CommandContext): Promise<number> {
  const data = ctx.config.read();
  const current = data.currentProfile ?? DEFAULT_PROFILE;
  const rows = Object.entries(data.profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => ({
      name,
      default: name === current,
      baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
      key: p.apiKey ? maskKey(p.apiKey) : null,
      organization: p.organization ?? null,
    }));
  const writer = new ListWriter(await prepareOutput(ctx, 'profile'));
  await writer.page(rows);
  await writer.end();
  if (ctx.env.ADOPS_PROFILE) ctx.note(`ADOPS_PROFILE=${ctx.env.ADOPS_PROFILE} is set and overrides the default profile in this shell`);
  if (rows.length === 0) ctx.note('no profiles yet: `adops auth login` or `adops sandbox serve --login` creates one');
  return EXIT.ok;
}
