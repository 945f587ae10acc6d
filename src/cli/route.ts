// The one entry decision (#26): what answers this argv. bin/adops.js asks it first
// (dist/bundle/route.cjs, CommonJS, so `--version` never starts the ESM loader),
// main.ts asks it again when main.js runs alone, and the stored-read bundle
// (commands/observe/fast-read.ts) before it reads anything. Each acts on the
// answer it is given and decides nothing of its own: the help, version, CI,
// terminal and proxy checks live here (and in terminal.ts, client/proxy-variables.ts).
// commander stays the parser of the whole tree: this recognises a few shapes
// (preParse, argv.ts) and sends everything else to the full CLI, which parses
// it and says what is wrong.
import { proxyVariableSet } from '../client/proxy-variables.js';
import { preParse } from './argv.js';
import { drawsOnStderr } from './terminal.js';

export type Route =
  /**
   * `adops __complete …` (and `__complete-describe …`, `__complete-refresh …`): the shell's TAB and its background
   * refresh, answered by complete.ts before any help or version of their words.
   */
  | { kind: 'complete' }
  /** `adops --version` (`-V`), with no command word; `adops version` alone (as gh's): the same text. */
  | { kind: 'version' }
  /** A help page (quick.ts, help-pages.ts), or the command tree when `tree` (`adops help --json`). */
  | HelpRoute
  /** `adops observe <resource> …`: the stored-read bundle may run it; argv it does not read plainly it hands to the full CLI. */
  | { kind: 'stored-read' }
  /** `adops assets sync …`: the sync's own bundle may run it (a re-run's start-up, #37); what it declines goes to the full CLI. */
  | { kind: 'sync' }
  /** `adops mutations apply …`: apply's own bundle may run it (a file of changes' start-up, #37); what it declines goes to the full CLI. */
  | { kind: 'apply' }
  /** Everything else: the full CLI (commander parses it). */
  | { kind: 'cli' };

export interface HelpRoute {
  kind: 'help';
  /** The command words the help is for (after `help`, when that word came first): [] for the top page. */
  words: string[];
  /** `adops help --json`: the command tree as JSON, not a page. */
  tree: boolean;
  /** --json (or --output json) was given. */
  json: boolean;
}

/**
 * What answers argv, given the environment and whether stderr is a terminal (asked only when it matters:
 * node:tty costs a few ms, and `--version` must stay at bare node's start-up).
 */
export function route(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, stderrIsTTY: () => boolean): Route {
  if (argv[0] === '__complete' || argv[0] === '__complete-describe' || argv[0] === '__complete-refresh') return { kind: 'complete' };
  const pre = preParse(argv);
  if ((pre.version && pre.words.length === 0) || (argv.length === 1 && argv[0] === 'version')) return { kind: 'version' };
  const helpWord = pre.words[0] === 'help';
  if (pre.help || helpWord || pre.words.length === 0) {
    return { kind: 'help', words: helpWord ? pre.words.slice(1) : pre.words, tree: helpWord && pre.json, json: pre.json };
  }
  const bundled = bundleFor(argv);
  // -V after a command's words (commander's error) stays out of the bundle, as help does (answered above).
  if (bundled && !pre.version && !bundleDeclined(env, stderrIsTTY)) return { kind: bundled };
  return { kind: 'cli' };
}

/** The one-command bundle whose words argv starts with: a stored read (`observe …`), a sync, apply. */
function bundleFor(argv: readonly string[]): 'stored-read' | 'sync' | 'apply' | undefined {
  if (argv[0] === 'observe') return 'stored-read';
  if (argv[0] === 'assets' && argv[1] === 'sync') return 'sync';
  if (argv[0] === 'mutations' && argv[1] === 'apply') return 'apply';
  return undefined;
}

/**
 * The environment alone rules a run out of a one-command bundle (the stored read's, the sync's, apply's), which holds neither:
 * on a terminal's stderr (outside CI) a spinner may turn, or a prompt or a picker ask; through a proxy an https
 * request tunnels (node:tls).
 */
function bundleDeclined(env: Readonly<Record<string, string | undefined>>, stderrIsTTY: () => boolean): boolean {
  return proxyVariableSet(env) || drawsOnStderr(env, stderrIsTTY);
}
