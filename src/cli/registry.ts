// The command registry: commands are DATA (wrangler-style). From one list we
// build the commander tree, our help text, completions, docs/cli.md and the
// machine-readable tree. Handlers are imported lazily (`load`) so `--help`
// costs only this file and the definitions.
import { OPERATION_BY_ID } from '../contract/operations.js';
import { defaultFormat, OUTPUT_FORMATS } from './output/writers/formats.js';
import type { CommandInput, CommandSpec, CommandTree, GroupSpec, OptionSpec } from './context.js';

export type { ArgSpec, CommandInput, CommandModule, CommandSpec, CommandTree, GroupSpec, OptionSpec } from './context.js';

/** Flags every command accepts; the runner applies them once. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  {
    flags: '-o, --output <format>',
    description: `output format (default: ${defaultFormat('terminal')} on a terminal, ${defaultFormat('pipe')} otherwise)`,
    choices: OUTPUT_FORMATS,
  },
  { flags: '--json', description: 'same as --output json' },
  { flags: '--fields <list>', description: 'comma-separated fields to show, in this order; dotted paths reach nested ones (target.id)', type: 'list' },
  { flags: '--query <jmespath>', description: "JMESPath applied to the result (a list: its rows), like the AWS CLI's --query" },
  { flags: '--profile <name>', description: 'config profile to use (env ADOPS_PROFILE)' },
  { flags: '--base-url <url>', description: 'service base URL for this run (env ADOPS_BASE_URL)' },
  { flags: '--request-timeout <seconds>', description: 'give up on an attempt when no byte moves for this long (0: no limit)', type: 'number' },
  { flags: '--connect-timeout <seconds>', description: 'limit on opening a connection (0: no limit)', type: 'number' },
  { flags: '--retries <n>', description: 'retries after the first attempt (0 disables)', type: 'int' },
  { flags: '--retry-budget <seconds>', description: 'total time for a request and its retries (0: sent once, never retried)', type: 'number' },
  { flags: '--debug', description: 'trace requests on stderr, secrets redacted (env ADOPS_DEBUG=1)' },
  { flags: '--no-color', description: 'no color (also NO_COLOR)' },
  { flags: '--no-input', description: 'never prompt; a missing value is a usage error', preParsed: true },
  { flags: '-y, --yes', description: 'confirm destructive actions without asking' },
];

/** Long flag name of an option spec: '-o, --output <format>' -> 'output'. */
export function longName(flags: string): string {
  const match = /--(?:no-)?([a-z0-9-]+)/.exec(flags);
  if (!match) throw new Error(`option without a long flag: ${flags}`);
  return match[1]!;
}

/** A command and its arguments in words: 'Delete an asset (asset ast_1)'. Not yet sanitized. */
export function describeCommand(spec: CommandSpec, input: CommandInput): string {
  const args = (spec.args ?? []).map((a) => `${a.name} ${String(input.args[a.name] ?? '')}`).join(', ');
  return `${spec.description}${args ? ` (${args})` : ''}`;
}

export function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export class Registry implements CommandTree {
  readonly groups: readonly GroupSpec[];
  readonly commands: readonly CommandSpec[];

  constructor(groups: readonly GroupSpec[], commands: readonly CommandSpec[]) {
    const seen = new Set<string>();
    const groupKeys = new Set(groups.map((g) => g.path.join(' ')));
    for (const g of groups) {
      if (seen.has(`group:${g.path.join(' ')}`)) throw new Error(`duplicate group: ${g.path.join(' ')}`);
      seen.add(`group:${g.path.join(' ')}`);
      if (g.path.length > 1 && !groupKeys.has(g.path.slice(0, -1).join(' ')))
        throw new Error(`group ${g.path.join(' ')} has no group ${g.path.slice(0, -1).join(' ')}`);
    }
    const globalNames = new Set(GLOBAL_OPTIONS.filter((o) => !o.preParsed).map((o) => longName(o.flags)));
    for (const c of commands) {
      const key = c.path.join(' ');
      if (seen.has(key)) throw new Error(`duplicate command: ${key}`);
      if (groupKeys.has(key)) throw new Error(`command path is also a group: ${key}`);
      seen.add(key);
      for (let i = 1; i < c.path.length; i++) {
        const parent = c.path.slice(0, i).join(' ');
        if (!groupKeys.has(parent)) throw new Error(`command ${key} has no group ${parent}`);
      }
      const names = new Set<string>();
      for (const o of c.options ?? []) {
        const name = longName(o.flags);
        if (names.has(name) || globalNames.has(name)) throw new Error(`duplicate option --${name} on ${key}`);
        names.add(name);
      }
    }
    for (const g of groups) {
      if (g.defaultCommand && !commands.some((c) => c.path.join(' ') === [...g.path, g.defaultCommand].join(' '))) {
        throw new Error(`group ${g.path.join(' ')}: default command ${g.defaultCommand} does not exist`);
      }
    }
    this.groups = groups;
    this.commands = commands;
  }

  /** The command named by the longest prefix of `words`, or the group, or nothing. */
  find(words: readonly string[]): { command?: CommandSpec; group?: GroupSpec; depth: number } {
    for (let n = Math.min(words.length, 5); n > 0; n--) {
      const key = words.slice(0, n).join(' ');
      const command = this.commands.find((c) => c.path.join(' ') === key);
      if (command) return { command, depth: n };
      const group = this.groups.find((g) => g.path.join(' ') === key);
      if (group) return { group, depth: n };
    }
    return { depth: 0 };
  }

  /** Direct children (groups and commands) of a group path ([] for the top). */
  children(path: readonly string[]): Array<{ name: string; description: string; group: boolean }> {
    const depth = path.length;
    const under = (p: readonly string[]) => p.length === depth + 1 && path.every((w, i) => p[i] === w);
    return [
      ...this.groups.filter((g) => under(g.path)).map((g) => ({ name: g.path[depth]!, description: g.description, group: true })),
      ...this.commands.filter((c) => under(c.path) && !c.hidden).map((c) => ({ name: c.path[depth]!, description: c.description, group: false })),
    ].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Machine-readable command tree (`adops help --json`). */
  tree(): unknown {
    const option = (o: OptionSpec) => ({
      flags: o.flags,
      name: longName(o.flags),
      description: o.description,
      ...(o.choices ? { choices: o.choices } : {}),
      takesValue: /[<[]/.test(o.flags),
      ...(o.field ? { field: o.field, in: o.in } : {}),
    });
    const opRef = (id: string) => {
      const op = OPERATION_BY_ID.get(id);
      return { operationId: id, operation: op ? `${op.method} ${op.path}` : undefined };
    };
    return {
      name: 'adops',
      globalOptions: GLOBAL_OPTIONS.map(option),
      groups: this.groups.map((g) => ({ path: g.path, description: g.description, ...(g.defaultCommand ? { defaultCommand: g.defaultCommand } : {}) })),
      commands: this.commands
        .filter((c) => !c.hidden)
        .map((c) => ({
          path: c.path,
          description: c.description,
          args: c.args ?? [],
          options: (c.options ?? []).map(option),
          ...(c.operationId ? opRef(c.operationId) : {}),
          ...(c.alternates ? { alternates: c.alternates.map((a) => ({ ...opRef(a.operationId), when: a.when })) } : {}),
          ...(c.flowOperations ? { flowOperations: c.flowOperations.map(opRef) } : {}),
          ...(c.destructive ? { destructive: true } : {}),
          examples: c.examples ?? [],
        })),
    };
  }
}
