// The answers that need no command and no registry: `--version`, the top
// help page, and (given the pages rendered at build time, help-pages.ts) the
// help of a group or command. bin/adops.js requires the CommonJS bundle of this file
// (dist/bundle/quick.cjs), so these two never start Node's ESM loader; main.ts
// uses it too, so the ESM path answers the same. Keep its imports small: they
// are all in that bundle.
import { preParse } from './argv.js';
import { topHelp } from './help.js';
import { TOP_LEVEL } from './top-level.js';

/**
 * Text for `--version`, the top help page (`adops`, `adops --help`, `adops help`), or, when `helpPages`
 * is given (the pages under a first word), a known group's or command's help (`adops observe campaigns --help`, `adops help sandbox`);
 * undefined otherwise (an unknown command's help is an error main.ts reports).
 */
export function quickAnswer(
  argv: readonly string[],
  version: () => string,
  helpPages?: (first: string) => Readonly<Record<string, string>>,
): string | undefined {
  const pre = preParse(argv);
  if (pre.version && pre.words.length === 0) return version() + '\n';
  const isHelpWord = pre.words[0] === 'help';
  const words = isHelpWord ? pre.words.slice(1) : pre.words;
  if (!(pre.help || isHelpWord || pre.words.length === 0)) return undefined;
  if (words.length === 0) return pre.json ? undefined : topHelp(TOP_LEVEL, version());
  if (!helpPages || (isHelpWord && pre.json)) return undefined;
  // The longest prefix of the words that names a group or command, as Registry.find.
  const pages = helpPages(words[0]!);
  for (let n = Math.min(words.length, 5); n > 0; n--) {
    const key = words.slice(0, n).join(' ');
    if (Object.hasOwn(pages, key)) return pages[key];
  }
  return undefined;
}
