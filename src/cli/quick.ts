// The help pages that need no command and no registry: the top page and (given
// the pages rendered at build time, help-pages.ts) a group's or command's page,
// for a help decision of route.ts. bin/adops.js requires the CommonJS bundle of
// this file (dist/bundle/quick.cjs), so a help page never starts Node's ESM
// loader; main.ts uses it too, so the ESM path answers the same. Keep its
// imports small: they are all in that bundle.
import { topHelp } from './help.js';
import type { HelpRoute } from './route.js';
import { TOP_LEVEL } from './top-level.js';

/**
 * The page for a help decision: the top page (`adops`, `adops --help`, `adops help`), or, when `helpPages` is
 * given (the pages under a first word), a known group's or command's (`adops observe campaigns --help`,
 * `adops help sandbox`). undefined for what main.ts answers from the registry: the command tree
 * (`adops help --json`), the top page with --json, an unknown command's help (an error).
 */
export function helpPage(help: HelpRoute, version: () => string, helpPages?: (first: string) => Readonly<Record<string, string>>): string | undefined {
  if (help.tree) return undefined;
  if (help.words.length === 0) return help.json ? undefined : topHelp(TOP_LEVEL, version());
  if (!helpPages) return undefined;
  // The longest prefix of the words that names a group or command, as Registry.find.
  const pages = helpPages(help.words[0]!);
  for (let n = Math.min(help.words.length, 5); n > 0; n--) {
    const key = help.words.slice(0, n).join(' ');
    if (Object.hasOwn(pages, key)) return pages[key];
  }
  return undefined;
}
