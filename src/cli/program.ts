// Builds the commander tree from the registry. Commander only parses here:
// help is ours (help.ts), errors are ours (report.ts). Arguments are declared
// optional so the runner can prompt for a missing one on a terminal and give
// a usage error elsewhere.
import { Command, InvalidArgumentError, Option } from 'commander';
import { GLOBAL_OPTIONS, type CommandInput, type CommandSpec, type OptionSpec, type Registry } from './registry.js';

export interface Parsed {
  spec: CommandSpec;
  input: CommandInput;
}

function parser(o: OptionSpec): ((value: string, previous: unknown) => unknown) | undefined {
  switch (o.type) {
    case 'int':
      return (v) => {
        if (!/^-?\d+$/.test(v)) throw new InvalidArgumentError('expected a whole number');
        return Number(v);
      };
    case 'number':
      return (v) => {
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number, 0 or more');
        return n;
      };
    case 'positive':
      return (v) => {
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected an amount greater than 0');
        return n;
      };
    case 'list':
      return (v) => v.split(',').map((s) => s.trim()).filter(Boolean);
    case 'repeat':
      return (v, previous) => [...((previous as string[] | undefined) ?? []), v];
    default:
      return undefined;
  }
}

function makeOption(o: OptionSpec): Option {
  const option = new Option(o.flags, o.description);
  if (o.choices) option.choices(o.choices);
  const parse = parser(o);
  if (parse) option.argParser(parse);
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

/**
 * Parse argv into the command to run and its input; throws commander's CommanderError on misuse.
 * Only the levels argv walks are built (#16): a group's children are added as bare named commands
 * (what commander needs to dispatch, pick the default verb and suggest a name), and one is filled in
 * (its options, arguments, or its own children) by the group's `preSubcommand` hook, just before
 * commander hands it the rest of argv. Everything commander sees at a level is as in the whole tree.
 */
export async function parse(registry: Registry, argv: readonly string[]): Promise<Parsed | undefined> {
  const program = quiet(new Command('adops')).helpCommand(false).allowExcessArguments(false);
  for (const o of GLOBAL_OPTIONS) if (!o.preParsed) program.addOption(makeOption(o));
  const groups = new Map(registry.groups.map((g) => [g.path.join(' '), g]));
  const commands = new Map(registry.commands.map((c) => [c.path.join(' '), c]));
  let parsed: Parsed | undefined;

  const fillCommand = (cmd: Command, spec: CommandSpec) => {
    cmd.allowExcessArguments(false);
    for (const a of spec.args ?? []) cmd.argument(a.variadic ? `[${a.name}...]` : `[${a.name}]`, a.description);
    for (const o of spec.options ?? []) cmd.addOption(makeOption(o));
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
      quiet(node.command(name, name === dflt ? { isDefault: true } : {})).helpCommand(false).description(child.description);
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
