// How the CLI names an operation's command, from the table alone: its words
// (`cli.path`), its positional arguments (the path parameters, in order) and
// the flag that carries each field. The command factory
// (src/commands/_shared/operation-command.ts) names its flags with these, and
// a flow that tells the user what to run next (`adops assets delete ast_1
// --yes`) writes the line with commandLine, so renaming a command or a flag in
// its module entry cannot leave a stale hint behind. Plain data: no zod.
import { OPERATION_TABLE, pathParams, type OperationCli, type OperationId } from './operations.js';
import { resourceEntries, type ResourceName } from './resources.js';

export const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** References to the Observe entities are named by their noun (its `ref`, ./resources.ts), as the spec's filters read: `--advertiser acc_1`. */
const NOUN_FLAGS: Readonly<Record<string, string>> = Object.fromEntries(resourceEntries().flatMap(([, r]) => (r.ref ? [[r.ref.field, r.ref.flag]] : [])));

/** `advertiserId` -> `advertiser`, `timeGrain` -> `time-grain`, `entityId` -> `entity-id`. */
export function defaultFlagName(field: string): string {
  return NOUN_FLAGS[field] ?? kebab(field);
}

/** The flag (without dashes) that carries `field` on a command with these `flagNames`. */
export function flagName(field: string, flagNames?: Readonly<Record<string, string>>): string {
  return flagNames?.[field] ?? defaultFlagName(field);
}

/** The table's CLI entry of an operation (where its plain command sits), its noun one of the resources module's; undefined when it has none. */
export function cliEntry(id: OperationId): OperationCli<ResourceName> | undefined {
  const op = OPERATION_TABLE[id];
  return 'cli' in op ? op.cli : undefined;
}

/** The table's CLI entry of an operation that has a plain command. */
export function cliOf(id: OperationId): OperationCli<ResourceName> {
  const cli = cliEntry(id);
  if (!cli) throw new Error(`operation ${id} has no command of its own`);
  return cli;
}

/** The words that name `id`'s command: `adops plans update`. */
export function commandName(id: OperationId): string {
  return ['adops', ...cliOf(id).path].join(' ');
}

/**
 * The command line that performs `id`: `adops`, its words, the values of its path parameters as its
 * positional arguments, then a flag per field (`{ state: 'reserved' }` -> `--state reserved`), and
 * `--yes` for a delete (a hint is for a script as much as for a person). Values are ids and words the
 * service accepts, written as they are.
 */
export function commandLine(id: OperationId, params: Readonly<Record<string, string>>, fields: Readonly<Record<string, string>> = {}): string {
  const cli = cliOf(id);
  const op = OPERATION_TABLE[id];
  const positional = pathParams(op.path).map((p) => {
    const v = params[p];
    if (v === undefined) throw new Error(`${id}: no value for its path parameter ${p}`);
    return v;
  });
  const flags = Object.entries(fields).flatMap(([f, v]) => [`--${flagName(f, cli.flagNames)}`, v]);
  return [commandName(id), ...positional, ...flags, ...(op.kind === 'delete' ? ['--yes'] : [])].join(' ');
}
