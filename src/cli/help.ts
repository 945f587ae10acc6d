// Help pages rendered from the registry (not by commander), so `adops --help`
// loads no command module and no dependency. Plain text, no colour, no pager.
import { exitCodeHelp, ownExitLines } from './exit-codes.js';
import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec, type Registry } from './registry.js';

function optionLines(options: readonly OptionSpec[]): string[] {
  const shown = options.filter((o) => !o.hidden);
  const width = Math.min(34, Math.max(...shown.map((o) => o.flags.length), 0) + 2);
  return shown.map((o) => {
    const choices = o.choices ? ` (${o.choices.join('|')})` : '';
    const dflt = o.defaultValue !== undefined ? ` [default: ${o.defaultValue}]` : '';
    return `  ${o.flags.padEnd(width)}${o.description}${choices}${dflt}`;
  });
}

function listLines(items: ReadonlyArray<{ name: string; description: string }>): string[] {
  const width = Math.max(...items.map((i) => i.name.length), 0) + 3;
  return items.map((i) => `  ${i.name.padEnd(width)}${i.description}`);
}

export function usageLine(c: CommandSpec): string {
  const args = (c.args ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
  return `adops ${c.path.join(' ')}${args ? ' ' + args : ''}${(c.options ?? []).length ? ' [options]' : ''}`;
}

/** The options of `adops` itself: the global ones, and --version and --help (the top page, the man page). */
export const TOP_OPTIONS: readonly OptionSpec[] = [
  ...GLOBAL_OPTIONS,
  { flags: '-V, --version', description: 'print the version' },
  { flags: '-h, --help', description: 'help for a command' },
];

export function topHelp(entries: ReadonlyArray<{ name: string; description: string }>, version: string): string {
  return [
    `adops ${version}: the Advertising Operations service from the command line`,
    '',
    'Usage: adops <command> [subcommand] [options]',
    '',
    'Commands:',
    ...listLines(entries),
    '',
    'Global options:',
    ...optionLines(TOP_OPTIONS),
    '',
    'Environment: ADOPS_API_KEY, ADOPS_BASE_URL, ADOPS_PROFILE, ADOPS_CONFIG_DIR, ADOPS_DEBUG, NO_COLOR, CI',
    '',
    exitCodeHelp(),
    '',
    'Run `adops <command> --help` for its flags; `adops help --json` prints the command tree.',
    '',
  ].join('\n');
}

/**
 * A group's page. A group with a default verb (`observe campaigns` runs `list`) shows that verb's
 * arguments and options too, as the bare group runs it: `adops observe campaigns --help` answers
 * the question one asks before typing `adops observe campaigns --limit 5`.
 */
export function groupHelp(registry: Registry, path: readonly string[], description: string): string {
  const name = path.join(' ');
  const verb = registry.groups.find((g) => g.path.join(' ') === name)?.defaultCommand;
  const dflt = verb === undefined ? undefined : registry.commands.find((c) => c.path.join(' ') === `${name} ${verb}`);
  const lines = [description, '', `Usage: adops ${name} <subcommand> [options]`];
  if (dflt) lines.push(`       ${usageLine({ ...dflt, path: path.slice() })}   (runs \`${verb}\`)`);
  lines.push('', 'Subcommands:', ...listLines(registry.children(path).map((c) => (c.name === verb ? { ...c, name: `${c.name} (default)` } : c))), '');
  if (dflt) {
    if (dflt.args?.length) lines.push(`Arguments (of ${verb}):`, ...listLines(dflt.args), '');
    if (dflt.options?.length) lines.push(`Options (of ${verb}, the default):`, ...optionLines(dflt.options), '');
    if (dflt.examples?.length) lines.push('Examples:', ...dflt.examples.map((e) => `  $ ${e}`), '');
  }
  lines.push(`Run \`adops ${name} <subcommand> --help\` for its flags.`, '');
  return lines.join('\n');
}

export function commandHelp(c: CommandSpec): string {
  const lines = [c.description, '', `Usage: ${usageLine(c)}`, ''];
  if (c.args?.length) lines.push('Arguments:', ...listLines(c.args.map((a) => ({ name: a.name, description: a.description }))), '');
  if (c.options?.length) lines.push('Options:', ...optionLines(c.options), '');
  if (c.destructive) lines.push('Destructive: asks for confirmation on a terminal; needs --yes elsewhere.', '');
  if (c.notes) lines.push(c.notes, '');
  if (c.operationId) lines.push(`Operation: ${c.operationId}`, '');
  if (c.exits?.length) lines.push('Exit codes (besides those of every command, in `adops --help`):', ...ownExitLines(c.exits).map((l) => `  ${l}`), '');
  if (c.examples?.length) lines.push('Examples:', ...c.examples.map((e) => `  $ ${e}`), '');
  lines.push('Global options (--output, --fields, --profile, --debug, ...): see `adops --help`.', '');
  return lines.join('\n');
}

/** Help for the words given: a command, a group, or the top. */
export function helpFor(registry: Registry, words: readonly string[], version: string): { text: string; known: boolean } {
  const found = registry.find(words);
  if (found.command) return { text: commandHelp(found.command), known: true };
  if (found.group) return { text: groupHelp(registry, found.group.path, found.group.description), known: true };
  return { text: topHelp(registry.children([]), version), known: words.length === 0 };
}
