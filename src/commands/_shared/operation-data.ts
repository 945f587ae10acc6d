// What an operation command hands its handler, and what each operation accepts
// (src/contract/generated/operation-inputs.json, emitted from the contract's zod
// schemas). Apart from the factory (operation-command.ts) so the handlers can
// read it without importing the factory that loads them.
import inputs from '../../contract/generated/operation-inputs.json' with { type: 'json' };
import type { FieldInput, OperationInputs } from '../../contract/operation-inputs.js';

const INPUTS = inputs as unknown as Record<string, OperationInputs>;

export function inputsOf(operationId: string): OperationInputs {
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
  operationId: string;
  param: string;
  description: string;
}

/** The data an operation command hands its handler (CommandSpec.data). */
export interface OperationCommandData {
  operationId: string;
  args: ParamArg[];
  flags: FieldFlag[];
  alternate?: AlternateFlag & { flags: string[] };
  resource: string;
  watch: boolean;
}

