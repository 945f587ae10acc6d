// Parses argv into a command and its input. The plain shape scripts use (the
// command's words first, then its options and arguments, each spelled out) is
// read here directly (#16: commander is ~140 KB to load); anything else, and
// every misuse, goes to commander, built from the registry, whose errors are
// then ours to word (report.ts). Help is ours too (help.ts). Arguments are
// declared optional so the runner can prompt for a missing one on a terminal
// and give a usage error elsewhere.
import type { Command, Option } from 'commander';
import { camel, GLOBAL_OPTIONS, longName, type CommandInput, type CommandSpec, type OptionSpec, type Registry } from './registry.js';

/** Thrown by a value parser: commander words it as `option '…' argument '…' is invalid. <message>`. */
class BadValue extends Error {}

export interface Parsed {
  spec: CommandSpec;
  input: CommandInput;
}

function parser(o: OptionSpec): ((value: string, previous: unknown) => unknown) | undefined {
  switch (o.type) {
    case 'int':
      return (v) => {
        if (!/^-?\d+$/.test(v)) throw new BadValue('expected a whole number');
        return Number(v);
      };
    case 'number':
      return (v) => {
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new BadValue('expected a number, 0 or more');
        return n;
      };
    case 'positive':
      return (v) => {
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new BadValue('expected an amount greater than 0');
        return n;
      };
    case 'list':
      return (v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
    case 'repeat':
      return (v, previous) => [...((previous as string[] | undefined) ?? []), v];
    default:
      return undefined;
  }
}

function makeOption(commander: Commander, o: OptionSpec): Option {
  const option = new commander.Option(o.flags, o.description);
  if (o.choices) option.choices(o.choices);
  const parse = parser(o);
  if (parse) {
    option.argParser((value: string, previous: unknown) => {
      try {
        return parse(value, previous);
      } catch (err) {
        throw err instanceof BadValue ? new commander.InvalidArgumentError(err.message) : err;
      }
    });
  }
  if (o.defaultValue !== undefined) option.default(o.defaultValue);
  if (o.hidden) option.hideHelp();
  return option;
}

function quiet(cmd: Command): Command {
  return cmd
    .exitOverride()
    .helpOption(false)
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
}

type Commander = typeof import('commander');

/**
 * Parse argv into the command to run and its input; throws commander's CommanderError on misuse.
 * Only the levels argv walks are built (#16): a group's children are added as bare named commands
 * (what commander needs to dispatch, pick the default verb and suggest a name), and one is filled in
 * (its options, arguments, or its own children) by the group's `preSubcommand` hook, just before
 * commander hands it the rest of argv. Everything commander sees at a level is as in the whole tree.
 */
export async function parse(registry: Registry, argv: readonly string[]): Promise<Parsed | undefined> {
  return plainParse(registry, argv) ?? commanderParse(registry, argv);
}

/** commander's parse, from the registry (exported for the test that holds plainParse to it). */
export async function commanderParse(registry: Registry, argv: readonly string[]): Promise<Parsed | undefined> {
  const commander = await import('commander');
  const program = quiet(new commander.Command('adops')).helpCommand(false).allowExcessArguments(false);
  for (const o of GLOBAL_OPTIONS) if (!o.preParsed) program.addOption(makeOption(commander, o));
  const groups = new Map(registry.groups.map((g) => [g.path.join(' '), g]));
  const commands = new Map(registry.commands.map((c) => [c.path.join(' '), c]));
  let parsed: Parsed | undefined;

  const fillCommand = (cmd: Command, spec: CommandSpec) => {
    cmd.allowExcessArguments(false);
    for (const a of spec.args ?? []) cmd.argument(a.variadic ? `[${a.name}...]` : `[${a.name}]`, a.description);
    for (const o of spec.options ?? []) cmd.addOption(makeOption(commander, o));
    cmd.action((...actionArgs: unknown[]) => {
      const self = actionArgs[actionArgs.length - 1] as Command;
      const args: CommandInput['args'] = {};
      (spec.args ?? []).forEach((a, i) => {
        args[a.name] = self.processedArgs[i] as string | string[] | undefined;
      });
      parsed = { spec, input: { args, opts: self.optsWithGlobals() } };
    });
  };
  // The children of a group (or of the top, path []), in registry order: groups first, then commands.
  const fillGroup = (node: Command, path: readonly string[]) => {
    const depth = path.length;
    const under = (p: readonly string[]) => p.length === depth + 1 && path.every((w, i) => p[i] === w);
    const dflt = depth > 0 ? groups.get(path.join(' '))?.defaultCommand : undefined;
    for (const child of [...registry.groups.filter((g) => under(g.path)), ...registry.commands.filter((c) => under(c.path))]) {
      const name = child.path[depth]!;
      quiet(node.command(name, name === dflt ? { isDefault: true } : {}))
        .helpCommand(false)
        .description(child.description);
    }
    node.hook('preSubcommand', (_self, sub) => {
      const key = [...path, sub.name()].join(' ');
      const spec = commands.get(key);
      if (spec) fillCommand(sub, spec);
      else fillGroup(sub, [...path, sub.name()]);
    });
  };
  fillGroup(program, []);
  await program.parseAsync([...argv], { from: 'user' });
  return parsed;
}

interface Flag {
  spec: OptionSpec;
  /** commander's attribute name: camelCased, without `no-` for a negated flag. */
  key: string;
  negate: boolean;
  takesValue: boolean;
  global: boolean;
}

/** An option's value as commander stores it, or undefined when commander would refuse it (it then says why). */
function optionValue(f: Flag, value: string | undefined, previous: unknown): { value: unknown } | undefined {
  if (!f.takesValue) return { value: !f.negate };
  if (value === undefined) return undefined;
  const parse = parser(f.spec);
  if (parse) {
    try {
      return { value: parse(value, previous) };
    } catch {
      return undefined;
    }
  }
  return f.spec.choices && !f.spec.choices.includes(value) ? undefined : { value };
}

/**
 * The input commander would produce, for argv of the plain shape: the command's words (or a group's,
 * when it has a default verb) first, then long options (`--limit 5`, `--limit=5`), `-x` short ones,
 * and plain words as the command's arguments. undefined for anything else (`--`, bundled short flags,
 * an option before the words, a value that starts with `-`, a value commander would refuse, excess
 * arguments): commander parses those. Key order, defaults and negation follow commander's (the
 * command's options, then the global ones, each defaults first), so the input is the same either way.
 */
export function plainParse(registry: Registry, argv: readonly string[]): Parsed | undefined {
  let depth = 0;
  while (depth < argv.length && depth < 5 && !argv[depth]!.startsWith('-')) depth++;
  const found = registry.find(argv.slice(0, depth));
  const group = found.group;
  const spec =
    found.command ??
    (group?.defaultCommand
      ? registry.commands.find(
          (c) => c.path.length === group.path.length + 1 && c.path.at(-1) === group.defaultCommand && group.path.every((w, i) => c.path[i] === w),
        )
      : undefined);
  if (!spec) return undefined;
  const flags = new Map<string, Flag>();
  const own: Record<string, unknown> = {};
  const globals: Record<string, unknown> = {};
  const declare = (list: readonly OptionSpec[], global: boolean) => {
    for (const o of list) {
      if (o.preParsed || /\[/.test(o.flags)) {
        if (!o.preParsed) return false; // an optional value: commander's rules
        continue;
      }
      const long = `--${/--((?:no-)?[a-z0-9-]+)/.exec(o.flags)![1]!}`;
      const negate = long.startsWith('--no-');
      const f: Flag = { spec: o, key: camel(longName(o.flags)), negate, takesValue: /</.test(o.flags), global };
      flags.set(long, f);
      const short = /^-([a-zA-Z]),/.exec(o.flags)?.[1];
      if (short) flags.set(`-${short}`, f);
      const values = global ? globals : own;
      if (negate) values[f.key] = o.defaultValue ?? true;
      else if (o.defaultValue !== undefined) values[f.key] = o.defaultValue;
    }
    return true;
  };
  // A flag and its --no- twin on one command: commander's defaults differ; leave it to commander.
  if (!declare(spec.options ?? [], false) || !declare(GLOBAL_OPTIONS, true)) return undefined;
  if ([...flags.values()].some((f) => f.negate && [...flags.values()].some((g) => !g.negate && g.key === f.key))) return undefined;

  const words: string[] = [];
  for (let i = found.depth; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('-') || token === '-') {
      words.push(token);
      continue;
    }
    if (token === '--') return undefined;
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const f = flags.get(eq > 0 ? token.slice(0, eq) : token);
    if (!f || (eq > 0 && !f.takesValue)) return undefined;
    let raw: string | undefined;
    if (eq > 0) raw = token.slice(eq + 1);
    else if (f.takesValue) {
      raw = argv[++i];
      if (raw === undefined || raw.startsWith('-')) return undefined;
    }
    const values = f.global ? globals : own;
    const v = optionValue(f, raw, values[f.key]);
    if (!v) return undefined;
    // An option with a default keeps its place (assignment does not move a key), as in commander.
    values[f.key] = v.value;
  }
  const declared = spec.args ?? [];
  if (!declared.at(-1)?.variadic && words.length > declared.length) return undefined;
  // With the group's words alone, a word could name another verb of the group: commander decides.
  if (!found.command && words.length > 0) return undefined;
  const args: CommandInput['args'] = {};
  declared.forEach((a, i) => {
    args[a.name] = a.variadic ? words.slice(i) : words[i];
  });
  return { spec, input: { args, opts: { ...own, ...globals } } };
}
