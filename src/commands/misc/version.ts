// `adops version` (gh has it): the text of `adops --version`, which bin/adops.js prints
// from the entry decision (route.ts) when the word comes alone; here with options.
// --json (or a JSON format) adds what a bug report wants beside it, as the User-Agent carries it.
import type { CommandContext } from '../../cli/context.js';
import { writesJson } from '../../cli/output/writers/formats.js';

export function run(ctx: CommandContext): Promise<number> {
  const json = ctx.output.explicit && writesJson(ctx.output.format);
  ctx.io.stdout.write(
    json
      ? JSON.stringify({ version: ctx.version, node: process.versions.node, platform: `${process.platform}-${process.arch}` }, null, 2) + '\n'
      : ctx.version + '\n',
  );
  return Promise.resolve(0);
}
