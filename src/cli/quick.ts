// The answers that need no command and no registry: `--version` and the top
// help page. bin/adops.js requires the CommonJS bundle of this file
// (dist/bundle/quick.cjs), so these two never start Node's ESM loader; main.ts
// uses it too, so the ESM path answers the same. Keep its imports small: they
// are all in that bundle.
import { preParse } from './argv.js';
import { topHelp } from './help.js';
import { TOP_LEVEL } from './top-level.js';

/** Text for `--version` or the top help page (`adops`, `adops --help`, `adops help`); undefined otherwise. */
export function quickAnswer(argv: readonly string[], version: () => string): string | undefined {
  const pre = preParse(argv);
  if (pre.version && pre.words.length === 0) return version() + '\n';
  const isHelpWord = pre.words[0] === 'help';
  const words = isHelpWord ? pre.words.slice(1) : pre.words;
  if ((pre.help || isHelpWord || pre.words.length === 0) && words.length === 0 && !pre.json) return topHelp(TOP_LEVEL, version());
  return undefined;
}
