// What an operation command hands its handler, and what each operation accepts
// (src/contract/generated/operation-inputs.json, emitted from the contract's zod
// schemas). Apart from the factory (operation-command.ts) so the handlers can
// read it without importing the factory that loads them.
import inputs from '../../contract/generated/operation-inputs.json' with { type: 'json' };
import type { CommandContext, CommandInput, CommandSpec, ParsedGlobals } from '../../cli/context.js';
import type { FieldInput, OperationInputs } from '../../contract/operation-inputs.js';
import type { OperationId } from '../../contract/operations.js';
import type { ResourceName } from '../../contract/resources.js';

// The generated JSON widens each field's type word to string; gen.mjs writes it from the typed contract.
const INPUTS = inputs as Record<string, OperationInputs>;

export function inputsOf(operationId: OperationId): OperationInputs {
  const found = INPUTS[operationId];
  if (!found) throw new Error(`no inputs for operation ${operationId}`);
  return found;
}

/** A flag that becomes one query or body field. */
export interface FieldFlag {
  /** Flag name without dashes, e.g. 'advertiser'. */
  flag: string;
  /** Wire name, e.g. 'advertiserId'. */
  field: string;
  in: 'query' | 'body';
  input: FieldInput;
}

/** A positional argument that fills one path parameter. */
export interface ParamArg {
  name: string;
  param: string;
  input: FieldInput;
}

/**
 * A flag that switches to another operation whose path names the advertiser
 * (stored vs live reads): `--live acc_1` -> listLiveCampaigns with advertiserId=acc_1.
 */
export interface AlternateFlag {
  flag: string;
  operationId: OperationId;
  param: string;
  description: string;
}

/** The data an operation command hands its handler (CommandSpec.data). */
export interface OperationCommandData {
  operationId: OperationId;
  args: ParamArg[];
  flags: FieldFlag[];
  alternate?: AlternateFlag & { flags: string[] };
  /** The noun it shows (src/contract/resources.ts). */
  resource: ResourceName;
  watch: boolean;
}

/**
 * What an operation command's handler reads: the options the factory declares
 * by kind (paging, -f/-F/--input, --wait, revision), typed; the flags derived
 * from the operation's fields are read by name (data.flags) and checked by
 * request-input.ts against what the operation accepts.
 */
export type OperationOptions = ParsedGlobals & {
  limit?: number;
  cursor?: string;
  all?: boolean;
  max?: number;
  field?: string[];
  jsonField?: string[];
  input?: string;
  wait?: boolean;
  timeout?: number;
  interval?: number;
  revision?: number;
  force?: boolean;
} & Record<string, unknown>;

/** `Extra`: the handler's own options (the factory's extraOptions), typed from their declarations. */
export type OperationInput<Extra = object> = CommandInput<OperationOptions & Extra>;

/** The handler of an operation command: it gets the command's data from the factory, not from a cast of spec.data. */
export interface OperationHandler<Extra = object> {
  run: (ctx: CommandContext, input: OperationInput<Extra>, data: OperationCommandData, spec: CommandSpec) => Promise<number | void>;
  describeTarget?: (ctx: CommandContext, input: OperationInput<Extra>, data: OperationCommandData, spec: CommandSpec) => Promise<string>;
}
