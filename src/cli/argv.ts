// A small pre-parse of argv for the entry decision (route.ts: help, version),
// which must not load commander: which command words were given, ignoring
// options and the values of global options that take one.
import { GLOBAL_OPTIONS } from './registry.js';

// The flags of the global options that take a value ('-o, --output <format>' -> -o, --output). String
// operations, not regular expressions: this runs on every start, `--version` included (route.cjs), and
// compiling the three patterns it used cost a tenth of a millisecond there.
const VALUE_GLOBALS = new Set(
  GLOBAL_OPTIONS.filter((o) => o.flags.includes('<') || o.flags.includes('[')).flatMap((o) =>
    o.flags
      .split(' ')
      .filter((word) => word.startsWith('-'))
      .map((flag) => (flag.endsWith(',') ? flag.slice(0, -1) : flag)),
  ),
);

export interface PreParsed {
  words: string[];
  help: boolean;
  version: boolean;
  json: boolean;
}

export function preParse(argv: readonly string[]): PreParsed {
  const words: string[] = [];
  let help = false;
  let version = false;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') break;
    if (token === '-h' || token === '--help') help = true;
    else if (token === '-V' || token === '--version') version = true;
    else if (token === '--json' || token === '--output=json' || ((token === '-o' || token === '--output') && argv[i + 1] === 'json')) json = true;
    if (token.startsWith('-')) {
      if (VALUE_GLOBALS.has(token)) i++;
      continue;
    }
    words.push(token);
  }
  return { words, help, version, json };
}
