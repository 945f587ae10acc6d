// Typed handler input, as wrangler infers handler arguments from declared
// args: a command's declarations say what its handler reads. `command()`
// infers each flag's type from its spec ('--max <n>' with type 'int' ->
// `max?: number`, '--all' -> `all?: boolean`, 'repeat' and 'list' -> string[],
// choices -> their union, a default -> always present) and checks at compile
// time that the handler module's `run` takes what the declarations give it:
// a handler reading an undeclared flag, or a flag as the wrong type, does not
// build. The parser (program.ts) produces exactly these shapes.
import type { ArgSpec, CommandContext, CommandInput, CommandSpec, OptionSpec, ParsedGlobals } from './context.js';

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type FirstWord<S extends string> = S extends `${infer Word} ${string}` ? Word : S;
/** '-o, --output <format>' -> 'output'; '--no-verify' -> 'verify'; '--ingest-every <s>' -> 'ingestEvery' (commander's attribute names). */
export type OptionKey<Flags extends string> = Flags extends `${string}--no-${infer Rest}`
  ? Camel<FirstWord<Rest>>
  : Flags extends `${string}--${infer Rest}`
    ? Camel<FirstWord<Rest>>
    : never;

/** The value commander hands over for one option. */
export type OptionValue<O extends OptionSpec> = O extends { type: 'int' | 'number' | 'positive' }
  ? number
  : O extends { type: 'list' | 'repeat' }
    ? string[]
    : O extends { choices: readonly (infer C extends string)[] }
      ? C
      : O['flags'] extends `${string}<${string}`
        ? string
        : O['flags'] extends `${string}[${string}`
          ? string | true
          : boolean;

type WithDefault = { defaultValue: string | number | boolean } | { flags: `${string}--no-${string}` };

export type OptionsOf<Os extends readonly OptionSpec[]> = {
  [O in Os[number] as O extends WithDefault ? OptionKey<O['flags']> : never]: OptionValue<O>;
} & {
  [O in Os[number] as O extends WithDefault ? never : OptionKey<O['flags']>]?: OptionValue<O>;
};

/** A required argument is there when the handler runs: the runner prompted for it or gave a usage error. */
export type ArgsOf<As extends readonly ArgSpec[]> = {
  [A in As[number] as A['name']]: A extends { variadic: true } ? string[] | undefined : A extends { required: true } ? string : string | undefined;
};

export type InputOf<As extends readonly ArgSpec[], Os extends readonly OptionSpec[]> = CommandInput<OptionsOf<Os> & ParsedGlobals, ArgsOf<As>>;

/** A handler module as command() checks it: function properties, so its input is compared strictly. */
export interface TypedModule<Input> {
  run: (ctx: CommandContext, input: Input, spec: CommandSpec) => Promise<number | void>;
  describeTarget?: (ctx: CommandContext, input: Input, spec: CommandSpec) => Promise<string>;
}

/** A command's definition whose handler input is typed by its declarations. */
export function command<const As extends readonly ArgSpec[] = [], const Os extends readonly OptionSpec[] = []>(
  spec: Omit<CommandSpec, 'args' | 'options' | 'load'> & { args?: As; options?: Os; load: () => Promise<TypedModule<InputOf<As, Os>>> },
): CommandSpec {
  return spec;
}
