// Every group's and command's help page, keyed by its path ('observe campaigns
// list'). scripts/build.mjs renders them once, at build time, into
// dist/bundle/help-pages.cjs: `adops <group> <cmd> --help` is then answered by
// bin/adops.js (through quick.cjs) from that file, without the ESM loader, the
// registry's definition files or the contract (#16). The pages are the same
// functions of the registry's data that help.ts renders at run time.
import { commandHelp, groupHelp } from './help.js';
import type { Registry } from './registry.js';

export function allHelpPages(registry: Registry): Record<string, string> {
  const pages: Record<string, string> = {};
  for (const g of registry.groups) pages[g.path.join(' ')] = groupHelp(registry, g.path, g.description);
  for (const c of registry.commands) pages[c.path.join(' ')] = commandHelp(c);
  return pages;
}
