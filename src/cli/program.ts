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

/** Parse argv into the command to run and its input; throws commander's CommanderError on misuse. */
export async function parse(registry: Registry, argv: readonly string[]): Promise<Parsed | undefined> {
  const program = quiet(new Command('adops')).helpCommand(false).allowExcessArguments(false);
  for (const o of GLOBAL_OPTIONS) if (!o.preParsed) program.addOption(makeOption(o));
  const nodes = new Map<string, Command>([['', program]]);
  const defaults = new Set(registry.groups.filter((g) => g.defaultCommand).map((g) => [...g.path, g.defaultCommand].join(' ')));
  let parsed: Parsed | undefined;

  const node = (path: readonly string[]): Command => {
    const key = path.join(' ');
    let cmd = nodes.get(key);
    if (!cmd) {
      const parent = node(path.slice(0, -1));
      // A group's default verb runs when the group is named alone (`observe campaigns --live acc_1`).
      cmd = quiet(parent.command(path[path.length - 1]!, defaults.has(key) ? { isDefault: true } : {})).helpCommand(false);
      nodes.set(key, cmd);
    }
    return cmd;
  };
  for (const g of registry.groups) node(g.path).description(g.description);
  for (const spec of registry.commands) {
    const cmd = node(spec.path).description(spec.description).allowExcessArguments(false);
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
  }
  await program.parseAsync([...argv], { from: 'user' });
  return parsed;
}
