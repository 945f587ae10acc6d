// The plain-argv parse (src/cli/program.ts, #16) must give exactly what
// commander gives: the same command, the same arguments, the same options with
// the same defaults, in the same key order, for every command of the registry
// and many shapes of argv; and it must decline (leave it to commander, whose
// errors we word) whatever it cannot read the same way.
import { describe, expect, it } from 'vitest';
import { getRegistry } from '../../../src/commands/index.js';
import { commanderParse, parse, plainParse, type Parsed } from '../../../src/cli/program.js';
import { GLOBAL_OPTIONS, longName, type CommandSpec, type OptionSpec } from '../../../src/cli/registry.js';

const registry = getRegistry();

/** A value commander accepts for the option. */
function valueFor(o: OptionSpec): string {
  if (o.choices) return o.choices[o.choices.length - 1]!;
  switch (o.type) {
    case 'int':
      return '7';
    case 'number':
    case 'positive':
      return '2.5';
    case 'list':
      return 'a, b,c';
    default:
      return 'x=1';
  }
}

const takesValue = (o: OptionSpec) => /</.test(o.flags);
const flagOf = (o: OptionSpec) => `--${/--((?:no-)?[a-z0-9-]+)/.exec(o.flags)![1]!}`;
const optionArgs = (o: OptionSpec, eq = false): string[] => (!takesValue(o) ? [flagOf(o)] : eq ? [`${flagOf(o)}=${valueFor(o)}`] : [flagOf(o), valueFor(o)]);

/** Several argv of the plain shape for a command: its words, arguments, each option alone, all at once, globals. */
function argvsFor(c: CommandSpec): string[][] {
  const words = [...c.path];
  const args = (c.args ?? []).map((a, i) => `arg${i}`);
  const options = (c.options ?? []).filter((o) => !/\[/.test(o.flags));
  const globals = GLOBAL_OPTIONS.filter((o) => !o.preParsed);
  const out: string[][] = [words, [...words, ...args]];
  for (const o of options) out.push([...words, ...args, ...optionArgs(o)], [...words, ...optionArgs(o, true), ...args]);
  out.push([...words, ...args, ...options.flatMap((o) => optionArgs(o)), ...globals.flatMap((o) => optionArgs(o))]);
  out.push([...words, '--json', ...args, '-o', 'ndjson', '--no-color', '-y', '--fields', 'id,name', '--retries', '0']);
  const repeat = options.find((o) => o.type === 'repeat');
  if (repeat) out.push([...words, ...optionArgs(repeat), ...optionArgs(repeat)]);
  return out;
}

describe('plainParse reads plain argv exactly as commander does', () => {
  const cases = registry.commands.flatMap((c) => argvsFor(c).map((argv) => ({ c, argv })));
  // Groups with a default verb, named alone: `observe campaigns --limit 5 --json`.
  for (const g of registry.groups.filter((x) => x.defaultCommand)) {
    cases.push({
      c: registry.commands.find((c) => c.path.join(' ') === [...g.path, g.defaultCommand].join(' '))!,
      argv: [...g.path, '--limit', '5', '--json', '--all'],
    });
  }

  it(`every command (${registry.commands.length}) and argv shape (${cases.length})`, async () => {
    let plain = 0;
    for (const { argv } of cases) {
      const fast = plainParse(registry, argv);
      let slow: Parsed | undefined;
      try {
        slow = await commanderParse(registry, argv);
      } catch (err) {
        // commander refuses it: the plain parse must have declined too.
        expect(fast, `${argv.join(' ')}: commander says ${String(err)}`).toBeUndefined();
        continue;
      }
      if (!fast) continue;
      // Commander parsed what the plain parser parsed.
      expect(slow, argv.join(' ')).toBeDefined();
      if (!slow) continue;
      plain++;
      expect(fast.spec, argv.join(' ')).toBe(slow.spec);
      expect(fast.input.args, argv.join(' ')).toEqual(slow.input.args);
      expect(Object.entries(fast.input.opts), argv.join(' ')).toEqual(Object.entries(slow.input.opts));
    }
    // Most of them are plain: the check compares, it does not just skip.
    expect(plain).toBeGreaterThan(cases.length * 0.8);
  });

  it('declines what it cannot read the same way; commander then parses or refuses it', async () => {
    const declined = [
      ['--json', 'observe', 'campaigns'], // an option before the words
      ['observe', 'campaigns', '--limit'], // a value missing
      ['observe', 'campaigns', '--limit', '-5'], // a value that looks like an option
      ['observe', 'campaigns', '--limit', 'five'], // refused by its parser
      ['observe', 'campaigns', '-o', 'yaml'], // not one of the choices
      ['observe', 'campaigns', '--all=yes'], // a value for a flag that takes none
      ['observe', 'campaigns', '--nope'], // unknown
      ['observe', 'campaigns', '-yo', 'json'], // bundled short flags
      ['observe', 'campaigns', '--', '--json'],
      ['observe', 'campaigns', 'extra'], // a word after a group: another verb, or an excess argument
      ['observe', 'campaigns', 'list', 'extra'], // an excess argument
      ['observe', 'campaigns', 'get', 'a', 'b', 'c'],
      ['nothing', 'here'],
    ];
    for (const argv of declined) expect(plainParse(registry, argv), argv.join(' ')).toBeUndefined();
    await expect(parse(registry, ['observe', 'campaigns', '--limit', 'five'])).rejects.toThrow(/expected a whole number/);
    await expect(parse(registry, ['observe', 'campaigns', '-o', 'yaml'])).rejects.toThrow(/Allowed choices are table, json, ndjson, csv/);
    expect((await parse(registry, ['--json', 'observe', 'campaigns']))?.spec.path).toEqual(['observe', 'campaigns', 'list']);
  });

  it('reads the everyday read without commander', () => {
    const p = plainParse(registry, ['observe', 'campaigns', '--all', '--output', 'ndjson']);
    expect(p?.spec.path).toEqual(['observe', 'campaigns', 'list']);
    expect(p?.input.opts).toMatchObject({ all: true, output: 'ndjson', color: true });
    expect(longName('--no-color')).toBe('color');
  });
});
