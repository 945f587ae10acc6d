// Each operation's request schemas (path params, query, body) and 2xx body,
// keyed by its id: the view of the operation modules' schemas
// (./operations/<api>.schemas.ts) that the sandbox and the CLI read. The sandbox
// validates with these schemas (its routes and the OpenAPI documents are built
// from them), and the CLI derives its flags, argument checks, --help,
// completions and "unknown field" warnings from them, through the plain JSON
// that src/contract/operation-inputs.ts emits (so `--help` loads no zod).
// A test checks that this map and the published OpenAPI documents agree.
import { isOperationId, type OperationId } from './operations.js';
import { ASSETS_SCHEMAS } from './operations/assets.schemas.js';
import { CONTEXT_SCHEMAS } from './operations/context.schemas.js';
import { MUTATIONS_SCHEMAS } from './operations/mutations.schemas.js';
import { OBSERVE_SCHEMAS } from './operations/observe.schemas.js';
import type { OperationSchemas } from './operations/schemas-shape.js';

export type { OperationSchemas } from './operations/schemas-shape.js';

/** Exhaustive: an operation of the table missing here, or an id the table lacks, is a compile error. */
export const OPERATION_SCHEMAS = {
  ...OBSERVE_SCHEMAS,
  ...MUTATIONS_SCHEMAS,
  ...CONTEXT_SCHEMAS,
  ...ASSETS_SCHEMAS,
} as const satisfies { readonly [K in OperationId]: OperationSchemas };

/** The schemas of an operation named by a string (undefined when the table has no such id). */
export function schemasOf(id: string): OperationSchemas | undefined {
  return isOperationId(id) ? OPERATION_SCHEMAS[id] : undefined;
}
